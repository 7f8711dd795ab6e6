/*
 * trace_ladder.c — the trace of the 16-bit rungs 9-12 (kernels/ladder): the 16-byte chunks a
 * thread stages (padded rows for WMMA, Swizzle<3,3,3> for mma.sync), the ldmatrix fragments of
 * rungs 11 and 12 and the elements of D each thread writes, from ladder_layout.h's functions.
 *
 * Shared-memory offsets are from the start of the kernel's shared memory: rungs 9 and 10 the
 * WmmaShared union (stage s at s·stage bytes, A's tile then B's), rungs 11 and 12 the stages of
 * 16 KB (A's tile, then B's at 8 KB). B is staged as its N×K view: the chunk of "row" n holds
 * B(k .. k + 7, n).
 */
#include <stdio.h>
#include <string.h>

#include "ladder_grid.h"
#include "ladder_layout.h"
#include "trace_family.h"

#define ELEM_BYTES 2 /* f16, bf16 */
#define CHUNK_BYTES (TG_LADDER_CHUNK_ELEMS * ELEM_BYTES)
#define LDSM_REGS 4  /* registers of one ldmatrix.x4 */
#define REG_HALVES 2 /* 16-bit elements per register */
#define PAIR 2       /* n8 tiles per ldmatrix.x4 of B; accumulator pairs */

/* The shapes' fields as constant expressions. */
#define APPLY(f, ...) f(__VA_ARGS__)
#define TILE_M_OF(tm, tn, tk, wm, wn) (tm)
#define TILE_N_OF(tm, tn, tk, wm, wn) (tn)
#define TILE_K_OF(tm, tn, tk, wm, wn) (tk)
#define WARPS_M_OF(tm, tn, tk, wm, wn) (wm)
#define WARPS_N_OF(tm, tn, tk, wm, wn) (wn)
enum {
  W_TM = APPLY(TILE_M_OF, TG_LADDER_WMMA_SHAPE),
  W_TN = APPLY(TILE_N_OF, TG_LADDER_WMMA_SHAPE),
  W_TK = APPLY(TILE_K_OF, TG_LADDER_WMMA_SHAPE),
  W_WM = APPLY(WARPS_M_OF, TG_LADDER_WMMA_SHAPE),
  W_WN = APPLY(WARPS_N_OF, TG_LADDER_WMMA_SHAPE),
  W_THREADS = W_WM * W_WN * TG_LADDER_WARP,
  W_PITCH = W_TK + TG_LADDER_WMMA_SKEW, /* staged row pitch, elements */
  W_CHUNKS_PER_ROW = W_TK / TG_LADDER_CHUNK_ELEMS,
  W_FRAGS_M = W_TM / W_WM / TG_LADDER_WMMA_SIDE,
  W_FRAGS_N = W_TN / W_WN / TG_LADDER_WMMA_SIDE,
  W_STAGE_A_BYTES = W_TM * W_PITCH * ELEM_BYTES,
  W_STAGE_BYTES = (W_TM + W_TN) * W_PITCH * ELEM_BYTES,
  M_TM = APPLY(TILE_M_OF, TG_LADDER_MMA_SHAPE),
  M_TN = APPLY(TILE_N_OF, TG_LADDER_MMA_SHAPE),
  M_TK = APPLY(TILE_K_OF, TG_LADDER_MMA_SHAPE),
  M_WM = APPLY(WARPS_M_OF, TG_LADDER_MMA_SHAPE),
  M_WN = APPLY(WARPS_N_OF, TG_LADDER_MMA_SHAPE),
  M_THREADS = M_WM * M_WN * TG_LADDER_WARP,
  M_WARP_TM = M_TM / M_WM,
  M_WARP_TN = M_TN / M_WN,
  M_TILES_M = M_WARP_TM / TG_LADDER_MMA_M,
  M_TILES_N = M_WARP_TN / TG_LADDER_MMA_N,
  M_STEPS_K = M_TK / TG_LADDER_MMA_K,
  M_CHUNKS_PER_ROW = M_TK / TG_LADDER_CHUNK_ELEMS,
  M_ROWS_PER_PASS = M_THREADS / M_CHUNKS_PER_ROW,
  M_STAGE_A_BYTES = M_TM * M_TK * ELEM_BYTES,
  M_STAGE_BYTES = (M_TM + M_TN) * M_TK * ELEM_BYTES,
  M12_VECS_PER_ROW = M_TN / TG_LADDER12_OUT_VEC
};

static void grid_wmma(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, W_TM, W_TN, g);
}
static void grid_mma(const tg_trace *t, unsigned g[3]) {
  const tg_problem *p = &t->p;
  tg_trace_ladder_grid(p, M_TM, M_TN, g);
}

