/*
 * trace_sm80.c — the trace of the sm80 family (kernels/sm80/sm80_gemm.cuh): the grouped tile
 * order, split-K on the grid's y dimension, the swizzled cp.async chunks of K- and MN-major
 * tiles, the ldmatrix (.trans for MN-major) fragments of f16/bf16, tf32 and int8, and the
 * shared epilogue's 8-column segments, from sm80_layout.h's functions, called as the kernel
 * calls them.
 *
 * Shared-memory offsets are from the start of the dynamic shared memory: stage s at s · stage
 * bytes, A's tile then B's (at BM · 128 bytes). With split-K a CTA stores partial sums into the
 * workspace, [split][batch][m][n].
 */
#include <stdio.h>
#include <string.h>

#include "sm80_layout.h"
#include "splitk_reduce.h"
#include "trace_family.h"

/* The configuration lists' fields (sm80_layout.h), as constant expressions: a list travels
 * parenthesized and is given one more element, so that a missing min_ctas can default. */
#define APPLY(f, ...) f(__VA_ARGS__)
#define UNPAREN(...) __VA_ARGS__
#define BM_OF(bm, bn, wm, wn, st, ...) (bm)
#define BN_OF(bm, bn, wm, wn, st, ...) (bn)
#define THREADS_OF(bm, bn, wm, wn, st, ...) ((wm) * (wn)*TG_SM80_WARP)
#define STAGES_OF(bm, bn, wm, wn, st, ...) (st)
#define SHAPE_OF(bm, bn, wm, wn, st, ...) \
  { bm, bn, wm, wn, st }

#define REG_BYTES 4
#define LDSM_REGS 4
#define PAIR 2
#define HALF_ROWS 8
#define EPILOGUE_VECTOR 8 /* epilogue.cuh's TG_EPILOGUE_VECTOR */
#define MAX_GRID_Y 65535  /* sm80_gemm.cuh's TG_MAX_GRID_Y */

typedef struct sm80_shape {
  int bm, bn, warps_m, warps_n, stages;
} sm80_shape;

/* Everything Sm80Gemm derives from a shape, an element size and the operands' orders. */
typedef struct sm80_dims {
  sm80_shape s;
  int threads, eb, bk, warp_tm, warp_tn, tiles_m, tiles_n, k_steps;
  int tile_a_bytes, stage_bytes, a_kmajor, b_kmajor, a_mn_chunks, b_mn_chunks;
} sm80_dims;

static const sm80_shape k_shapes[] = {
    APPLY(SHAPE_OF, TG_SM80_H_128X256, 1),    APPLY(SHAPE_OF, TG_SM80_H_256X128, 1),
    APPLY(SHAPE_OF, TG_SM80_H_128X128, 1),    APPLY(SHAPE_OF, TG_SM80_H_64X128, 1),
    APPLY(SHAPE_OF, TG_SM80_H_64X64, 1),      APPLY(SHAPE_OF, TG_SM80_H_128X128, 1),
    APPLY(SHAPE_OF, TG_SM80_H_64X64, 1),      APPLY(SHAPE_OF, TG_SM80_TF32_256X128, 1),
    APPLY(SHAPE_OF, TG_SM80_TF32_128X128, 1), APPLY(SHAPE_OF, TG_SM80_TF32_64X64, 1),
    APPLY(SHAPE_OF, TG_SM80_TF32_64X64, 1),   APPLY(SHAPE_OF, TG_SM80_S8_128X256, 1),
    APPLY(SHAPE_OF, TG_SM80_S8_128X128, 1),   APPLY(SHAPE_OF, TG_SM80_S8_64X64, 1),
    APPLY(SHAPE_OF, TG_SM80_S8_64X64, 1),
};

