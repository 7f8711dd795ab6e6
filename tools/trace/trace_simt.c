/*
 * trace_simt.c — the trace of the fp32 rungs 1-8 (kernels/simt): what each thread loads, reads
 * and stores, from simt_layout.h's functions, called as the kernels call them.
 *
 * Shared-memory offsets: rungs 3-6 from the start of each operand's own array (as/as_t, bs),
 * rungs 7 and 8 from the start of their SharedTile buffers (as_t first, then bs; rung 8's
 * k-tile kt in buffer kt % 2).
 */
#include <stdio.h>

#include "ladder_grid.h"
#include "simt_layout.h"
#include "trace_family.h"

#define FLOAT_BYTES 4

/* The 2-D thread index of rungs 1-3 (blockDim TG_SIMT_SIDE × TG_SIMT_SIDE). */
static unsigned tx_of(int tid) { return (unsigned)tid % TG_SIMT_SIDE; }
static unsigned ty_of(int tid) { return (unsigned)tid / TG_SIMT_SIDE; }

/* ---- grids and CTAs (all rungs: ladder_grid.h) -------------------------------------------- */

static void grid_side(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, TG_SIMT_SIDE, TG_SIMT_SIDE, g);
}
static void grid_04(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, TG_SIMT04_TILE_M, TG_SIMT04_TILE_N, g);
}
static void grid_05(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, TG_SIMT05_TILE_M, TG_SIMT05_TILE_N, g);
}
static const tg_simt_warptile k_wt = {TG_SIMT_WARPTILE_SHAPE};
/* The shape's fields as constant expressions, for the table below. */
#define WT_APPLY(f, ...) f(__VA_ARGS__)
#define WT_TILE_M_OF(tm, tn, tk, wm, wn, lm, sm, sn) (tm)
#define WT_TILE_N_OF(tm, tn, tk, wm, wn, lm, sm, sn) (tn)
#define WT_TILE_K_OF(tm, tn, tk, wm, wn, lm, sm, sn) (tk)
#define WT_WARPS_OF(tm, tn, tk, wm, wn, lm, sm, sn) ((wm) * (wn))
enum {
  WT_TILE_M = WT_APPLY(WT_TILE_M_OF, TG_SIMT_WARPTILE_SHAPE),
  WT_TILE_N = WT_APPLY(WT_TILE_N_OF, TG_SIMT_WARPTILE_SHAPE),
  WT_TILE_K = WT_APPLY(WT_TILE_K_OF, TG_SIMT_WARPTILE_SHAPE),
  WT_THREADS = TG_SIMT_WARP * WT_APPLY(WT_WARPS_OF, TG_SIMT_WARPTILE_SHAPE)
};

static void grid_wt(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, k_wt.tile_m, k_wt.tile_n, g);
}

/* ---- rungs 1 and 2: straight from global memory ------------------------------------------- */

static tg_cell64 output_01_02(const tg_trace *t, const tg_trace_cta *c, int tid) {
  return t->kernel->rung == 1 ? tg_simt01_output((int)c->m0, (int)c->n0, tx_of(tid), ty_of(tid))
                              : tg_simt02_output((int)c->m0, (int)c->n0, tx_of(tid), ty_of(tid));
}

/* k-tile kt is k step kt: A(row, kt) and B(kt, col) into registers, if the thread's output lies
 * inside D (threads past the edge return at once). */
static void loads_01_02(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                        tg_trace_list *out) {
  const tg_cell64 o = output_01_02(t, c, tid);
  if (!tg_trace_inside(t, c, TG_TRACE_D, o.row, o.col)) return;
  tg_trace_put_load(out, t, c, TG_TRACE_A, 0, o.row, kt, -1);
  tg_trace_put_load(out, t, c, TG_TRACE_B, 1, kt, o.col, -1);
}

static void stores_01_02(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const tg_cell64 o = output_01_02(t, c, tid);
  tg_trace_put_store(out, t, c, 0, o.row, o.col);
}

