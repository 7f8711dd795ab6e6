/* sm90_128x256_c1.cu — sm90_128x256.cu's tiles without a cluster (each CTA fetches all of B):
 * the planner's and tuner's alternative when clusters cannot be placed well. Its own
 * translation unit so that the two largest sm90 configs compile in parallel. */
#include "sm90_launch.cuh"

SM90_ROW_FUNCTIONS(128x256_c1, 128, 256, 4, 1, 1, TG_SM90_COOPERATIVE, true)
