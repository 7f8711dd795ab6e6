/*
 * trace_f32.c — the trace of the f32 family (kernels/f32/f32_gemm.cuh): the grouped tile order
 * and split-K on the grid's y dimension, an operand's k-tile staged by cp.async into [k][m or n]
 * rows whatever its order (K-major one float per copy, transposed; MN-major in 16-byte chunks or
 * floats), the float4 operands of each k step, the accumulators of the warp-tiled thread block,
 * and the epilogue's 8-column segments through each warp's staging area, from f32_layout.h's
 * functions, called as the kernel calls them.
 *
 * Shared-memory offsets are from the start of the dynamic shared memory: stage s at s · stage
 * bytes, A's tile then B's.
 */
#include <stdio.h>
#include <string.h>

#include "f32_layout.h"
#include "splitk_reduce.h"
#include "trace_family.h"

#define APPLY(f, ...) f(__VA_ARGS__)
#define UNPAREN(...) __VA_ARGS__
#define SHAPE_OF(tm, tn, tk, wm, wn, st, mc) \
  { tm, tn, tk, wm, wn, st }
#define TM_OF(tm, tn, tk, wm, wn, st, mc) (tm)
#define TN_OF(tm, tn, tk, wm, wn, st, mc) (tn)
#define TK_OF(tm, tn, tk, wm, wn, st, mc) (tk)
#define THREADS_OF(tm, tn, tk, wm, wn, st, mc) ((wm) * (wn)*TG_F32_WARP)
#define STAGES_OF(tm, tn, tk, wm, wn, st, mc) (st)

#define FLOAT_BYTES 4
#define EPILOGUE_VECTOR 8 /* epilogue.cuh's TG_EPILOGUE_VECTOR */
#define MAX_GRID_Y 65535  /* f32_gemm.cuh's kF32MaxGridY */
#define SUB_BLOCK_ROWS (TG_F32_LANES_M * TG_F32_VECTOR)

typedef struct f32_shape {
  int tm, tn, tk, warps_m, warps_n, stages;
} f32_shape;

static const f32_shape k_shapes[] = {
    APPLY(SHAPE_OF, TG_F32_128X128),
    APPLY(SHAPE_OF, TG_F32_64X64),
    APPLY(SHAPE_OF, TG_F32_64X64),
};

/* One operand's staged tile (F32OperandTile) for the problem's order and alignment. */
typedef struct f32_tile {
  int outer, staging, stride, threads_per_row, rows_per_slot, rows_per_pass;
  int64_t floats;
} f32_tile;

typedef struct f32_dims {
  f32_shape s;
  int threads, warp_tm, warp_tn, iter_m;
  f32_tile a, b;
  int64_t stage_bytes, b_offset;
} f32_dims;

static f32_tile tile_of(int outer, int tk, int threads, int staging) {
  f32_tile t;
  t.outer = outer;
  t.staging = staging;
  t.stride = outer + TG_F32_SMEM_PAD;
  t.floats = (int64_t)tk * t.stride;
  t.threads_per_row = staging == TG_F32_MN_CHUNKS ? outer / TG_F32_VECTOR : outer;
  t.rows_per_slot = threads / t.threads_per_row;
  t.rows_per_pass = threads / TG_F32_K_LANES;
  return t;
}

static f32_dims dims_of(const tg_trace *t) {
  f32_dims d;
  memset(&d, 0, sizeof d);
  d.s = k_shapes[t->kernel - tg_trace_f32_kernels];
  d.threads = d.s.warps_m * d.s.warps_n * TG_F32_WARP;
  d.warp_tm = d.s.tm / d.s.warps_m;
  d.warp_tn = d.s.tn / d.s.warps_n;
  d.iter_m = d.warp_tm / SUB_BLOCK_ROWS;
  d.a = tile_of(d.s.tm, d.s.tk, d.threads,
                tg_f32_staging_of(t->p.a_order == TG_ROW_MAJOR, t->p.align_a));
  d.b = tile_of(d.s.tn, d.s.tk, d.threads,
                tg_f32_staging_of(t->p.b_order == TG_COL_MAJOR, t->p.align_b));
  d.b_offset = d.a.floats * FLOAT_BYTES;
  d.stage_bytes = (d.a.floats + d.b.floats) * FLOAT_BYTES;
  return d;
}

static void grid_f32(const tg_trace *t, unsigned g[3]) {
  const f32_dims d = dims_of(t);
  const int64_t zs = t->p.batch * t->splits;
  g[0] = (unsigned)(((t->p.m + d.s.tm - 1) / d.s.tm) * ((t->p.n + d.s.tn - 1) / d.s.tn));
  g[1] = (unsigned)(zs < MAX_GRID_Y ? zs : MAX_GRID_Y);
  g[2] = 1;
}