/* ---- rung 3 ------------------------------------------------------------------------------- */

static void loads_03(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     tg_trace_list *out) {
  const tg_cell s = tg_simt03_cell((int)tx_of(tid), (int)ty_of(tid));
  const int64_t k0 = tg_trace_k0(t, c, kt), at = (s.row * TG_SIMT_SIDE + s.col) * FLOAT_BYTES;
  tg_trace_put_load(out, t, c, TG_TRACE_A, 0, c->m0 + s.row, k0 + s.col, at);
  tg_trace_put_load(out, t, c, TG_TRACE_B, 1, k0 + s.row, c->n0 + s.col, at);
}

static void fragments_03(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                         tg_trace_list *out) {
  const tg_cell s = tg_simt03_cell((int)tx_of(tid), (int)ty_of(tid));
  int n = 0;
  for (int kk = 0; kk < TG_SIMT_SIDE; ++kk) {
    tg_trace_put_fragment(out, TG_TRACE_A, n++, kk, (s.row * TG_SIMT_SIDE + kk) * FLOAT_BYTES);
    tg_trace_put_fragment(out, TG_TRACE_B, n++, kk, (kk * TG_SIMT_SIDE + s.col) * FLOAT_BYTES);
  }
}

static void stores_03(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const tg_cell s = tg_simt03_cell((int)tx_of(tid), (int)ty_of(tid));
  tg_trace_put_store(out, t, c, 0, c->m0 + s.row, c->n0 + s.col);
}

/* ---- rung 4 ------------------------------------------------------------------------------- */

static void loads_04(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     tg_trace_list *out) {
  const tg_cell as = tg_simt_row_major_cell(tid, TG_SIMT04_TILE_K);
  const tg_cell bs = tg_simt_row_major_cell(tid, TG_SIMT04_TILE_N);
  const int64_t k0 = tg_trace_k0(t, c, kt);
  tg_trace_put_load(out, t, c, TG_TRACE_A, 0, c->m0 + as.row, k0 + as.col,
                    (as.row * TG_SIMT04_TILE_K + as.col) * FLOAT_BYTES);
  tg_trace_put_load(out, t, c, TG_TRACE_B, 1, k0 + bs.row, c->n0 + bs.col,
                    (bs.row * TG_SIMT04_TILE_N + bs.col) * FLOAT_BYTES);
}

static void fragments_04(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                         tg_trace_list *out) {
  const tg_cell o = tg_simt_block_origin(tid, TG_SIMT04_TILE_N, TG_SIMT04_THREAD_M, 1);
  int n = 0;
  for (int kk = 0; kk < TG_SIMT04_TILE_K; ++kk) { /* one B, reused for THREAD_M rows of A */
    tg_trace_put_fragment(out, TG_TRACE_B, n++, kk, (kk * TG_SIMT04_TILE_N + o.col) * FLOAT_BYTES);
    for (int i = 0; i < TG_SIMT04_THREAD_M; ++i)
      tg_trace_put_fragment(out, TG_TRACE_A, n++, kk,
                            ((o.row + i) * TG_SIMT04_TILE_K + kk) * FLOAT_BYTES);
  }
}

static void stores_04(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const tg_cell o = tg_simt_block_origin(tid, TG_SIMT04_TILE_N, TG_SIMT04_THREAD_M, 1);
  for (int i = 0; i < TG_SIMT04_THREAD_M; ++i)
    tg_trace_put_store(out, t, c, i, c->m0 + o.row + i, c->n0 + o.col);
}

/* ---- rungs 5 and 6 ------------------------------------------------------------------------ */

enum {
  THREADS_N_05 = TG_SIMT05_TILE_N / TG_SIMT05_THREAD_N,
  THREADS_05 = TG_SIMT05_TILE_M / TG_SIMT05_THREAD_M * THREADS_N_05,
  VEC_K_06 = TG_SIMT05_TILE_K / TG_SIMT_VECTOR,
  VEC_N_06 = TG_SIMT05_TILE_N / TG_SIMT_VECTOR,
  LOADS_A_06 = TG_SIMT05_TILE_M * VEC_K_06 / THREADS_05,
  LOADS_B_06 = TG_SIMT05_TILE_K * VEC_N_06 / THREADS_05
};

