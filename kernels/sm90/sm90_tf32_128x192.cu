/* sm90_tf32_128x192.cu — f32 inputs with tf32 math, 128×192×32 tiles (a k-tile is a 128-byte row
 * of fp32), 2 consumer warpgroups of 64×192, 4 stages (160 KB), clusters of 2 along m sharing B:
 * the 16-bit family's 128×192 configuration on 4-byte elements, which move the same bytes per
 * tensor-core cycle at tf32's half rate. K-major operands; the planner repacks others. */
#include "sm90_launch.cuh"

TG_SM90_ROW_tf32_128x192(SM90_ROW_FUNCTIONS)
