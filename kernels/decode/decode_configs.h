/*
 * decode_configs.h — every decode-family configuration, once. Each row below is the one place a
 * configuration's facts are written; from it come its registry row (decode_rows.c), the
 * declarations of its entry points (decode.h) and its compiled kernels (its .cu file).
 * Valid C and CUDA C++.
 *
 * A row, X(fn, name, summary, RT, TT, AHEAD, CTAS):
 *   fn       the suffix of its entry points (tg_decode_launch_<fn>, ...)
 *   name     what tg_gemm.kernel names, and `tilegemm list` shows with the summary
 *   RT       16-row tiles of weights per CTA (the CTA's rows: 16·RT)
 *   TT       8-token tiles per CTA: the row serves problems whose m or n is at most 8·TT
 *   AHEAD    k-chunks each warp loads before it multiplies them: the bytes in flight
 *   CTAS     CTAs per SM the kernel's register budget is set for (__launch_bounds__)
 * More tokens per CTA load the weights once for more of them, but each CTA then reads as many
 * token bytes (from L2) per weight byte as it has tokens per row; with more than 8 tokens that
 * traffic made the kernel slower than the tiled families on an H200 (docs/kernels.md).
 */
#ifndef TG_DECODE_CONFIGS_H
#define TG_DECODE_CONFIGS_H

#define TG_DECODE_ROW_t8_w16(X)                                                                  \
  X(t8_w16, "decode_t8_w16",                                                                     \
    "f16/bf16 skinny GEMM, m or n <= 8: mma.sync on weights streamed to registers, 16 rows per " \
    "CTA, K-major",                                                                              \
    1, 1, 4, 2)

/* The whole table, in registry order. */
#define TG_DECODE_ROWS(X) TG_DECODE_ROW_t8_w16(X)

#endif /* TG_DECODE_CONFIGS_H */
