/*
 * f32_128x128.cu — the f32 family's large tile: 128×128×16, 8 warps (2×4 warps of 64×32, each
 * thread 8×8 outputs), 3 cp.async stages (50 KB), two CTAs per SM so that one multiplies while
 * the other waits at its barrier. Large problems: 64 FFMA per thread for every 4 shared float4
 * reads, and the fewest bytes loaded per flop of the family.
 */
#include "f32_launch.cuh"

namespace {
typedef F32Config<TG_F32_128X128> Config128x128;
}

F32_ROW(128x128, Config128x128, 0)
