/*
 * sm90_configs.h — every sm90 kernel configuration, once. Each row of the table below is the one
 * place a configuration's facts are written; from it come
 *   - its registry row (sm90_rows.c): name, summary, tile, cluster, orders, efficiency, rung, and
 *     the planner's per-tile overheads, which follow from its schedule and its epilogue sets;
 *   - its C entry points and compiled kernels (its .cu file: SM90_ROW_FUNCTIONS of the row);
 *   - the declarations of those entry points (sm90.h) and the CPU test that the registry and
 *     the compiled kernels agree (tests/unit/test_sm90_rows.c).
 * Valid C and CUDA C++.
 *
 * A row, X(fn, name, summary, BM, BN, STAGES, CM, CN, SCHEDULE, ORDERS, INPUTS, EFFICIENCY, RUNG):
 *   fn          the suffix of its entry points (tg_sm90_launch_<fn>, ...)
 *   name        what tg_gemm.kernel names, and `tilegemm list` shows with the summary
 *   BM, BN      the tile of the CTA (cooperative) or of one consumer warpgroup (pingpong)
 *   STAGES      operand stages in shared memory (k-tiles of a 128-byte row in flight: 64 of
 *               16-bit inputs, 128 of fp8)
 *   CM, CN      CTAs of a cluster along m (sharing B by multicast) or along n (sharing A)
 *   SCHEDULE    COOPERATIVE or PINGPONG (sm90.h)
 *   ORDERS      ANY_ORDER (K-major and MN-major operands read natively) or K_MAJOR_ONLY
 *   INPUTS      SIXTEEN_BIT (f16, bf16), FP8 (every e4m3/e5m2 pairing, sums promoted into fp32
 *               every k-tile), FP8_FAST (the same, summed in the tensor cores: requests with
 *               fp8_fast_accum only), TF32 (f32 inputs with tf32 compute) or S8 (int8 inputs
 *               into exact int32)
 *   EFFICIENCY  the planner's throughput of a full wave against the family's best row, percent
 *   RUNG        its step in the teaching ladder (`tilegemm ladder`), 0 if none
 * The registry lists the rows in this order; the planner breaks cost ties by it.
 */
#ifndef TG_SM90_CONFIGS_H
#define TG_SM90_CONFIGS_H

/* ORDERS: every operand order, or K-major A (row-major) and B (column-major) only. */
#define TG_SM90_ANY_ORDER 1
#define TG_SM90_K_MAJOR_ONLY 0
/* INPUTS: the input types and accumulation a configuration compiles. */
#define TG_SM90_SIXTEEN_BIT 0
#define TG_SM90_FP8 1
#define TG_SM90_FP8_FAST 2
#define TG_SM90_TF32 3
#define TG_SM90_S8 4
/* Rung of the flagship kernel in the ladder, above the sm80 one (13). */
#define TG_SM90_LADDER_RUNG 14

#define TG_SM90_ROW_128x256(X)                                                              \
  X(128x256, "sm90_128x256x64",                                                             \
    "f16/bf16 TMA+wgmma m64n256, 4 stages, 2-CTA multicast, any layout", 128, 256, 4, 2, 1, \
    COOPERATIVE, TG_SM90_ANY_ORDER, TG_SM90_SIXTEEN_BIT, 100, TG_SM90_LADDER_RUNG)
#define TG_SM90_ROW_128x256_c1(X)                                                      \
  X(128x256_c1, "sm90_128x256x64_c1",                                                  \
    "f16/bf16 TMA+wgmma m64n256, 4 stages, no cluster, any layout", 128, 256, 4, 1, 1, \
    COOPERATIVE, TG_SM90_ANY_ORDER, TG_SM90_SIXTEEN_BIT, 90, 0)
#define TG_SM90_ROW_256x128(X)                                                                 \
  X(256x128, "sm90_256x128x64",                                                                \
    "f16/bf16 TMA+wgmma 2x m64n128, 4 stages, 2-CTA multicast, any layout", 256, 128, 4, 1, 2, \
    COOPERATIVE, TG_SM90_ANY_ORDER, TG_SM90_SIXTEEN_BIT, 99, 0)
#define TG_SM90_ROW_128x192(X)                                                                    \
  X(128x192, "sm90_128x192x64", "f16/bf16 TMA+wgmma m64n192, 4 stages, 2-CTA multicast, K-major", \
    128, 192, 4, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 97, 0)
#define TG_SM90_ROW_128x208(X)                                                                    \
  X(128x208, "sm90_128x208x64", "f16/bf16 TMA+wgmma m64n208, 4 stages, 2-CTA multicast, K-major", \
    128, 208, 4, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 96, 0)
#define TG_SM90_ROW_256x160(X)                                                                     \
  X(256x160, "sm90_256x160x64",                                                                    \
    "f16/bf16 TMA+wgmma 2x m64n160, 4 stages, 2-CTA multicast, K-major, plain epilogue", 256, 160, \
    4, 1, 2, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 99, 0)
#define TG_SM90_ROW_128x144(X)                                                                    \
  X(128x144, "sm90_128x144x64", "f16/bf16 TMA+wgmma m64n144, 5 stages, 2-CTA multicast, K-major", \
    128, 144, 5, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 76, 0)