static void loads_05(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     tg_trace_list *out) {
  const int64_t k0 = tg_trace_k0(t, c, kt);
  const int loads_a = TG_SIMT05_TILE_M * TG_SIMT05_TILE_K / THREADS_05;
  const int loads_b = TG_SIMT05_TILE_K * TG_SIMT05_TILE_N / THREADS_05;
  int n = 0;
  for (int l = 0; l < loads_a; ++l) {
    const tg_cell s = tg_simt_row_major_cell(tid + l * THREADS_05, TG_SIMT05_TILE_K);
    tg_trace_put_load(out, t, c, TG_TRACE_A, n++, c->m0 + s.row, k0 + s.col,
                      (s.row * TG_SIMT05_TILE_K + s.col) * FLOAT_BYTES);
  }
  for (int l = 0; l < loads_b; ++l) {
    const tg_cell s = tg_simt_row_major_cell(tid + l * THREADS_05, TG_SIMT05_TILE_N);
    tg_trace_put_load(out, t, c, TG_TRACE_B, n++, k0 + s.row, c->n0 + s.col,
                      (s.row * TG_SIMT05_TILE_N + s.col) * FLOAT_BYTES);
  }
}

/* Rung 5 reads a[i] = as[row0 + i][kk], b[j] = bs[kk][col0 + j]; rung 6 the same elements from
 * the transposed as_t[kk][row0 + i]. */
static void fragments_05_06(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                            tg_trace_list *out) {
  const tg_cell o = tg_simt_block_origin(tid, THREADS_N_05, TG_SIMT05_THREAD_M, TG_SIMT05_THREAD_N);
  const int transposed = t->kernel->rung == 6;
  int n = 0;
  for (int kk = 0; kk < TG_SIMT05_TILE_K; ++kk) {
    for (int i = 0; i < TG_SIMT05_THREAD_M; ++i)
      tg_trace_put_fragment(
          out, TG_TRACE_A, n++, kk,
          (transposed ? kk * TG_SIMT05_TILE_M + o.row + i : (o.row + i) * TG_SIMT05_TILE_K + kk) *
              FLOAT_BYTES);
    for (int j = 0; j < TG_SIMT05_THREAD_N; ++j)
      tg_trace_put_fragment(out, TG_TRACE_B, n++, kk,
                            (kk * TG_SIMT05_TILE_N + o.col + j) * FLOAT_BYTES);
  }
}

static void stores_05_06(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const tg_cell o = tg_simt_block_origin(tid, THREADS_N_05, TG_SIMT05_THREAD_M, TG_SIMT05_THREAD_N);
  for (int i = 0; i < TG_SIMT05_THREAD_M; ++i)
    for (int j = 0; j < TG_SIMT05_THREAD_N; ++j)
      tg_trace_put_store(out, t, c, i * TG_SIMT05_THREAD_N + j, c->m0 + o.row + i,
                         c->n0 + o.col + j);
}

/* Rung 6: A's float4s along k, stored transposed (as_t[kk + e][row]); B's float4s along n. */
static void loads_06(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     tg_trace_list *out) {
  const int64_t k0 = tg_trace_k0(t, c, kt);
  int n = 0;
  for (int l = 0; l < LOADS_A_06; ++l, ++n) {
    const tg_cell s = tg_simt06_a_cell(tid, l, TG_SIMT05_TILE_M, LOADS_A_06);
    for (int e = 0; e < TG_SIMT_VECTOR; ++e)
      tg_trace_put_load(out, t, c, TG_TRACE_A, n, c->m0 + s.row, k0 + s.col + e,
                        ((s.col + e) * TG_SIMT05_TILE_M + s.row) * FLOAT_BYTES);
  }
  for (int l = 0; l < LOADS_B_06; ++l, ++n) {
    const tg_cell s = tg_simt_vector_cell(tid + l * THREADS_05, VEC_N_06);
    for (int e = 0; e < TG_SIMT_VECTOR; ++e)
      tg_trace_put_load(out, t, c, TG_TRACE_B, n, k0 + s.row, c->n0 + s.col + e,
                        (s.row * TG_SIMT05_TILE_N + s.col + e) * FLOAT_BYTES);
  }
}

