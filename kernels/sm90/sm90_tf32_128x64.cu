/* sm90_tf32_128x64.cu — f32 inputs with tf32 math, 128×64×32 tiles, 2 consumer warpgroups of
 * 64×64, 8 stages: the small tile for skinny problems (the transposed decode shapes), which need
 * many loads in flight more than math per byte. K-major operands; the planner repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_tf32_128x64(SM90_ROW_FUNCTIONS)