static sm80_dims dims_of(const tg_trace *t) {
  sm80_dims d;
  memset(&d, 0, sizeof d);
  d.s = k_shapes[t->kernel - tg_trace_sm80_kernels];
  d.eb = t->kernel->elem_bytes;
  d.threads = d.s.warps_m * d.s.warps_n * TG_SM80_WARP;
  d.bk = TG_SM80_TILE_K_BYTES / d.eb;
  d.warp_tm = d.s.bm / d.s.warps_m;
  d.warp_tn = d.s.bn / d.s.warps_n;
  d.tiles_m = d.warp_tm / TG_SM80_MMA_M;
  d.tiles_n = d.warp_tn / TG_SM80_MMA_N;
  d.k_steps = TG_SM80_TILE_K_BYTES / TG_SM80_MMA_K_BYTES;
  d.tile_a_bytes = d.s.bm * TG_SM80_TILE_K_BYTES;
  d.stage_bytes = d.tile_a_bytes + d.s.bn * TG_SM80_TILE_K_BYTES;
  d.a_kmajor = t->p.a_order == TG_ROW_MAJOR;
  d.b_kmajor = t->p.b_order == TG_COL_MAJOR;
  d.a_mn_chunks = d.s.bm * d.eb / TG_CHUNK_BYTES;
  d.b_mn_chunks = d.s.bn * d.eb / TG_CHUNK_BYTES;
  return d;
}

static void grid_sm80(const tg_trace *t, unsigned g[3]) {
  const sm80_dims d = dims_of(t);
  const int64_t zs = t->p.batch * t->splits;
  g[0] = (unsigned)(((t->p.m + d.s.bm - 1) / d.s.bm) * ((t->p.n + d.s.bn - 1) / d.s.bn));
  g[1] = (unsigned)(zs < MAX_GRID_Y ? zs : MAX_GRID_Y);
  g[2] = 1;
}

/* CTA (bx, by): output tile bx in grouped order, the (batch, split) pair by (the CTA's first;
 * a grid cut at MAX_GRID_Y walks the others after it). */
static int cta_sm80(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *c) {
  const sm80_dims d = dims_of(t);
  const tg_problem *p = &t->p;
  const tg_tile_coord tile = tg_grouped_tile_of(bx, (p->m + d.s.bm - 1) / d.s.bm,
                                                (p->n + d.s.bn - 1) / d.s.bn, TG_SM80_GROUP_M);
  const int64_t k_split = t->splits > 1 ? tg_splitk_k(p, t->splits, d.bk) : p->k;
  memset(c, 0, sizeof *c);
  c->bx = bx, c->by = by, c->bz = bz;
  c->bat = by / t->splits;
  c->split = (int)(by % t->splits);
  c->m0 = tile.tm * d.s.bm;
  c->n0 = tile.tn * d.s.bn;
  c->k_begin = c->split * k_split;
  c->k_end = c->k_begin + k_split < p->k ? c->k_begin + k_split : p->k;
  c->k_tiles = c->k_end > c->k_begin ? (int)((c->k_end - c->k_begin + d.bk - 1) / d.bk) : 0;
  return 0;
}

/* One operand's share of a stage (BlockTileLoader): K-major, rows of m (n) with 128 bytes of k;
 * MN-major, rows of k with the tile's m (n) extent. */
static void load_operand(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c,
                         const sm80_dims *d, int operand, int tid, int kt, int *access) {
  const int kmajor = operand == TG_TRACE_A ? d->a_kmajor : d->b_kmajor;
  const int extent = operand == TG_TRACE_A ? d->s.bm : d->s.bn;
  const int row_chunks = kmajor ? TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES
                                : (operand == TG_TRACE_A ? d->a_mn_chunks : d->b_mn_chunks);
  const int rows = kmajor ? extent : d->bk, per_chunk = TG_CHUNK_BYTES / d->eb;
  const int row_step = d->threads / row_chunks, per_thread = rows * row_chunks / d->threads;
  const int64_t row_step_bytes = (int64_t)row_step * row_chunks * TG_CHUNK_BYTES;
  const int64_t origin = operand == TG_TRACE_A ? c->m0 : c->n0, k0 = tg_trace_k0(t, c, kt);
  const tg_cell first = tg_sm80_copy_cell((unsigned)tid, row_chunks);
  const int64_t smem = (int64_t)(kt % d->s.stages) * d->stage_bytes +
                       (operand == TG_TRACE_B ? d->tile_a_bytes : 0) +
                       tg_sm80_swizzled_offset(first.row, first.col, row_chunks);
  for (int j = 0; j < per_thread; ++j, ++*access)
    for (int e = 0; e < per_chunk; ++e) {
      const int64_t along = first.row + (int64_t)j * row_step, across = first.col * per_chunk + e;
      const int64_t outer = origin + (kmajor ? along : across), kk = k0 + (kmajor ? across : along);
      tg_trace_put_load(out, t, c, operand, *access, operand == TG_TRACE_A ? outer : kk,
                        operand == TG_TRACE_A ? kk : outer,
                        smem + j * row_step_bytes + (int64_t)e * d->eb);
    }
}