#define TG_SM90_ROW_128x128(X)                                                                   \
  X(128x128, "sm90_128x128x64", "f16/bf16 TMA+wgmma m64n128, 6 stages, K-major", 128, 128, 6, 1, \
    1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 69, 0)
#define TG_SM90_ROW_pp_128x128(X)                                                                  \
  X(pp_128x128, "sm90_pp_128x128x64",                                                              \
    "f16/bf16 TMA+wgmma pingpong, 128x128 per warpgroup, 6 stages, 2-CTA multicast, K-major", 128, \
    128, 6, 2, 1, PINGPONG, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 86, 0)
#define TG_SM90_ROW_128x64(X)                                                                   \
  X(128x64, "sm90_128x64x64", "f16/bf16 TMA+wgmma m64n64, 8 stages, K-major", 128, 64, 8, 1, 1, \
    COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_SIXTEEN_BIT, 47, 0)

#define TG_SM90_ROW_f8_128x128(X)                                                             \
  X(f8_128x128, "sm90_f8_128x128x128",                                                        \
    "fp8 TMA+wgmma m64n128k32, fp32 promotion every 128 of k, all scalings, 6 stages, 2-CTA " \
    "multicast, K-major",                                                                     \
    128, 128, 6, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_FP8, 75, 0)
#define TG_SM90_ROW_f8_128x192(X)                                                             \
  X(f8_128x192, "sm90_f8_128x192x128",                                                        \
    "fp8 TMA+wgmma m64n192k32, fp32 promotion every 128 of k, scalings but BLOCK, 4 stages, " \
    "2-CTA multicast, K-major",                                                               \
    128, 192, 4, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_FP8, 87, 0)
#define TG_SM90_ROW_f8_128x256_fast(X)                                                      \
  X(f8_128x256_fast, "sm90_f8_128x256x128_fast",                                            \
    "fp8 TMA+wgmma m64n256k32, tensor-core accumulation (fp8_fast_accum), 4 stages, 2-CTA " \
    "multicast, K-major",                                                                   \
    128, 256, 4, 2, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_FP8_FAST, 100, 0)

#define TG_SM90_ROW_tf32_128x192(X)                                                    \
  X(tf32_128x192, "sm90_tf32_128x192x32",                                              \
    "tf32 TMA+wgmma m64n192k8, 4 stages, 2-CTA multicast, K-major", 128, 192, 4, 2, 1, \
    COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_TF32, 97, 0)
#define TG_SM90_ROW_tf32_128x128(X)                                                                \
  X(tf32_128x128, "sm90_tf32_128x128x32", "tf32 TMA+wgmma m64n128k8, 6 stages, K-major", 128, 128, \
    6, 1, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_TF32, 55, 0)
#define TG_SM90_ROW_tf32_128x64(X)                                                                \
  X(tf32_128x64, "sm90_tf32_128x64x32", "tf32 TMA+wgmma m64n64k8, 8 stages, K-major", 128, 64, 8, \
    1, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_TF32, 47, 0)

#define TG_SM90_ROW_s8_128x192(X)                                                                 \
  X(s8_128x192, "sm90_s8_128x192x128",                                                            \
    "int8 TMA+wgmma m64n192k32, exact int32, 4 stages, 2-CTA multicast, K-major", 128, 192, 4, 2, \
    1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_S8, 100, 0)
#define TG_SM90_ROW_s8_128x128(X)                                                                 \
  X(s8_128x128, "sm90_s8_128x128x128",                                                            \
    "int8 TMA+wgmma m64n128k32, exact int32, 6 stages, 2-CTA multicast, K-major", 128, 128, 6, 2, \
    1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_S8, 80, 0)
#define TG_SM90_ROW_s8_128x64(X)                                                                 \
  X(s8_128x64, "sm90_s8_128x64x128", "int8 TMA+wgmma m64n64k32, exact int32, 8 stages, K-major", \
    128, 64, 8, 1, 1, COOPERATIVE, TG_SM90_K_MAJOR_ONLY, TG_SM90_S8, 50, 0)

/* The whole table, in registry order. */
#define TG_SM90_ROWS(X)                                                                            \
  TG_SM90_ROW_128x256(X) TG_SM90_ROW_128x256_c1(X) TG_SM90_ROW_256x128(X) TG_SM90_ROW_128x192(X)   \
      TG_SM90_ROW_128x208(X) TG_SM90_ROW_256x160(X) TG_SM90_ROW_128x144(X) TG_SM90_ROW_128x128(X)  \
          TG_SM90_ROW_pp_128x128(X) TG_SM90_ROW_128x64(X) TG_SM90_ROW_f8_128x128(X)                \
              TG_SM90_ROW_f8_128x192(X) TG_SM90_ROW_f8_128x256_fast(X) TG_SM90_ROW_tf32_128x192(X) \
                  TG_SM90_ROW_tf32_128x128(X) TG_SM90_ROW_tf32_128x64(X) TG_SM90_ROW_s8_128x192(X) \
                      TG_SM90_ROW_s8_128x128(X) TG_SM90_ROW_s8_128x64(X)

#endif /* TG_SM90_CONFIGS_H */
