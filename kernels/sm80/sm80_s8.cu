/* sm80_s8.cu — int8 × int8 → exact int32 on tensor cores (m16n8k32), K-major operands (the
 * planner repacks others): 128×256×128 (8 warps, 3 stages), 128×128×128 (4 warps, 4 stages)
 * and 64×64×128 (4 warps, 4 stages, also split-K). */
#include "sm80_launch.cuh"

SM80_ROW(s8_128x256, (sm80_launch_one_type<Sm80S8, TG_SM80_S8_128X256>), 128, 256, 128, 0)
SM80_ROW(s8_128x128, (sm80_launch_one_type<Sm80S8, TG_SM80_S8_128X128>), 128, 128, 128, 0)
SM80_ROW(s8_64x64, (sm80_launch_one_type<Sm80S8, TG_SM80_S8_64X64>), 64, 64, 128, 0)
SM80_ROW(s8_64x64_splitk, (sm80_launch_one_type<Sm80S8, TG_SM80_S8_64X64>), 64, 64, 128, 1)