static void loads_sm80(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                       tg_trace_list *out) {
  const sm80_dims d = dims_of(t);
  int access = 0;
  load_operand(out, t, c, &d, TG_TRACE_A, tid, kt, &access);
  load_operand(out, t, c, &d, TG_TRACE_B, tid, kt, &access);
}

/* The row address lane l gives for A's m16 tile mi (B's n16 tiles nj) at k-step ks, as the
 * kernel's warp_fragment_offsets and warp_load_fragments compute it. */
static int64_t a_address(const sm80_dims *d, int l, int warp_m, int mi, int ks) {
  if (d->a_kmajor) {
    const tg_cell q = tg_sm80_ldsm_a_kmajor(l, warp_m, d->warp_tm);
    const uint32_t fo =
        tg_sm80_swizzled_offset(q.row, q.col, TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES);
    return tg_sm80_kstep_offset(fo, ks) + (int64_t)mi * TG_SM80_MMA_M * TG_SM80_TILE_K_BYTES;
  }
  if (d->warp_tm == 64) { /* the kernel's kAMnShortcut */
    const tg_cell q = tg_sm80_ldsm_a_mn(l, 0, warp_m * d->warp_tm);
    const uint32_t fo = tg_sm80_swizzled_offset(q.row, q.col, d->a_mn_chunks);
    return (int64_t)ks * TG_SM80_MMA_M * d->a_mn_chunks * TG_CHUNK_BYTES +
           tg_sm80_mn_tile_offset(fo, mi);
  }
  const tg_cell q = tg_sm80_ldsm_a_mn(l, ks, warp_m * d->warp_tm + mi * TG_SM80_MMA_M);
  return tg_sm80_swizzled_offset(q.row, q.col, d->a_mn_chunks);
}

static int64_t b_address(const sm80_dims *d, int l, int warp_n, int nj, int ks) {
  const int n16 = PAIR * TG_SM80_MMA_N;
  if (d->b_kmajor) {
    const tg_cell q = tg_sm80_ldsm_b_kmajor(l, warp_n, d->warp_tn);
    const uint32_t fo =
        (uint32_t)d->tile_a_bytes +
        tg_sm80_swizzled_offset(q.row, q.col, TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES);
    return tg_sm80_kstep_offset(fo, ks) + (int64_t)nj * n16 * TG_SM80_TILE_K_BYTES;
  }
  if (d->warp_tn == 64) { /* kBMnShortcut */
    const tg_cell q = tg_sm80_ldsm_b_mn(l, 0, warp_n * d->warp_tn);
    const uint32_t fo =
        (uint32_t)d->tile_a_bytes + tg_sm80_swizzled_offset(q.row, q.col, d->b_mn_chunks);
    return (int64_t)ks * n16 * d->b_mn_chunks * TG_CHUNK_BYTES + tg_sm80_mn_tile_offset(fo, nj);
  }
  const tg_cell q = tg_sm80_ldsm_b_mn(l, ks, warp_n * d->warp_tn + nj * n16);
  return d->tile_a_bytes + tg_sm80_swizzled_offset(q.row, q.col, d->b_mn_chunks);
}

/* Per k-step: each m16 tile's ldmatrix.x4 of A, then each pair of n8 tiles' of B (registers
 * r0..r3, REG_BYTES / elem_bytes elements each), as the recording build lists them. */
static void fragments_sm80(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                           tg_trace_list *out) {
  const sm80_dims d = dims_of(t);
  const tg_cell w = tg_sm80_warp_cell(tid / TG_SM80_WARP, d.s.warps_n);
  const int lane = tid % TG_SM80_WARP, per_reg = REG_BYTES / d.eb;
  const int64_t stage = (int64_t)(kt % d.s.stages) * d.stage_bytes;
  int64_t addr[TG_SM80_WARP];
  int n = 0;
  for (int ks = 0; ks < d.k_steps; ++ks) {
    for (int mi = 0; mi < d.tiles_m; ++mi) {
      for (int l = 0; l < TG_SM80_WARP; ++l) addr[l] = stage + a_address(&d, l, w.row, mi, ks);
      for (int r = 0; r < LDSM_REGS; ++r)
        for (int e = 0; e < per_reg; ++e)
          tg_trace_put_fragment(out, TG_TRACE_A, n++, ks,
                                tg_trace_ldmatrix_x4(addr, lane, r, e, d.eb, !d.a_kmajor));
    }
    for (int nj = 0; nj < d.tiles_n / PAIR; ++nj) {
      for (int l = 0; l < TG_SM80_WARP; ++l) addr[l] = stage + b_address(&d, l, w.col, nj, ks);
      for (int r = 0; r < LDSM_REGS; ++r)
        for (int e = 0; e < per_reg; ++e)
          tg_trace_put_fragment(out, TG_TRACE_B, n++, ks,
                                tg_trace_ldmatrix_x4(addr, lane, r, e, d.eb, !d.b_kmajor));
    }
  }
}