/* ---- rungs 7 and 8: warp tiling ----------------------------------------------------------- */

/* Bytes of one SharedTile buffer: as_t[tile_k][tile_m], then bs[tile_k][tile_n]. */
static int64_t wt_buffer_bytes(void) {
  return (int64_t)k_wt.tile_k * (k_wt.tile_m + k_wt.tile_n) * FLOAT_BYTES;
}
static int64_t wt_bs_offset(void) { return (int64_t)k_wt.tile_k * k_wt.tile_m * FLOAT_BYTES; }

static int64_t wt_buffer_of(const tg_trace *t, int kt) {
  return (kt % t->kernel->stages) * wt_buffer_bytes();
}

static void loads_wt(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     tg_trace_list *out) {
  const int64_t k0 = tg_trace_k0(t, c, kt), buf = wt_buffer_of(t, kt);
  const int vec_n = k_wt.tile_n / TG_SIMT_VECTOR;
  const int b_row_step = tg_simt_wt_threads(k_wt) / vec_n;
  const int row = tg_simt_wt_a_row((unsigned)tid, k_wt.tile_m);
  const int a_k = tg_simt_wt_a_k((unsigned)tid, k_wt.tile_m, tg_simt_wt_loads_a(k_wt));
  int n = 0;
  for (int i = 0; i < tg_simt_wt_loads_a(k_wt); ++i, ++n)
    for (int e = 0; e < TG_SIMT_VECTOR; ++e) {
      const int kk = a_k + i * TG_SIMT_VECTOR + e;
      tg_trace_put_load(out, t, c, TG_TRACE_A, n, c->m0 + row, k0 + kk,
                        buf + (int64_t)(kk * k_wt.tile_m + row) * FLOAT_BYTES);
    }
  const int b_row = tg_simt_wt_b_row((unsigned)tid, vec_n);
  const int b_col = tg_simt_wt_b_col((unsigned)tid, vec_n);
  for (int i = 0; i < tg_simt_wt_loads_b(k_wt); ++i, ++n)
    for (int e = 0; e < TG_SIMT_VECTOR; ++e) {
      const int kk = b_row + i * b_row_step;
      tg_trace_put_load(
          out, t, c, TG_TRACE_B, n, k0 + kk, c->n0 + b_col + e,
          buf + wt_bs_offset() + (int64_t)(kk * k_wt.tile_n + b_col + e) * FLOAT_BYTES);
    }
}

static tg_cell wt_place(int tid) {
  return tg_warp_tile_place((unsigned)tid, TG_SIMT_WARP, k_wt.warps_m, k_wt.tile_m / k_wt.warps_m,
                            k_wt.tile_n / k_wt.warps_n, tg_simt_wt_lanes_n(k_wt), k_wt.sub_m,
                            k_wt.sub_n);
}

static void fragments_wt(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                         tg_trace_list *out) {
  const tg_cell at = wt_place(tid);
  const int64_t buf = wt_buffer_of(t, kt);
  const int thread_m = tg_simt_wt_iter_m(k_wt) * k_wt.sub_m;
  const int thread_n = tg_simt_wt_iter_n(k_wt) * k_wt.sub_n;
  int n = 0;
  for (int kk = 0; kk < k_wt.tile_k; ++kk) {
    for (int i = 0; i < thread_m; ++i) {
      const int row = at.row + tg_simt_wt_row_of(i, k_wt.sub_m, k_wt.lanes_m);
      tg_trace_put_fragment(out, TG_TRACE_A, n++, kk,
                            buf + (int64_t)(kk * k_wt.tile_m + row) * FLOAT_BYTES);
    }
    for (int j = 0; j < thread_n; ++j) {
      const int col = at.col + tg_simt_wt_col_of(j, k_wt.sub_n, tg_simt_wt_lanes_n(k_wt));
      tg_trace_put_fragment(out, TG_TRACE_B, n++, kk,
                            buf + wt_bs_offset() + (int64_t)(kk * k_wt.tile_n + col) * FLOAT_BYTES);
    }
  }
}

