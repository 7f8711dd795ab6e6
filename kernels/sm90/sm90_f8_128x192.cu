/* sm90_f8_128x192.cu — fp8 inputs, 128×192×128 tiles, 2 consumer warpgroups of 64×192 that
 * promote each k-tile's sums into fp32, 4 stages (160 KB), clusters of 2 along m sharing B: half
 * again the math per byte of shared memory of 128×128. K-major operands; no BLOCK scales (192
 * columns straddle B's 128-column scale blocks). */
#include "sm90_launch.cuh"

TG_SM90_ROW_f8_128x192(SM90_ROW_FUNCTIONS)
