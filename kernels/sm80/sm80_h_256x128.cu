/* sm80_h_256x128.cu — f16/bf16, 256×128×64 CTA tile, 8 warps (4×2, 64×64 each), 4 stages:
 * the tall twin of 128×256, for problems with m much larger than n. */
#include "sm80_launch.cuh"

SM80_ROW(h_256x128, (sm80_launch_16bit<TG_SM80_H_256X128>), 256, 128, 64, 0)
