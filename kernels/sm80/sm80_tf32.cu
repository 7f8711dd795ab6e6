/* sm80_tf32.cu — fp32 data on tensor cores as tf32 (m16n8k8, inputs rounded to nearest even),
 * K-major operands (the planner repacks others): 256×128×32 (8 warps, 3 stages), 128×128×32
 * (4 warps, 3 stages, 2 CTAs/SM) and 64×64×32 (4 warps, 4 stages, also split-K). 256×128 rather
 * than 128×256: the same fragments per warp, and it measured faster. */
#include "sm80_launch.cuh"

SM80_ROW(tf32_256x128, (sm80_launch_one_type<Sm80TF32, TG_SM80_TF32_256X128>), 256, 128, 32, 0)
SM80_ROW(tf32_128x128, (sm80_launch_one_type<Sm80TF32, TG_SM80_TF32_128X128>), 128, 128, 32, 0)
SM80_ROW(tf32_64x64, (sm80_launch_one_type<Sm80TF32, TG_SM80_TF32_64X64>), 64, 64, 32, 0)
SM80_ROW(tf32_64x64_splitk, (sm80_launch_one_type<Sm80TF32, TG_SM80_TF32_64X64>), 64, 64, 32, 1)
