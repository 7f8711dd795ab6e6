/* sm90_s8_128x64.cu — int8 inputs into exact int32, 128×64×128 tiles, 2 consumer warpgroups of
 * 64×64, 8 stages: the small tile for skinny problems, which need loads in flight more than math
 * per byte. K-major operands; the planner repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_s8_128x64(SM90_ROW_FUNCTIONS)