/* One chunk: elements e of row `row` (m of A, n of B) at k = kk + e, landing at smem + 2e. */
static void put_chunk(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c, int operand,
                      int access, int64_t row, int64_t kk, int64_t smem) {
  for (int e = 0; e < TG_LADDER_CHUNK_ELEMS; ++e) {
    if (operand == TG_TRACE_A)
      tg_trace_put_load(out, t, c, TG_TRACE_A, access, row, kk + e, smem + e * ELEM_BYTES);
    else tg_trace_put_load(out, t, c, TG_TRACE_B, access, kk + e, row, smem + e * ELEM_BYTES);
  }
}

/* ---- rungs 9 and 10: WMMA ----------------------------------------------------------------- */

static void loads_wmma(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                       tg_trace_list *out) {
  const int chunks_a = W_TM * W_CHUNKS_PER_ROW / W_THREADS;
  const int chunks_b = W_TN * W_CHUNKS_PER_ROW / W_THREADS;
  const int64_t k0 = tg_trace_k0(t, c, kt);
  const int64_t stage = (int64_t)(kt % t->kernel->stages) * W_STAGE_BYTES;
  int n = 0;
  for (int i = 0; i < chunks_a; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(tid + i * W_THREADS, W_CHUNKS_PER_ROW);
    put_chunk(out, t, c, TG_TRACE_A, n++, c->m0 + q.row, k0 + q.col,
              stage + (int64_t)(q.row * W_PITCH + q.col) * ELEM_BYTES);
  }
  for (int i = 0; i < chunks_b; ++i) {
    const tg_cell q = tg_ladder_chunk_cell(tid + i * W_THREADS, W_CHUNKS_PER_ROW);
    put_chunk(out, t, c, TG_TRACE_B, n++, c->n0 + q.row, k0 + q.col,
              stage + W_STAGE_A_BYTES + (int64_t)(q.row * W_PITCH + q.col) * ELEM_BYTES);
  }
}

/* The epilogue: each of the warp's fragments through its scratch tile, 8 elements per lane. */
static void stores_wmma(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const int per_lane = TG_LADDER_WMMA_SIDE * TG_LADDER_WMMA_SIDE / TG_LADDER_WARP;
  const int lane = tid % TG_LADDER_WARP;
  const tg_cell w = tg_ladder_wmma_warp_origin(tid / TG_LADDER_WARP, W_WM, W_FRAGS_M, W_FRAGS_N);
  int n = 0;
  for (int i = 0; i < W_FRAGS_M; ++i)
    for (int j = 0; j < W_FRAGS_N; ++j)
      for (int e = 0; e < per_lane; ++e) {
        const tg_cell s = tg_ladder_wmma_scratch_cell(e, lane);
        tg_trace_put_store(out, t, c, n++, c->m0 + w.row + i * TG_LADDER_WMMA_SIDE + s.row,
                           c->n0 + w.col + j * TG_LADDER_WMMA_SIDE + s.col);
      }
}

/* ---- rungs 11 and 12: mma.sync ------------------------------------------------------------ */

static int64_t mma_stage(const tg_trace *t, int kt) {
  return (int64_t)(kt % t->kernel->stages) * M_STAGE_BYTES;
}

static void loads_mma(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                      tg_trace_list *out) {
  const int chunks = M_TM / M_ROWS_PER_PASS; /* per thread and operand (M_TM == M_TN) */
  const tg_cell copy = tg_ladder_copy_cell((unsigned)tid, M_CHUNKS_PER_ROW);
  const int64_t k0 = tg_trace_k0(t, c, kt) + copy.col * TG_LADDER_CHUNK_ELEMS;
  const int64_t stage = mma_stage(t, kt);
  int n = 0;
  for (int i = 0; i < chunks; ++i) {
    const int row = copy.row + i * M_ROWS_PER_PASS;
    put_chunk(out, t, c, TG_TRACE_A, n++, c->m0 + row, k0,
              stage + (int64_t)tg_ladder_swizzled_chunk(row, copy.col) * CHUNK_BYTES);
  }
  for (int i = 0; i < chunks; ++i) {
    const int row = copy.row + i * M_ROWS_PER_PASS;
    put_chunk(
        out, t, c, TG_TRACE_B, n++, c->n0 + row, k0,
        stage + M_STAGE_A_BYTES + (int64_t)tg_ladder_swizzled_chunk(row, copy.col) * CHUNK_BYTES);
  }
}

/* Per k16 step: for each m16 tile i the 4 registers (2 halves each) of its ldmatrix.x4 of A,
 * then for each pair of n8 tiles the 4 registers of its ldmatrix.x4 of B (tile j: r0, r1;
 * tile j + 1: r2, r3), the order in which the recording build lists them. */
