/* sm90_256x128.cu — 256×128×64 tiles, 2 consumer warpgroups of 128×128 (two m64n128k16 each),
 * 4 stages (192 KB), clusters of 2 along n multicasting A (the wider tile): the tall twin of
 * 128×256. Any operand orders. */
#include "sm90_launch.cuh"

TG_SM90_ROW_256x128(SM90_ROW_FUNCTIONS)
