/* sm80_h_128x256.cu — f16/bf16, 128×256×64 CTA tile, 8 warps (2×4, 64×64 each), 4 stages:
 * the largest tile, for large problems (fewest bytes loaded per flop). */
#include "sm80_launch.cuh"

SM80_ROW(h_128x256, (sm80_launch_16bit<TG_SM80_H_128X256>), 128, 256, 64, 0)
