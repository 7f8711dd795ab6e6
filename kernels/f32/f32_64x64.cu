/*
 * f32_64x64.cu — the f32 family's small tile: 64×64×16, 4 warps (2×2 warps of 32×32, each
 * thread 4×8 outputs), 3 cp.async stages (26 KB), at least 4 CTAs per SM. Problems whose
 * 128×128 tiles would leave SMs idle get four times the CTAs, each with as many warps per output
 * as the large tile has, so that few CTAs per SM still hide their latencies; with a long k its
 * split-K row cuts k as well, into partial sums that the shared reduction adds in split order.
 */
#include "f32_launch.cuh"

namespace {
typedef F32Config<TG_F32_64X64> Config64x64;
}

F32_ROW(64x64, Config64x64, 0)
F32_ROW(64x64_splitk, Config64x64, 1)