/* CTA (bx, by): output tile bx in grouped order, the (batch, split) pair by. */
static int cta_f32(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *c) {
  const f32_dims d = dims_of(t);
  const tg_problem *p = &t->p;
  const tg_tile_coord tile = tg_grouped_tile_of(bx, (p->m + d.s.tm - 1) / d.s.tm,
                                                (p->n + d.s.tn - 1) / d.s.tn, TG_F32_GROUP_M);
  const int64_t k_split = t->splits > 1 ? tg_splitk_k(p, t->splits, d.s.tk) : p->k;
  memset(c, 0, sizeof *c);
  c->bx = bx, c->by = by, c->bz = bz;
  c->bat = by / t->splits;
  c->split = (int)(by % t->splits);
  c->m0 = tile.tm * d.s.tm;
  c->n0 = tile.tn * d.s.tn;
  c->k_begin = c->split * k_split;
  c->k_end = c->k_begin + k_split < p->k ? c->k_begin + k_split : p->k;
  c->k_tiles = c->k_end > c->k_begin ? (int)((c->k_end - c->k_begin + d.s.tk - 1) / d.s.tk) : 0;
  return 0;
}

/* One operand's copies of a k-tile (F32OperandTile::thread_issue): element (outer, kk) of the
 * tile at float kk · stride + outer of it. */
static void load_operand(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c,
                         const f32_dims *d, int operand, int tid, int kt, int *access) {
  const f32_tile *x = operand == TG_TRACE_A ? &d->a : &d->b;
  const tg_cell first = tg_f32_stage_cell(tid, x->staging, x->threads_per_row);
  const int64_t origin = operand == TG_TRACE_A ? c->m0 : c->n0, k0 = tg_trace_k0(t, c, kt);
  const int64_t base =
      (int64_t)(kt % d->s.stages) * d->stage_bytes + (operand == TG_TRACE_B ? d->b_offset : 0);
  int copies_k, copies_outer, per_copy;
  if (x->staging == TG_F32_K_MAJOR)
    copies_k = d->s.tk / TG_F32_K_LANES, copies_outer = x->outer / x->rows_per_pass, per_copy = 1;
  else
    copies_k = d->s.tk / x->rows_per_slot, copies_outer = 1,
    per_copy = x->staging == TG_F32_MN_CHUNKS ? TG_F32_VECTOR : 1;
  for (int g = 0; g < copies_k; ++g)
    for (int pass = 0; pass < copies_outer; ++pass, ++*access)
      for (int e = 0; e < per_copy; ++e) {
        const int kk =
            first.row + g * (x->staging == TG_F32_K_MAJOR ? TG_F32_K_LANES : x->rows_per_slot);
        const int o = first.col + pass * x->rows_per_pass + e;
        tg_trace_put_load(out, t, c, operand, *access, operand == TG_TRACE_A ? origin + o : k0 + kk,
                          operand == TG_TRACE_A ? k0 + kk : origin + o,
                          base + ((int64_t)kk * x->stride + o) * FLOAT_BYTES);
      }
}

static void loads_f32(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                      tg_trace_list *out) {
  const f32_dims d = dims_of(t);
  int access = 0;
  load_operand(out, t, c, &d, TG_TRACE_A, tid, kt, &access);
  load_operand(out, t, c, &d, TG_TRACE_B, tid, kt, &access);
}

/* Per k step: the thread's A operands (a float4 per 32-row sub-block), then its 8 of B. */
static void fragments_f32(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                          tg_trace_list *out) {
  const f32_dims d = dims_of(t);
  const tg_cell at = tg_warp_tile_place((unsigned)tid, TG_F32_WARP, d.s.warps_m, d.warp_tm,
                                        d.warp_tn, TG_F32_LANES_N, TG_F32_VECTOR, TG_F32_THREAD_N);
  const int64_t stage = (int64_t)(kt % d.s.stages) * d.stage_bytes;
  int n = 0;
  for (int kk = 0; kk < d.s.tk; ++kk) {
    for (int i = 0; i < d.iter_m; ++i)
      for (int e = 0; e < TG_F32_VECTOR; ++e)
        tg_trace_put_fragment(
            out, TG_TRACE_A, n++, kk,
            stage + ((int64_t)kk * d.a.stride + at.row + i * SUB_BLOCK_ROWS + e) * FLOAT_BYTES);
    for (int j = 0; j < TG_F32_THREAD_N; ++j)
      tg_trace_put_fragment(
          out, TG_TRACE_B, n++, kk,
          stage + d.b_offset + ((int64_t)kk * d.b.stride + at.col + j) * FLOAT_BYTES);
  }
}

