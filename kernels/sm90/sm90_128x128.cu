/* sm90_128x128.cu — 128×128×64 tiles, 2 consumer warpgroups of 64×128, 6 stages (192 KB), no
 * cluster: mid-size problems, twice the tiles of 128×256 to fill the SMs. K-major operands. */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x128(SM90_ROW_FUNCTIONS)
