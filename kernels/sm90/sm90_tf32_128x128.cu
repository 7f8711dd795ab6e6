/* sm90_tf32_128x128.cu — f32 inputs with tf32 math, 128×128×32 tiles, 2 consumer warpgroups of
 * 64×128, 6 stages, no cluster: twice the tiles of 128×192 for problems that leave SMs idle with
 * the larger tile. K-major operands; the planner repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_tf32_128x128(SM90_ROW_FUNCTIONS)