static void stores_wt(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const tg_cell at = wt_place(tid);
  const int thread_m = tg_simt_wt_iter_m(k_wt) * k_wt.sub_m;
  const int thread_n = tg_simt_wt_iter_n(k_wt) * k_wt.sub_n;
  for (int i = 0; i < thread_m; ++i)
    for (int j = 0; j < thread_n; ++j)
      tg_trace_put_store(
          out, t, c, i * thread_n + j,
          c->m0 + at.row + tg_simt_wt_row_of(i, k_wt.sub_m, k_wt.lanes_m),
          c->n0 + at.col + tg_simt_wt_col_of(j, k_wt.sub_n, tg_simt_wt_lanes_n(k_wt)));
}

/* ---- shared-memory names ------------------------------------------------------------------ */

/* "name[r][c]" of float `index` of a rows × cols array. */
static void array_name(char *buf, size_t len, const char *name, int64_t index, int cols) {
  snprintf(buf, len, "%s[%lld][%lld]", name, (long long)(index / cols), (long long)(index % cols));
}

static void smem_name_simt(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const int rung = t->kernel->rung;
  const int64_t f = smem / FLOAT_BYTES;
  if (rung == 3) array_name(buf, len, operand == TG_TRACE_A ? "as" : "bs", f, TG_SIMT_SIDE);
  else if (rung == 4)
    array_name(buf, len, operand == TG_TRACE_A ? "as" : "bs", f,
               operand == TG_TRACE_A ? TG_SIMT04_TILE_K : TG_SIMT04_TILE_N);
  else if (rung == 5)
    array_name(buf, len, operand == TG_TRACE_A ? "as" : "bs", f,
               operand == TG_TRACE_A ? TG_SIMT05_TILE_K : TG_SIMT05_TILE_N);
  else if (rung == 6)
    array_name(buf, len, operand == TG_TRACE_A ? "as_t" : "bs", f,
               operand == TG_TRACE_A ? TG_SIMT05_TILE_M : TG_SIMT05_TILE_N);
  else {
    const int64_t b = smem / wt_buffer_bytes(), in = smem % wt_buffer_bytes();
    char field[48];
    if (in < wt_bs_offset()) array_name(field, sizeof field, "as_t", in / FLOAT_BYTES, k_wt.tile_m);
    else array_name(field, sizeof field, "bs", (in - wt_bs_offset()) / FLOAT_BYTES, k_wt.tile_n);
    if (rung == 8) snprintf(buf, len, "sh[%lld].%s", (long long)b, field);
    else snprintf(buf, len, "sh.%s", field);
  }
}

/* ---- the table ---------------------------------------------------------------------------- */

/* A rung's row: its name, rung and summary, blockDim, CTA tile, stages, fragment k steps per
 * k-tile, how its shared memory is addressed, and its functions. */
#define SIMT_TRACE(name_, rung_, summary_, bx_, by_, tm_, tn_, tk_, stages_, steps_, smem_, grid_, \
                   loads_, fragments_, stores_)                                                    \
  {                                                                                                \
    .name = (name_), .family = "simt", .summary = (summary_), .rung = (rung_), .block_x = (bx_),   \
    .block_y = (by_), .tile_m = (tm_), .tile_n = (tn_), .tile_k = (tk_), .stages = (stages_),      \
    .elem_bytes = FLOAT_BYTES, .a_orders = 1u << TG_ROW_MAJOR, .b_orders = 1u << TG_ROW_MAJOR,     \
    .ab_dtype = "f32", .k_steps = (steps_), .smem_base = (smem_), .grid = (grid_),                 \
    .grid_note = tg_trace_ladder_grid_note, .cta = tg_trace_ladder_cta, .loads = (loads_),         \
    .fragments = (fragments_), .stores = (stores_),                                                \
    .smem_name = (smem_) == TG_TRACE_SMEM_NONE ? NULL : smem_name_simt,                            \
  }