/* The accumulators: row i of the thread's block is row at.row + 32·(i / 4) + i % 4. */
static void accumulators_f32(const tg_trace *t, const tg_trace_cta *c, int tid,
                             tg_trace_list *out) {
  const f32_dims d = dims_of(t);
  const tg_cell at = tg_warp_tile_place((unsigned)tid, TG_F32_WARP, d.s.warps_m, d.warp_tm,
                                        d.warp_tn, TG_F32_LANES_N, TG_F32_VECTOR, TG_F32_THREAD_N);
  int n = 0;
  for (int i = 0; i < d.iter_m * TG_F32_VECTOR; ++i)
    for (int j = 0; j < TG_F32_THREAD_N; ++j)
      tg_trace_put_accumulator(
          out, t, c, n++, c->m0 + at.row + (i / TG_F32_VECTOR) * SUB_BLOCK_ROWS + i % TG_F32_VECTOR,
          c->n0 + at.col + j);
}

/* The epilogue (warp_finish): per 32-row sub-block, the warp's staging area read back in
 * segments of EPILOGUE_VECTOR columns, lane + i·32. */
static void stores_f32(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const f32_dims d = dims_of(t);
  const int warp = tid / TG_F32_WARP, lane = tid % TG_F32_WARP;
  const int per_row = d.warp_tn / EPILOGUE_VECTOR;
  const int64_t wrow = c->m0 + (warp % d.s.warps_m) * d.warp_tm;
  const int64_t wcol = c->n0 + (warp / d.s.warps_m) * d.warp_tn;
  int n = 0;
  for (int ib = 0; ib < d.iter_m; ++ib)
    for (int s = lane; s < SUB_BLOCK_ROWS * per_row; s += TG_F32_WARP, ++n) {
      const tg_cell seg = tg_row_vector_cell(s, per_row, EPILOGUE_VECTOR);
      for (int e = 0; e < EPILOGUE_VECTOR; ++e)
        tg_trace_put_store(out, t, c, n, wrow + ib * SUB_BLOCK_ROWS + seg.row, wcol + seg.col + e);
    }
}

/* "stage 0, A k row 3, m 17": the staged tile's k row and outer index of a byte. */
static void smem_name_f32(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const f32_dims d = dims_of(t);
  const int64_t s = smem / d.stage_bytes, in = smem % d.stage_bytes;
  const int b = in >= d.b_offset;
  const f32_tile *x = b ? &d.b : &d.a;
  const int64_t f = (in - (b ? d.b_offset : 0)) / FLOAT_BYTES;
  snprintf(buf, len, "stage %lld, %s k row %lld, %s %lld", (long long)s, b ? "B" : "A",
           (long long)(f / x->stride), b ? "n" : "m", (long long)(f % x->stride));
}

static const char k_grid_note[] =
    "x: output tiles in groups of 8 rows of tiles walked column by column, y: (batch, split) "
    "pairs";

#define ANY_ORDER ((1u << TG_ROW_MAJOR) | (1u << TG_COL_MAJOR))
#define F32_TRACE(name_, shape_, summary_)                                                        \
  {                                                                                               \
    .name = (name_), .family = "f32", .summary = (summary_),                                      \
    .block_x = APPLY(THREADS_OF, UNPAREN shape_), .block_y = 1,                                   \
    .tile_m = APPLY(TM_OF, UNPAREN shape_), .tile_n = APPLY(TN_OF, UNPAREN shape_),               \
    .tile_k = APPLY(TK_OF, UNPAREN shape_), .stages = APPLY(STAGES_OF, UNPAREN shape_),           \
    .elem_bytes = FLOAT_BYTES, .a_orders = ANY_ORDER, .b_orders = ANY_ORDER, .ab_dtype = "f32",   \
    .k_steps = APPLY(TK_OF, UNPAREN shape_), .smem_base = TG_TRACE_SMEM_SHARED, .grid = grid_f32, \
    .grid_note = k_grid_note, .cta = cta_f32, .loads = loads_f32, .fragments = fragments_f32,     \
    .stores = stores_f32, .accumulators = accumulators_f32, .smem_name = smem_name_f32,           \
  }

/* In the order of k_shapes. */
const tg_trace_kernel tg_trace_f32_kernels[] = {
    F32_TRACE("f32_128x128x16", (TG_F32_128X128),
              "8 warps of 64x32; any order staged into [k][m or n] rows by cp.async"),
    F32_TRACE("f32_64x64x16", (TG_F32_64X64), "4 warps of 32x32"),
    F32_TRACE("f32_64x64x16_splitk", (TG_F32_64X64), "64x64 with split-K on grid y"),
};
const int tg_trace_f32_count = (int)(sizeof tg_trace_f32_kernels / sizeof tg_trace_f32_kernels[0]);
