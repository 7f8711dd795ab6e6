/* sm90_s8_128x128.cu — int8 inputs into exact int32, 128×128×128 tiles, 2 consumer warpgroups of
 * 64×128, 6 stages, clusters of 2 along m: more tiles than 128×192 for mid-size problems.
 * K-major operands; the planner repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_s8_128x128(SM90_ROW_FUNCTIONS)
