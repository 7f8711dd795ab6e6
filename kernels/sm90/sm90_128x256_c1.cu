/* sm90_128x256_c1.cu — sm90_128x256.cu's tiles without a cluster (each CTA fetches all of B):
 * the planner's and tuner's alternative when clusters cannot be placed well. Its own
 * translation unit so that the two largest sm90 configs compile in parallel. */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x256_c1(SM90_ROW_FUNCTIONS)