/* The accumulators, staged row-major in the epilogue: tile (mi, ni), pair `half`, element e. */
static void accumulators_sm80(const tg_trace *t, const tg_trace_cta *c, int tid,
                              tg_trace_list *out) {
  const sm80_dims d = dims_of(t);
  const tg_cell w = tg_sm80_warp_cell(tid / TG_SM80_WARP, d.s.warps_n);
  const tg_cell q = tg_sm80_acc_lane_cell(tid % TG_SM80_WARP);
  int n = 0;
  for (int mi = 0; mi < d.tiles_m; ++mi)
    for (int ni = 0; ni < d.tiles_n; ++ni)
      for (int half = 0; half < PAIR; ++half)
        for (int e = 0; e < PAIR; ++e)
          tg_trace_put_accumulator(
              out, t, c, n++,
              c->m0 + w.row * d.warp_tm + mi * TG_SM80_MMA_M + q.row + HALF_ROWS * half,
              c->n0 + w.col * d.warp_tn + ni * TG_SM80_MMA_N + q.col + e);
}

/* The epilogue: segments of EPILOGUE_VECTOR columns of a row, tid + i·threads. */
static void stores_sm80(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  const sm80_dims d = dims_of(t);
  const int per_row = d.s.bn / EPILOGUE_VECTOR;
  int n = 0;
  for (int s = tid; s < d.s.bm * per_row; s += d.threads, ++n) {
    const tg_cell seg = tg_row_vector_cell(s, per_row, EPILOGUE_VECTOR);
    for (int e = 0; e < EPILOGUE_VECTOR; ++e)
      tg_trace_put_store(out, t, c, n, c->m0 + seg.row, c->n0 + seg.col + e);
  }
}

/* "stage 1, A row 9 chunk 3 (at 2) +4": the logical row and chunk a byte belongs to. */
static void smem_name_sm80(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const sm80_dims d = dims_of(t);
  const int64_t s = smem / d.stage_bytes, in = smem % d.stage_bytes;
  const int b = in >= d.tile_a_bytes, kmajor = b ? d.b_kmajor : d.a_kmajor;
  const int chunks =
      kmajor ? TG_SM80_TILE_K_BYTES / TG_CHUNK_BYTES : (b ? d.b_mn_chunks : d.a_mn_chunks);
  const int64_t at = in - (b ? d.tile_a_bytes : 0), row = at / (chunks * TG_CHUNK_BYTES);
  const int phys = (int)(at % (chunks * TG_CHUNK_BYTES) / TG_CHUNK_BYTES);
  const int logical = phys ^ (int)(row & (TG_SWIZZLE_ROWS - 1));
  snprintf(buf, len, "stage %lld, %s %s row %lld chunk %d (stored at %d)", (long long)s,
           b ? "B" : "A", kmajor ? "K-major" : "MN-major", (long long)row, logical, phys);
}

static const char k_grid_note[] =
    "x: output tiles in groups of 8 rows of tiles walked column by column, y: (batch, split) "
    "pairs";

/* ---- the table ---------------------------------------------------------------------------- */

