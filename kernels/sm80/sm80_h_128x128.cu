/* sm80_h_128x128.cu — f16/bf16, 128×128×64 CTA tile, 4 warps (2×2, 64×64 each), 3 stages
 * (96 KB), two CTAs per SM so that a barrier in one leaves the other's warps to issue:
 * mid-size problems, where 128×256 tiles would leave SMs idle; also its split-K row. */
#include "sm80_launch.cuh"

SM80_ROW(h_128x128, (sm80_launch_16bit<TG_SM80_H_128X128>), 128, 128, 64, 0)
SM80_ROW(h_128x128_splitk, (sm80_launch_16bit<TG_SM80_H_128X128>), 128, 128, 64, 1)
