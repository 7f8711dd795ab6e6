/*
 * cpu_ref.h — the CPU oracle: fp64 accumulation straight from the user's description (no
 * canonical transposition), so it checks the library's layout logic independently.
 */
#ifndef TG_CPU_REF_H
#define TG_CPU_REF_H

#include <stdint.h>
#include "tilegemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resolved leading dimension and batch stride of an operand, as the API defines them. */
int64_t tg_resolved_ld(int64_t ld, tg_order order, int64_t rows, int64_t cols);
int64_t tg_resolved_batch_stride(int64_t stride, int64_t ld, tg_order order, int64_t rows,
                                 int64_t cols);

/* Elements spanned from an operand's base over all batches (0 when empty); ld and stride as
 * given in tg_gemm (0 = packed, TG_BATCH_BROADCAST = shared). */
int64_t tg_operand_span(int64_t rows, int64_t cols, tg_order order, int64_t ld, int64_t stride,
                        int64_t batch);

/* Offset of element (row, col) of batch b. */
int64_t tg_element_offset(int64_t b, int64_t row, int64_t col, tg_order order, int64_t ld,
                          int64_t batch_stride);

/* Computes, for a request that tg_check accepts (without fp8 scales: tg_cpu_reference_scaled
 * takes them), ref = act(alpha*A*B + beta*C + bias) in fp64
 * (before rounding to d_type) and mag = |alpha|*sum|a||b| + |beta||c| + |bias|, both packed
 * row-major m×n per batch. A, B, C and bias are host copies laid out as the request says.
 * mag may be NULL. Follows the contract: A and B unread when alpha == 0, C unread when
 * beta == 0. */
void tg_cpu_reference(const tg_gemm *g, const void *A, const void *B, const void *C,
                      const void *bias, double *ref, double *mag);

/* The same with fp8 scales: host copies of g's scale_a and scale_b (as tg_scale_mode lays them
 * out; NULL when g->scale_mode is NONE). tg_cpu_reference is this without scales. */
void tg_cpu_reference_scaled(const tg_gemm *g, const void *A, const void *B, const void *C,
                             const void *bias, const float *scale_a, const float *scale_b,
                             double *ref, double *mag);

/* Floats of operand `operand`'s scales ('a' or 'b') over every batch of *g: one set per batch
 * (tg_scale_floats of the mode), one set in all for an operand of batch stride
 * TG_BATCH_BROADCAST, 0 without scales. No GPU involved. */
int64_t tg_scale_count(const tg_gemm *g, char operand);

/* Scale i of the scales seeded by seed: log-uniform in [0.5, 2); with exact, 0.5 or 1 (powers
 * of two keep the products of exact-mode data exact). The same on every machine. */
float tg_scale_value(uint64_t seed, int64_t i, int exact);

/* The activation of an epilogue, in fp64. */
double tg_cpu_activate(tg_epilogue e, double v);

#ifdef __cplusplus
}
#endif

#endif /* TG_CPU_REF_H */