static void fragments_mma(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                          tg_trace_list *out) {
  const int lane = tid % TG_LADDER_WARP;
  const tg_cell w = tg_ladder_mma_warp_origin((unsigned)tid, M_WM, M_WARP_TM, M_WARP_TN);
  const int64_t stage = mma_stage(t, kt);
  int64_t addr[TG_LADDER_WARP];
  int n = 0;
  for (int ks = 0; ks < M_STEPS_K; ++ks) {
    for (int i = 0; i < M_TILES_M; ++i) {
      for (int l = 0; l < TG_LADDER_WARP; ++l) {
        const tg_cell a = tg_ladder_ldsm_a_cell(l, w.row, i, ks);
        addr[l] = stage + (int64_t)tg_ladder_swizzled_chunk(a.row, a.col) * CHUNK_BYTES;
      }
      for (int r = 0; r < LDSM_REGS; ++r)
        for (int h = 0; h < REG_HALVES; ++h)
          tg_trace_put_fragment(out, TG_TRACE_A, n++, ks,
                                tg_trace_ldmatrix_x4(addr, lane, r, h, ELEM_BYTES, 0));
    }
    for (int j = 0; j < M_TILES_N; j += PAIR) {
      for (int l = 0; l < TG_LADDER_WARP; ++l) {
        const tg_cell b = tg_ladder_ldsm_b_cell(l, w.col, j, ks);
        addr[l] =
            stage + M_STAGE_A_BYTES + (int64_t)tg_ladder_swizzled_chunk(b.row, b.col) * CHUNK_BYTES;
      }
      for (int r = 0; r < LDSM_REGS; ++r)
        for (int h = 0; h < REG_HALVES; ++h)
          tg_trace_put_fragment(out, TG_TRACE_B, n++, ks,
                                tg_trace_ldmatrix_x4(addr, lane, r, h, ELEM_BYTES, 0));
    }
  }
}

/* The row and first column of accumulator pair `half` of m16n8 tile (i, j) in the CTA tile, for
 * a lane of the warp at w. */
static int acc_row(tg_cell w, int lane, int i, int half) {
  return w.row + i * TG_LADDER_MMA_M + tg_ladder_acc_lane_cell(lane).row +
         half * TG_LADDER_ACC_HALF_ROWS;
}
static int acc_col(tg_cell w, int lane, int j) {
  return w.col + j * TG_LADDER_MMA_N + tg_ladder_acc_lane_cell(lane).col;
}

/* The accumulators: tile (i, j), pair `half`, element e. */
static void accumulators_mma(const tg_trace *t, const tg_trace_cta *c, int tid,
                             tg_trace_list *out) {
  const int lane = tid % TG_LADDER_WARP;
  const tg_cell w = tg_ladder_mma_warp_origin((unsigned)tid, M_WM, M_WARP_TM, M_WARP_TN);
  int n = 0;
  for (int i = 0; i < M_TILES_M; ++i)
    for (int j = 0; j < M_TILES_N; ++j)
      for (int half = 0; half < PAIR; ++half)
        for (int e = 0; e < PAIR; ++e)
          tg_trace_put_accumulator(out, t, c, n++, c->m0 + acc_row(w, lane, i, half),
                                   c->n0 + acc_col(w, lane, j) + e);
}

/* Rung 11 stores straight from the accumulators. */
static void stores_11(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const int lane = tid % TG_LADDER_WARP;
  const tg_cell w = tg_ladder_mma_warp_origin((unsigned)tid, M_WM, M_WARP_TM, M_WARP_TN);
  int n = 0;
  for (int i = 0; i < M_TILES_M; ++i)
    for (int half = 0; half < PAIR; ++half)
      for (int j = 0; j < M_TILES_N; ++j)
        for (int e = 0; e < PAIR; ++e)
          tg_trace_put_store(out, t, c, n++, c->m0 + acc_row(w, lane, i, half),
                             c->n0 + acc_col(w, lane, j) + e);
}

/* Rung 12 stores the staged tile row by row, TG_LADDER12_OUT_VEC columns per lane. */
static void stores_12(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  int n = 0;
  for (int v = tid; v < M_TM * M12_VECS_PER_ROW; v += M_THREADS, ++n) {
    const tg_cell q = tg_row_vector_cell(v, M12_VECS_PER_ROW, TG_LADDER12_OUT_VEC);
    for (int e = 0; e < TG_LADDER12_OUT_VEC; ++e)
      tg_trace_put_store(out, t, c, n, c->m0 + q.row, c->n0 + q.col + e);
  }
}

/* ---- shared-memory names ------------------------------------------------------------------ */