#define ANY_ORDER ((1u << TG_ROW_MAJOR) | (1u << TG_COL_MAJOR))
#define SM80_TRACE(name_, rung_, shape_, bytes_, a_orders_, b_orders_, dtype_, acc_, summary_) \
  {                                                                                            \
    .name = (name_), .family = "sm80", .summary = (summary_), .rung = (rung_),                 \
    .block_x = APPLY(THREADS_OF, UNPAREN shape_, 1), .block_y = 1,                             \
    .tile_m = APPLY(BM_OF, UNPAREN shape_, 1), .tile_n = APPLY(BN_OF, UNPAREN shape_, 1),      \
    .tile_k = TG_SM80_TILE_K_BYTES / (bytes_), .stages = APPLY(STAGES_OF, UNPAREN shape_, 1),  \
    .elem_bytes = (bytes_), .a_orders = (a_orders_), .b_orders = (b_orders_),                  \
    .ab_dtype = (dtype_), .acc_dtype = (acc_),                                                 \
    .k_steps = TG_SM80_TILE_K_BYTES / TG_SM80_MMA_K_BYTES, .mma_fragments = 1,                 \
    .smem_base = TG_TRACE_SMEM_SHARED, .grid = grid_sm80, .grid_note = k_grid_note,            \
    .cta = cta_sm80, .loads = loads_sm80, .fragments = fragments_sm80, .stores = stores_sm80,  \
    .accumulators = accumulators_sm80, .smem_name = smem_name_sm80,                            \
  }
#define H_TRACE(name_, rung_, shape_, summary_) \
  SM80_TRACE(name_, rung_, shape_, 2, ANY_ORDER, ANY_ORDER, "bf16", NULL, summary_)
#define K_MAJOR_A (1u << TG_ROW_MAJOR)
#define K_MAJOR_B (1u << TG_COL_MAJOR)

/* In the order of k_shapes. */
const tg_trace_kernel tg_trace_sm80_kernels[] = {
    H_TRACE("sm80_128x256x64", 13, (TG_SM80_H_128X256),
            "8 warps of 64x64, 128-byte swizzled rows, ldmatrix (.trans for MN-major)"),
    H_TRACE("sm80_256x128x64", 0, (TG_SM80_H_256X128), "8 warps of 64x64"),
    H_TRACE("sm80_128x128x64", 0, (TG_SM80_H_128X128), "4 warps of 64x64, 3 stages"),
    H_TRACE("sm80_64x128x64", 0, (TG_SM80_H_64X128), "4 warps of 32x64"),
    H_TRACE("sm80_64x64x64", 0, (TG_SM80_H_64X64), "4 warps of 32x32"),
    H_TRACE("sm80_128x128x64_splitk", 0, (TG_SM80_H_128X128), "128x128 with split-K on grid y"),
    H_TRACE("sm80_64x64x64_splitk", 0, (TG_SM80_H_64X64), "64x64 with split-K on grid y"),
    SM80_TRACE("sm80_tf32_256x128x32", 0, (TG_SM80_TF32_256X128), 4, K_MAJOR_A, K_MAJOR_B, "f32",
               "tf32", "tf32 m16n8k8: one 32-bit element per fragment register"),
    SM80_TRACE("sm80_tf32_128x128x32", 0, (TG_SM80_TF32_128X128), 4, K_MAJOR_A, K_MAJOR_B, "f32",
               "tf32", "tf32, 4 warps of 64x64"),
    SM80_TRACE("sm80_tf32_64x64x32", 0, (TG_SM80_TF32_64X64), 4, K_MAJOR_A, K_MAJOR_B, "f32",
               "tf32", "tf32, 4 warps of 32x32"),
    SM80_TRACE("sm80_tf32_64x64x32_splitk", 0, (TG_SM80_TF32_64X64), 4, K_MAJOR_A, K_MAJOR_B, "f32",
               "tf32", "tf32 64x64 with split-K"),
    SM80_TRACE("sm80_s8_128x256x128", 0, (TG_SM80_S8_128X256), 1, K_MAJOR_A, K_MAJOR_B, "s8", NULL,
               "int8 m16n8k32: four elements per fragment register"),
    SM80_TRACE("sm80_s8_128x128x128", 0, (TG_SM80_S8_128X128), 1, K_MAJOR_A, K_MAJOR_B, "s8", NULL,
               "int8, 4 warps of 64x64"),
    SM80_TRACE("sm80_s8_64x64x128", 0, (TG_SM80_S8_64X64), 1, K_MAJOR_A, K_MAJOR_B, "s8", NULL,
               "int8, 4 warps of 32x32"),
    SM80_TRACE("sm80_s8_64x64x128_splitk", 0, (TG_SM80_S8_64X64), 1, K_MAJOR_A, K_MAJOR_B, "s8",
               NULL, "int8 64x64 with split-K"),
};
const int tg_trace_sm80_count =
    (int)(sizeof tg_trace_sm80_kernels / sizeof tg_trace_sm80_kernels[0]);
