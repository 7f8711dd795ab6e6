/* sm90_s8_128x192.cu — int8 inputs into exact int32, 128×192×128 tiles, 2 consumer warpgroups of
 * 64×192, 4 stages (160 KB), clusters of 2 along m sharing B: the widest tile whose D leaves
 * through the GENERAL epilogue alone (128×256 is a two-group tile). K-major operands; the planner
 * repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_s8_128x192(SM90_ROW_FUNCTIONS)
