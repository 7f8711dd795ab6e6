/*
 * trace_sm90.c — the trace of the sm90 family (kernels/sm90: TMA + wgmma, warp-specialized,
 * persistent, clusters of 2), for every row of sm90_configs.h, from sm90_layout.h's functions
 * (the scheduler's tile order, the k direction of a unit, the rows of a TMA box) and the same
 * numbers Sm90Config derives:
 *   - the grid: one CTA per SM (clusters of cm·cn CTAs) walking work items; a CTA's units
 *     stand on the trace's y axis (--block X,Y: CTA X's Y-th unit), which is no launch
 *     dimension;
 *   - the producer (thread 0): the TMA boxes that land in its CTA's stage for a k-tile, its own
 *     and the partner's multicast ones, each element at its 128-byte-swizzled offset;
 *   - the consumers (warpgroups 1 and 2): the wgmma descriptors of their k steps (no per-thread
 *     operand loads) and the accumulator registers of the wgmma layout.
 * Shared-memory offsets are from the kernel's 1024-byte aligned base: stage s at s · stage bytes,
 * A's tile then B's (at BM · 128 bytes). The epilogue's stores (through shared memory and TMA,
 * by epilogue set) are not traced per thread; the accumulators stand for them in the checks.
 */
#include <stdio.h>
#include <string.h>

#include "sm90.h"
#include "sm90_layout.h"
#include "trace_family.h"

/* H100's SMs, for problems that name none. */
#define DEFAULT_SMS 132
/* Units of a CTA the trace lists. */
#define UNITS_SHOWN 4

typedef struct sm90_row {
  int bm, bn, stages, cm, cn, schedule, inputs;
} sm90_row;

