/* sm90_128x64.cu — 128×64×64 tiles, 2 consumer warpgroups of 64×64, 8 stages (192 KB), no
 * cluster: small problems and thin n, four times the tiles of 128×256. K-major operands. */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x64(SM90_ROW_FUNCTIONS)
