/* sm80_h_64x64.cu — f16/bf16, 64×64×64 CTA tile, 4 warps (2×2, 32×32 each), 4 stages:
 * small problems; with split-K, small m·n with large k. */
#include "sm80_launch.cuh"

SM80_ROW(h_64x64, (sm80_launch_16bit<TG_SM80_H_64X64>), 64, 64, 64, 0)
SM80_ROW(h_64x64_splitk, (sm80_launch_16bit<TG_SM80_H_64X64>), 64, 64, 64, 1)