#define ROW_OF(fn, name, summary, bm, bn, stages, cm, cn, schedule, orders, inputs, eff, rung) \
  {bm, bn, stages, cm, cn, TG_SM90_##schedule, inputs},
static const sm90_row k_rows[] = {TG_SM90_ROWS(ROW_OF)};

/* What Sm90Config derives from a row and the operands' orders, and the launch's work. */
typedef struct sm90_dims {
  sm90_row r;
  int eb, bk, wgmma_k, k_steps, cluster, pingpong, wg_rows, row_blocks, acc;
  int tile_a_bytes, tile_b_bytes, stage_bytes, a_share, b_share, a_kmajor, b_kmajor;
  int a_rows, b_rows; /* the TMA boxes' rows (K-major), tg_sm90_box_rows */
  int64_t m_items, n_items, items, clusters, k_tiles;
} sm90_dims;

static int wgmma_k(int inputs) {
  switch (inputs) {
    case TG_SM90_SIXTEEN_BIT: return TG_SM90_WGMMA_K_16BIT;
    case TG_SM90_TF32: return TG_SM90_WGMMA_K_TF32;
    case TG_SM90_S8: return TG_SM90_WGMMA_K_S8;
    default: return TG_SM90_WGMMA_K_FP8;
  }
}

static sm90_dims dims_of(const tg_trace *t) {
  const tg_problem *p = &t->p;
  sm90_dims d;
  memset(&d, 0, sizeof d);
  d.r = k_rows[t->kernel - tg_trace_sm90_kernels];
  d.eb = t->kernel->elem_bytes;
  d.bk = TG_SM90_ROW_BYTES / d.eb;
  d.wgmma_k = wgmma_k(d.r.inputs);
  d.k_steps = d.bk / d.wgmma_k;
  d.cluster = d.r.cm * d.r.cn;
  d.pingpong = d.r.schedule == TG_SM90_PINGPONG;
  d.wg_rows = d.pingpong ? d.r.bm : d.r.bm / TG_SM90_CONSUMERS;
  d.row_blocks = d.wg_rows / TG_SM90_WGMMA_M;
  d.acc = d.r.bn / 2;
  d.tile_a_bytes = d.r.bm * TG_SM90_ROW_BYTES;
  d.tile_b_bytes = d.r.bn * TG_SM90_ROW_BYTES;
  d.stage_bytes = d.tile_a_bytes + d.tile_b_bytes;
  d.a_share = d.r.bm / d.r.cn;
  d.b_share = d.r.bn / d.r.cm;
  d.a_kmajor = p->a_order == TG_ROW_MAJOR;
  d.b_kmajor = p->b_order == TG_COL_MAJOR;
  d.a_rows = tg_sm90_box_rows(d.a_kmajor, d.r.cn, d.r.bm, p->m);
  d.b_rows = tg_sm90_box_rows(d.b_kmajor, d.r.cm, d.r.bn, p->n);
  d.m_items = ((p->m + d.r.bm - 1) / d.r.bm + d.r.cm - 1) / d.r.cm;
  d.n_items = ((p->n + d.r.bn - 1) / d.r.bn + d.r.cn - 1) / d.r.cn;
  d.items = d.m_items * d.n_items * p->batch;
  /* The launch's clusters (sm90_launch_prepare): those that fit (all of the SMs' here), or for
   * whole items no more than the rounds need. */
  int64_t fit = (p->sm_count > 0 ? p->sm_count : DEFAULT_SMS) / d.cluster;
  if (fit < 1) fit = 1;
  d.clusters =
      d.pingpong ? (d.items < fit ? d.items : fit) : tg_sm90_whole_item_clusters(d.items, fit);
  if (d.clusters < 1) d.clusters = 1;
  d.k_tiles = (p->k + d.bk - 1) / d.bk;
  return d;
}

static void grid_sm90(const tg_trace *t, unsigned g[3]) {
  const sm90_dims d = dims_of(t);
  g[0] = (unsigned)(d.clusters * d.cluster);
  g[1] = (unsigned)((d.items + d.clusters - 1) / d.clusters); /* the most units of a CTA */
  g[2] = 1;
}

/* CTA bx's unit `unit`: whole items cluster, cluster + clusters, ... (the work list's data-
 * parallel part); its tile from the scheduler's grouped order. */
static int unit_tile(const sm90_dims *d, unsigned bx, int64_t unit, int64_t *bat, int64_t *tm,
                     int64_t *tn) {
  const int64_t item = (int64_t)(bx / (unsigned)d->cluster) + unit * d->clusters;
  if (item >= d->items) return -1;
  tg_sm90_tile_coords_64((uint64_t)item, (uint64_t)d->m_items, (uint64_t)d->n_items, d->r.bm,
                         d->r.cm, d->r.cn, (int)(bx % (unsigned)d->cluster), bat, tm, tn);
  return 0;
}

static int cta_sm90(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *c) {
  const sm90_dims d = dims_of(t);
  int64_t bat, tm, tn;
  if (bz != 0 || unit_tile(&d, bx, by, &bat, &tm, &tn) != 0) return -1;
  memset(c, 0, sizeof *c);
  c->bx = bx, c->by = by, c->bz = bz;
  c->bat = bat;
  c->m0 = tm * d.r.bm;
  c->n0 = tn * d.r.bn;
  c->k_begin = 0;
  c->k_end = t->p.k;
  c->k_tiles = (int)d.k_tiles;
  return 0;
}

/* The stage k-tile kt of unit c->by lands in: the producer's fills count on over the CTA's
 * units, and every other unit loads its k-tiles from last to first. */
static int64_t fill_index(const sm90_dims *d, const tg_trace_cta *c, int kt) {
  const int back = tg_sm90_loads_k_backwards(c->by, 0, (int)d->k_tiles, (int)d->k_tiles);
  return (int64_t)c->by * d->k_tiles + (back ? d->k_tiles - 1 - kt : kt);
}
static int stage_sm90(const tg_trace *t, const tg_trace_cta *c, int kt) {
  const sm90_dims d = dims_of(t);
  return (int)(fill_index(&d, c, kt) % d.r.stages);
}

/* One TMA box that lands in a CTA's stage. */
typedef struct sm90_box {
  int operand, issuer; /* A or B; the rank of the CTA that issues it */
  int mcast;           /* multicast mask (0: a plain load) */
  int kmajor;
  int64_t coord[3]; /* tensor coordinates {inner, outer, batch} */
  int box[2];       /* box sides {inner, outer} in elements */
  int64_t dst;      /* shared-memory offset of its first byte */
} sm90_box;
#define MAX_BOXES 16

/* One operand's part of a stage issued by rank `issuer` (load_operand): K-major, one box of
 * `rows` lines at share · share_rows lines; MN-major, its 64×64 boxes. */
static int operand_boxes(sm90_box *out, const sm90_dims *d, int operand, int shared, int issuer,
                         int64_t stage, int64_t k0, int64_t outer0, int64_t bat) {
  const int a = operand == TG_TRACE_A, kmajor = a ? d->a_kmajor : d->b_kmajor;
  const int share_rows = a ? d->a_share : d->b_share, rows = a ? d->a_rows : d->b_rows;
  const int share = shared ? issuer : 0;
  const int64_t base = stage + (a ? 0 : d->tile_a_bytes);
  sm90_box b;
  memset(&b, 0, sizeof b);
  b.operand = operand, b.issuer = issuer, b.kmajor = kmajor;
  b.mcast = shared ? (1 << d->cluster) - 1 : 0;
  b.coord[2] = bat;
  if (kmajor) {
    b.coord[0] = k0, b.coord[1] = outer0 + (int64_t)share * share_rows;
    b.box[0] = d->bk, b.box[1] = rows;
    b.dst = base + (int64_t)share * share_rows * TG_SM90_ROW_BYTES;
    out[0] = b;
    return 1;
  }
  const int boxes = share_rows / TG_SM90_BOX;
  for (int j = share * boxes; j < (share + 1) * boxes; ++j) {
    b.coord[0] = outer0 + (int64_t)j * TG_SM90_BOX, b.coord[1] = k0;
    b.box[0] = TG_SM90_BOX, b.box[1] = TG_SM90_BOX;
    b.dst = base + (int64_t)j * TG_SM90_BOX_BYTES;
    out[j - share * boxes] = b;
  }
  return boxes;
}

/* The boxes that land in CTA c's stage of k-tile kt (load_stage): first those its producer
 * issues, in its order (the shared operand first), then the partners' multicast ones. */
static int stage_boxes(const tg_trace *t, const sm90_dims *d, const tg_trace_cta *c, int kt,
                       sm90_box *out) {
  const int rank = (int)(c->bx % (unsigned)d->cluster);
  const int64_t stage = (int64_t)stage_sm90(t, c, kt) * d->stage_bytes;
  const int64_t k0 = (int64_t)kt * d->bk;
  const int64_t bat_a = t->p.batch_stride_a ? c->bat : 0, bat_b = t->p.batch_stride_b ? c->bat : 0;
  int n = 0;
  for (int pass = 0; pass < d->cluster; ++pass) {
    const int issuer = pass == 0 ? rank : (rank + pass) % d->cluster;
    if (d->r.cm > 1) n += operand_boxes(out + n, d, TG_TRACE_B, 1, issuer, stage, k0, c->n0, bat_b);
    if (d->r.cn > 1 || pass == 0)
      n += operand_boxes(out + n, d, TG_TRACE_A, d->r.cn > 1, issuer, stage, k0, c->m0, bat_a);
    if (d->r.cm == 1 && pass == 0)
      n += operand_boxes(out + n, d, TG_TRACE_B, 0, issuer, stage, k0, c->n0, bat_b);
  }
  return n;
}

/* Thread 0 (the producer): every element of the boxes that land in its CTA's stage, access =
 * the box's index in stage_boxes. K-major: line = m (n), inner = k; MN-major: line = k. */
static void loads_sm90(const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                       tg_trace_list *out) {
  if (tid != 0) return;
  const sm90_dims d = dims_of(t);
  sm90_box boxes[MAX_BOXES];
  const int n = stage_boxes(t, &d, c, kt, boxes);
  for (int i = 0; i < n; ++i) {
    const sm90_box *b = &boxes[i];
    for (int line = 0; line < b->box[1]; ++line)
      for (int e = 0; e < b->box[0]; ++e) {
        const int64_t inner = b->coord[0] + e, outer = b->coord[1] + line;
        const int64_t kk = b->kmajor ? inner : outer, mn = b->kmajor ? outer : inner;
        const int64_t smem = b->dst + tg_sm90_swizzle_128b(line, e * d.eb);
        if (b->operand == TG_TRACE_A) tg_trace_put_load(out, t, c, TG_TRACE_A, i, mn, kk, smem);
        else tg_trace_put_load(out, t, c, TG_TRACE_B, i, kk, mn, smem);
      }
  }
}

/* The consumer warpgroup that holds the unit's tile, and the tile's rows it owns: cooperative,
 * both (rows [cw · wg_rows, ...)); pingpong, the unit's parity. -1: not a consumer. */
static int consumer_of(int tid) {
  return tid < TG_SM90_WARPGROUP ? -1 : tid / TG_SM90_WARPGROUP - 1;
}
static int holds_unit(const sm90_dims *d, const tg_trace_cta *c, int cw) {
  return cw >= 0 && (!d->pingpong || (int)(c->by % TG_SM90_CONSUMERS) == cw);
}

/* Register r of row block rb: the wgmma accumulator layout (tg_sm90_acc_cell). */
static void accumulators_sm90(const tg_trace *t, const tg_trace_cta *c, int tid,
                              tg_trace_list *out) {
  const sm90_dims d = dims_of(t);
  const int cw = consumer_of(tid);
  if (!holds_unit(&d, c, cw)) return;
  const int warp = tid / TG_WARP_THREADS % TG_SM90_WARPS_PER_GROUP, lane = tid % TG_WARP_THREADS;
  const int64_t row0 = c->m0 + (d.pingpong ? 0 : (int64_t)cw * d.wg_rows);
  int n = 0;
  for (int rb = 0; rb < d.row_blocks; ++rb)
    for (int r = 0; r < d.acc; ++r) {
      const tg_cell q = tg_sm90_acc_cell(warp, lane, r);
      tg_trace_put_accumulator(out, t, c, n++, row0 + rb * TG_SM90_WGMMA_M + q.row, c->n0 + q.col);
    }
}

/* The epilogue leaves through shared memory (TMA stores, by epilogue set): not per thread. */
static void stores_sm90(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out) {
  (void)t, (void)c, (void)tid, (void)out;
}

/* "stage 1, B line 9 (n 9) chunk 3 (stored at 2)": the box line and chunk a byte belongs to. */
static void smem_name_sm90(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len) {
  const sm90_dims d = dims_of(t);
  const int64_t s = smem / d.stage_bytes, in = smem % d.stage_bytes;
  const int b = in >= d.tile_a_bytes, kmajor = b ? d.b_kmajor : d.a_kmajor;
  const int64_t at = in - (b ? d.tile_a_bytes : 0), line = at / TG_SM90_ROW_BYTES;
  const int phys = (int)(at % TG_SM90_ROW_BYTES / TG_SM90_SWIZZLE_CHUNK);
  const int logical = phys ^ (int)(line % TG_SM90_SWIZZLE_ROWS);
  (void)operand;
  if (kmajor)
    snprintf(buf, len, "stage %lld, %s line %lld chunk %d (stored at %d)", (long long)s,
             b ? "B" : "A", (long long)line, logical, phys);
  else
    snprintf(buf, len, "stage %lld, %s box %lld k-line %lld chunk %d (stored at %d)", (long long)s,
             b ? "B" : "A", (long long)(line / TG_SM90_BOX), (long long)(line % TG_SM90_BOX),
             logical, phys);
}

/* ---- what the thread's role is ------------------------------------------------------------ */

static void print_units(FILE *f, const sm90_dims *d, const tg_trace_cta *c) {
  const int rank = (int)(c->bx % (unsigned)d->cluster);
  fprintf(f,
          "persistent: %lld cluster%s of %d CTA%s walk %lld work items (a cluster's %dx%d "
          "tiles) in the scheduler's grouped order (tg_sm90_tile_coords: groups of %d rows of "
          "D sweeping the columns, alternately left to right and back); cluster c takes items "
          "c, c + %lld, ...\n",
          (long long)d->clusters, d->clusters == 1 ? "" : "s", d->cluster,
          d->cluster == 1 ? "" : "s", (long long)d->items, d->r.cm, d->r.cn, TG_SM90_GROUP_ROWS,
          (long long)d->clusters);
  fprintf(f,
          "  assumed: whole items, on all the SMs' clusters (the launch takes those that fit); "
          "stream-K (cooperative rows: the last waves' k-tiles shared among clusters, decided "
          "at launch by sm90_split from the clusters that fit, the workspace and the sync flags) "
          "is not traced\n");
  fprintf(f, "CTA %u = cluster %u rank %d; its units (--block %u,Y):\n", c->bx,
          c->bx / (unsigned)d->cluster, rank, c->bx);
  for (int64_t u = 0; u < UNITS_SHOWN || u == c->by; ++u) {
    int64_t bat, tm, tn;
    if (unit_tile(d, c->bx, u, &bat, &tm, &tn) != 0) break;
    if (u >= UNITS_SHOWN && u != c->by) continue;
    const int back = tg_sm90_loads_k_backwards((uint32_t)u, 0, (int)d->k_tiles, (int)d->k_tiles);
    fprintf(f,
            "  %c unit %lld: item %lld -> batch %lld, tile (%lld, %lld): rows %lld.., "
            "columns %lld.., k-tiles loaded %s",
            u == c->by ? '>' : ' ', (long long)u,
            (long long)(c->bx / (unsigned)d->cluster + u * d->clusters), (long long)bat,
            (long long)tm, (long long)tn, (long long)(tm * d->r.bm), (long long)(tn * d->r.bn),
            back ? "last to first" : "first to last");
    if (d->pingpong) fprintf(f, ", consumer warpgroup %lld", (long long)(u % TG_SM90_CONSUMERS));
    fputc('\n', f);
  }
}

static void print_producer(FILE *f, const tg_trace *t, const sm90_dims *d, const tg_trace_cta *c,
                           int kt) {
  sm90_box boxes[MAX_BOXES];
  const int n = stage_boxes(t, d, c, kt, boxes);
  const int rank = (int)(c->bx % (unsigned)d->cluster);
  const int64_t bytes = (int64_t)(d->a_rows * d->r.cn + d->b_rows * d->r.cm) * TG_SM90_ROW_BYTES;
  fprintf(f,
          "\nproducer thread (warpgroup 0, thread 0): k-tile %d is fill %lld of this CTA, stage "
          "%d at smem %lld; it waits for the stage's empty barrier, arms its full barrier for "
          "%lld bytes, and these boxes land in it:\n",
          kt, (long long)fill_index(d, c, kt), stage_sm90(t, c, kt),
          (long long)stage_sm90(t, c, kt) * d->stage_bytes, (long long)bytes);
  for (int i = 0; i < n; ++i) {
    const sm90_box *b = &boxes[i];
    const int a = b->operand == TG_TRACE_A;
    const char *outer = a ? "m" : "n";
    fprintf(f, "  #%d %s %s box %s %d x %s %d at {%s %lld, %s %lld, batch %lld} -> smem %lld", i,
            a ? "A" : "B", b->kmajor ? "K-major" : "MN-major", b->kmajor ? "k" : outer, b->box[0],
            b->kmajor ? outer : "k", b->box[1], b->kmajor ? "k" : outer, (long long)b->coord[0],
            b->kmajor ? outer : "k", (long long)b->coord[1], (long long)b->coord[2],
            (long long)b->dst);
    if (b->mcast && b->issuer == rank)
      fprintf(f, ", multicast mask 0x%x (this CTA's share, also into its partner's stage)",
              (unsigned)b->mcast);
    else if (b->mcast)
      fprintf(f, ", issued by rank %d, multicast mask 0x%x", b->issuer, (unsigned)b->mcast);
    fputc('\n', f);
  }
  if (n > 0) { /* where the first 16 bytes of box #0's first lines go */
    const sm90_box *b = &boxes[0];
    fprintf(f, "  e.g. box #0, its first %d elements of line y (%s) ->",
            TG_SM90_SWIZZLE_CHUNK / d->eb, b->kmajor ? "a row of the tile" : "a k of the tile");
    for (int y = 0; y < TG_SM90_SWIZZLE_ROWS && y < b->box[1]; ++y)
      fprintf(f, " y%d: %lld", y, (long long)(b->dst + tg_sm90_swizzle_128b(y, 0)));
    fputc('\n', f);
  }
  fprintf(f,
          "  128-byte swizzle: byte x of box line y lands at dst + 128·y + 16·((x / 16) XOR "
          "(y %% 8)) + x %% 16 (tg_sm90_swizzle_128b); past the matrix the copy engine "
          "writes zeros%s\n",
          d->a_rows < d->a_share || d->b_rows < d->b_share
              ? ", and a box cut to the rows that exist (tg_sm90_box_rows) leaves the tile's "
                "last rows stale"
              : "");
}

static void print_consumer(FILE *f, const sm90_dims *d, const tg_trace_cta *c, int tid, int kt,
                           int stage) {
  const int cw = consumer_of(tid);
  const int warp = tid / TG_WARP_THREADS % TG_SM90_WARPS_PER_GROUP;
  fprintf(f, "\nconsumer warpgroup %d (cw %d), its warp %d, lane %d: ", cw + 1, cw, warp,
          tid % TG_WARP_THREADS);
  if (!holds_unit(d, c, cw)) {
    fprintf(f, "pingpong: this unit's tile is its partner's; it skips these stages\n");
    return;
  }
  const int rows0 = d->pingpong ? 0 : cw * d->wg_rows;
  fprintf(f, "%s rows %d..%d of the tile, %d row block%s of m64n%dk%d wgmma per k step\n",
          d->pingpong ? "pingpong, the whole tile:" : "cooperative,", rows0, rows0 + d->wg_rows - 1,
          d->row_blocks, d->row_blocks == 1 ? "" : "s", d->r.bn, d->wgmma_k);
  const int a_step = d->a_kmajor ? d->wgmma_k * d->eb : d->wgmma_k * TG_SM90_ROW_BYTES;
  const int b_step = d->b_kmajor ? d->wgmma_k * d->eb : d->wgmma_k * TG_SM90_ROW_BYTES;
  const int64_t s0 = (int64_t)stage * d->stage_bytes;
  fprintf(f,
          "  wgmma reads A and B from shared memory through descriptors, so the thread loads no "
          "operand: 128-byte swizzle, leading byte offset %d, stride byte offset %d; k-tile %d "
          "(stage %d):\n",
          TG_SM90_BOX_BYTES, TG_SM90_SWIZZLE_ATOM, kt, stage);
  for (int ks = 0; ks < d->k_steps; ++ks) {
    fprintf(f, "    k step %d:", ks);
    for (int rb = 0; rb < d->row_blocks; ++rb)
      fprintf(f, " A rows %d.. at smem %lld,", rows0 + rb * TG_SM90_WGMMA_M,
              (long long)(s0 + (int64_t)(rows0 + rb * TG_SM90_WGMMA_M) * TG_SM90_ROW_BYTES +
                          (int64_t)ks * a_step));
    fprintf(f, " B at smem %lld\n", (long long)(s0 + d->tile_a_bytes + (int64_t)ks * b_step));
  }
  fprintf(f,
          "  accumulators: register r of row block rb holds tile row %d + 64·rb + 16·warp + lane/4 "
          "+ 8·((r/2)%%2), column 8·(r/4) + 2·(lane%%4) + r%%2 (tg_sm90_acc_cell), %d "
          "registers per block\n",
          rows0, d->acc);
}

static void notes_sm90(FILE *f, const tg_trace *t, const tg_trace_cta *c, int tid, int kt) {
  const sm90_dims d = dims_of(t);
  print_units(f, &d, c);
  if (tid == 0) print_producer(f, t, &d, c, kt);
  else if (tid < TG_SM90_WARPGROUP)
    fprintf(f,
            "\nproducer warpgroup, thread %d: idle (only thread 0 issues TMA; the warpgroup "
            "gives its registers to the consumers)\n",
            tid);
  else print_consumer(f, &d, c, tid, kt, stage_sm90(t, c, kt));
  fprintf(f,
          "  the epilogue stores D from the consumers' accumulators through shared memory (TMA "
          "stores, or plain ones, by epilogue set: sm90_epilogue_sets.cuh): not traced per "
          "thread\n");
}

static const char k_grid_note[] =
    "persistent: x the CTAs, one per SM in clusters along x; y no launch dimension but a CTA's "
    "units in the scheduler's order";

/* ---- the table ---------------------------------------------------------------------------- */

#define ANY_ORDER ((1u << TG_ROW_MAJOR) | (1u << TG_COL_MAJOR))
#define K_MAJOR_A (1u << TG_ROW_MAJOR)
#define K_MAJOR_B (1u << TG_COL_MAJOR)
#define BYTES_OF(inputs) ((inputs) == TG_SM90_SIXTEEN_BIT ? 2 : (inputs) == TG_SM90_TF32 ? 4 : 1)
#define DTYPE_OF(inputs)                    \
  ((inputs) == TG_SM90_SIXTEEN_BIT ? "bf16" \
   : (inputs) == TG_SM90_TF32      ? "f32"  \
   : (inputs) == TG_SM90_S8        ? "s8"   \
                                   : "e4m3")
#define SM90_TRACE(fn, name_, summary_, bm, bn, stages_, cm, cn, schedule, orders, inputs, eff, \
                   rung_)                                                                       \
  {.name = (name_),                                                                             \
   .family = "sm90",                                                                            \
   .summary = (summary_),                                                                       \
   .rung = (rung_),                                                                             \
   .block_x = TG_SM90_WARPGROUP * (TG_SM90_CONSUMERS + 1),                                      \
   .block_y = 1,                                                                                \
   .tile_m = (bm),                                                                              \
   .tile_n = (bn),                                                                              \
   .tile_k = TG_SM90_ROW_BYTES / BYTES_OF(inputs),                                              \
   .stages = (stages_),                                                                         \
   .elem_bytes = BYTES_OF(inputs),                                                              \
   .a_orders = (orders) == TG_SM90_ANY_ORDER ? ANY_ORDER : K_MAJOR_A,                           \
   .b_orders = (orders) == TG_SM90_ANY_ORDER ? ANY_ORDER : K_MAJOR_B,                           \
   .ab_dtype = DTYPE_OF(inputs),                                                                \
   .acc_dtype = (inputs) == TG_SM90_TF32 ? "tf32" : NULL,                                       \
   .smem_descriptors = 1,                                                                       \
   .stores_opaque = 1,                                                                          \
   .stale_past_edge = 1,                                                                        \
   .smem_base = TG_TRACE_SMEM_SHARED,                                                           \
   .grid = grid_sm90,                                                                           \
   .grid_note = k_grid_note,                                                                    \
   .cta = cta_sm90,                                                                             \
   .loads = loads_sm90,                                                                         \
   .stores = stores_sm90,                                                                       \
   .accumulators = accumulators_sm90,                                                           \
   .smem_name = smem_name_sm90,                                                                 \
   .stage = stage_sm90,                                                                         \
   .notes = notes_sm90},

/* In the order of k_rows. */
const tg_trace_kernel tg_trace_sm90_kernels[] = {TG_SM90_ROWS(SM90_TRACE)};
const int tg_trace_sm90_count =
    (int)(sizeof tg_trace_sm90_kernels / sizeof tg_trace_sm90_kernels[0]);
