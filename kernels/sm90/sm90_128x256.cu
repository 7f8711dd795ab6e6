/* sm90_128x256.cu — 128×256×64 tiles, 2 consumer warpgroups of 64×256 (m64n256k16), 4 stages
 * (192 KB), clusters of 2 along m multicasting B: the large-problem config, fewest operand
 * bytes per flop. Any operand orders. */
#include "sm90_launch.cuh"

TG_SM90_ROW_128x256(SM90_ROW_FUNCTIONS)