static void smem_name_wmma(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const int64_t s = smem / W_STAGE_BYTES, in = smem % W_STAGE_BYTES;
  const int64_t e = (in >= W_STAGE_A_BYTES ? in - W_STAGE_A_BYTES : in) / ELEM_BYTES;
  snprintf(buf, len, "stage[%lld].%s[%lld][%lld]", (long long)s, in >= W_STAGE_A_BYTES ? "b" : "a",
           (long long)(e / W_PITCH), (long long)(e % W_PITCH));
}

/* The swizzled tile's physical chunk, and the logical (row, chunk) it holds. */
static void smem_name_mma(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const int64_t s = smem / M_STAGE_BYTES, in = smem % M_STAGE_BYTES;
  const int64_t at = in >= M_STAGE_A_BYTES ? in - M_STAGE_A_BYTES : in;
  const int phys = (int)(at / CHUNK_BYTES);
  int row = -1, chunk = -1;
  for (int r = phys / M_CHUNKS_PER_ROW & ~1; r <= (phys / M_CHUNKS_PER_ROW | 1); ++r)
    for (int q = 0; q < M_CHUNKS_PER_ROW; ++q)
      if (tg_ladder_swizzled_chunk(r, q) == phys) row = r, chunk = q;
  snprintf(buf, len, "stage %lld, %s's chunk %d = row %d chunk %d (unswizzled: %d)", (long long)s,
           in >= M_STAGE_A_BYTES ? "B" : "A", phys, row, chunk, row * M_CHUNKS_PER_ROW + chunk);
}

/* ---- the table ---------------------------------------------------------------------------- */

#define LADDER_TRACE(name_, rung_, summary_, threads_, tm_, tn_, tk_, stages_, steps_, grid_,      \
                     loads_, fragments_, stores_, name_fn_)                                        \
  {                                                                                                \
    .name = (name_), .family = "ladder", .summary = (summary_), .rung = (rung_),                   \
    .block_x = (threads_), .block_y = 1, .tile_m = (tm_), .tile_n = (tn_), .tile_k = (tk_),        \
    .stages = (stages_), .elem_bytes = ELEM_BYTES, .a_orders = 1u << TG_ROW_MAJOR,                 \
    .b_orders = 1u << TG_COL_MAJOR, .ab_dtype = "bf16", .k_steps = (steps_),                       \
    .fragments_opaque = (steps_) == 0, .mma_fragments = (steps_) != 0,                             \
    .smem_base = TG_TRACE_SMEM_SHARED, .grid = (grid_), .grid_note = tg_trace_ladder_grid_note,    \
    .cta = tg_trace_ladder_cta, .loads = (loads_), .fragments = (fragments_), .stores = (stores_), \
    .accumulators = (steps_) ? accumulators_mma : NULL, .smem_name = (name_fn_),                   \
  }

const tg_trace_kernel tg_trace_ladder_kernels[] = {
    LADDER_TRACE("ladder_09_wmma", 9,
                 "16-byte chunks into padded shared rows; WMMA fragments (lane layout opaque); "
                 "D through a per-warp scratch tile",
                 W_THREADS, W_TM, W_TN, W_TK, TG_LADDER09_STAGES, 0, grid_wmma, loads_wmma, NULL,
                 stores_wmma, smem_name_wmma),
    LADDER_TRACE("ladder_10_wmma_double_buffer", 10,
                 "rung 9 with two stages: k-tile kt is staged into stage kt % 2", W_THREADS, W_TM,
                 W_TN, W_TK, TG_LADDER10_STAGES, 0, grid_wmma, loads_wmma, NULL, stores_wmma,
                 smem_name_wmma),
    LADDER_TRACE("ladder_11_mma_swizzle", 11,
                 "cp.async chunks into a Swizzle<3,3,3> tile; ldmatrix.x4 gives the mma.sync "
                 "m16n8k16 fragments; D straight from the accumulators",
                 M_THREADS, M_TM, M_TN, M_TK, TG_LADDER11_STAGES, M_STEPS_K, grid_mma, loads_mma,
                 fragments_mma, stores_11, smem_name_mma),
    LADDER_TRACE("ladder_12_mma_multistage", 12,
                 "rung 11 with 4 stages (k-tile kt in stage kt % 4); D through shared memory, 4 "
                 "columns per lane",
                 M_THREADS, M_TM, M_TN, M_TK, TG_LADDER12_STAGES, M_STEPS_K, grid_mma, loads_mma,
                 fragments_mma, stores_12, smem_name_mma),
};
const int tg_trace_ladder_count =
    (int)(sizeof tg_trace_ladder_kernels / sizeof tg_trace_ladder_kernels[0]);
