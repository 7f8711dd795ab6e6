/* sm80_h_64x128.cu — f16/bf16, 64×128×64 CTA tile, 4 warps (2×2, 32×64 each), 4 stages:
 * small m (decode-like shapes) and wave-quantization relief. */
#include "sm80_launch.cuh"

SM80_ROW(h_64x128, (sm80_launch_16bit<TG_SM80_H_64X128>), 64, 128, 64, 0)