const tg_trace_kernel tg_trace_simt_kernels[] = {
    SIMT_TRACE("simt_01_naive", 1,
               "one output per thread; lanes walk rows of D, so a warp's loads of A are 32 rows "
               "apart",
               TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, 1, 0, 0, TG_TRACE_SMEM_NONE,
               grid_side, loads_01_02, NULL, stores_01_02),
    SIMT_TRACE("simt_02_coalesced", 2,
               "one output per thread; lanes walk columns of D: a warp reads 32 consecutive "
               "floats of B",
               TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, 1, 0, 0, TG_TRACE_SMEM_NONE,
               grid_side, loads_01_02, NULL, stores_01_02),
    SIMT_TRACE("simt_03_smem", 3,
               "each thread stages one element of A's and of B's 32x32 k-tile, then reads a row "
               "of as and a column of bs",
               TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, TG_SIMT_SIDE, 1,
               TG_SIMT_SIDE, TG_TRACE_SMEM_PER_OPERAND, grid_side, loads_03, fragments_03,
               stores_03),
    SIMT_TRACE("simt_04_1d_blocktile", 4,
               "a column of 8 outputs per thread: each B operand read once and used for 8 FMAs",
               TG_SIMT04_TILE_M *TG_SIMT04_TILE_N / TG_SIMT04_THREAD_M, 1, TG_SIMT04_TILE_M,
               TG_SIMT04_TILE_N, TG_SIMT04_TILE_K, 1, TG_SIMT04_TILE_K, TG_TRACE_SMEM_PER_OPERAND,
               grid_04, loads_04, fragments_04, stores_04),
    SIMT_TRACE("simt_05_2d_blocktile", 5,
               "an 8x8 block of outputs per thread: 8 A and 8 B operands per k step, 64 FMAs",
               THREADS_05, 1, TG_SIMT05_TILE_M, TG_SIMT05_TILE_N, TG_SIMT05_TILE_K, 1,
               TG_SIMT05_TILE_K, TG_TRACE_SMEM_PER_OPERAND, grid_05, loads_05, fragments_05_06,
               stores_05_06),
    SIMT_TRACE("simt_06_vectorized", 6,
               "float4 loads; A's tile stored transposed so a thread's 8 A operands are "
               "contiguous",
               THREADS_05, 1, TG_SIMT05_TILE_M, TG_SIMT05_TILE_N, TG_SIMT05_TILE_K, 1,
               TG_SIMT05_TILE_K, TG_TRACE_SMEM_PER_OPERAND, grid_05, loads_06, fragments_05_06,
               stores_05_06),
    SIMT_TRACE("simt_07_warptile", 7,
               "warp tiles of 64x32; a lane owns 2x2 sub-blocks of 4x4, interleaved with the "
               "other lanes'",
               WT_THREADS, 1, WT_TILE_M, WT_TILE_N, WT_TILE_K, 1, WT_TILE_K, TG_TRACE_SMEM_SHARED,
               grid_wt, loads_wt, fragments_wt, stores_wt),
    SIMT_TRACE("simt_08_double_buffer", 8,
               "rung 7 with two shared buffers: k-tile kt is staged into buffer kt % 2", WT_THREADS,
               1, WT_TILE_M, WT_TILE_N, WT_TILE_K, TG_SIMT08_BUFFERS, WT_TILE_K,
               TG_TRACE_SMEM_SHARED, grid_wt, loads_wt, fragments_wt, stores_wt),
};
const int tg_trace_simt_count =
    (int)(sizeof tg_trace_simt_kernels / sizeof tg_trace_simt_kernels[0]);
