/* sm90_f8_128x128.cu — fp8 inputs, 128×128×128 tiles, 2 consumer warpgroups of 64×128 that promote
 * each k-tile's sums into fp32 (and apply BLOCK scales there), 6 stages (192 KB), clusters of 2
 * along m sharing B. K-major operands. */
#include "sm90_launch.cuh"

TG_SM90_ROW_f8_128x128(SM90_ROW_FUNCTIONS)
