/*
 * trace_family.h — what the trace's kernel families (trace_simt.c, trace_ladder.c, ...) share:
 * their tables, and the helpers that turn a kernel's layout-header arithmetic into trace
 * elements. Internal to tools/trace.
 */
#ifndef TG_TRACE_FAMILY_H
#define TG_TRACE_FAMILY_H

#include "trace.h"

/* Each family's kernels. */
extern const tg_trace_kernel tg_trace_simt_kernels[];
extern const int tg_trace_simt_count;
extern const tg_trace_kernel tg_trace_ladder_kernels[];
extern const int tg_trace_ladder_count;
extern const tg_trace_kernel tg_trace_sm80_kernels[];
extern const int tg_trace_sm80_count;
extern const tg_trace_kernel tg_trace_f32_kernels[];
extern const int tg_trace_f32_count;
extern const tg_trace_kernel tg_trace_sm90_kernels[];
extern const int tg_trace_sm90_count;

/* The grid note of the ladder's kernels (ladder_grid.h). */
extern const char tg_trace_ladder_grid_note[];

/* Formats a one-line reason into err (len bytes) and returns -1. */
int tg_trace_fail(char *err, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Appends one LOAD of operand `operand` (A or B) at matrix coordinates (row, col): its offset
 * when the element lies inside the matrix and before the CTA's k_end (else -1: zero-filled),
 * landing at shared-memory offset smem (-1: into registers). */
void tg_trace_put_load(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c, int operand,
                       int access, int64_t row, int64_t col, int64_t smem);

/* Appends one FRAGMENT read of operand `operand` at shared-memory offset smem (k step `step`);
 * tg_trace_thread resolves which element it is. */
void tg_trace_put_fragment(tg_trace_list *out, int operand, int access, int step, int64_t smem);

/* Appends one STORE of D(row, col) when it lies inside D (stores past the edge are never made);
 * with split-K, of the CTA's split's partial sum of it. */
void tg_trace_put_store(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c, int access,
                        int64_t row, int64_t col);

/* Appends one element of D that a thread's accumulators hold (kind TG_TRACE_ACCUM), inside D
 * or not. */
void tg_trace_put_accumulator(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c,
                              int access, int64_t row, int64_t col);

/* The shared-memory byte offset of element e of register `reg` that lane `lane` receives from
 * ldmatrix.x4, given the row addresses addr[0..31] the warp's lanes supply (the PTX ISA's
 * ldmatrix layout): each register holds 4 / elem_bytes elements of 8×8 matrix `reg` (rows of 16
 * bytes), lane l getting bytes 4·(l % 4) .. of row l / 4; transposed (.trans, 16-bit elements),
 * element e of column l / 4 in row 2·(l % 4) + e. */
int64_t tg_trace_ldmatrix_x4(const int64_t addr[32], int lane, int reg, int e, int elem_bytes,
                             int trans);

/* 1 when matrix coordinates (row, col) of operand lie inside it (A and B: also before k_end). */
int tg_trace_inside(const tg_trace *t, const tg_trace_cta *c, int operand, int64_t row,
                    int64_t col);

/* The first k of k-tile kt of CTA c. */
int64_t tg_trace_k0(const tg_trace *t, const tg_trace_cta *c, int kt);

/* The CTA of the ladder's grid (ladder_grid.h): one per output tile, batches on z. */
void tg_trace_ladder_grid(const tg_problem *p, int tile_m, int tile_n, unsigned grid[3]);
int tg_trace_ladder_cta(const tg_trace *t, unsigned bx, unsigned by, unsigned bz,
                        tg_trace_cta *out);

#endif /* TG_TRACE_FAMILY_H */
