/*
 * trace.c — the trace's core: element lists, the table of traced kernels, one thread's elements
 * with its fragments resolved through the CTA's staging, and the invariants the CPU tests hold
 * every traced kernel to (trace.h).
 */
#include "trace.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ladder_grid.h"
#include "trace_family.h"

/* ---- lists -------------------------------------------------------------------------------- */

void tg_trace_list_free(tg_trace_list *l) {
  free(l->v);
  memset(l, 0, sizeof *l);
}

void tg_trace_list_clear(tg_trace_list *l) {
  l->count = 0;
  l->failed = 0;
}

/* Elements a list first makes room for. */
#define TRACE_LIST_FIRST_CAP 256

void tg_trace_list_push(tg_trace_list *l, const tg_trace_elem *e) {
  if (l->count == l->cap) {
    const int cap = l->cap ? 2 * l->cap : TRACE_LIST_FIRST_CAP;
    tg_trace_elem *v = (tg_trace_elem *)realloc(l->v, (size_t)cap * sizeof *v);
    if (!v) {
      l->failed = 1;
      return;
    }
    l->v = v;
    l->cap = cap;
  }
  l->v[l->count++] = *e;
}

/* ---- the kernels -------------------------------------------------------------------------- */

typedef struct family_table {
  const tg_trace_kernel *rows;
  const int *count;
} family_table;

static const family_table k_families[] = {
    {tg_trace_simt_kernels, &tg_trace_simt_count},
    {tg_trace_ladder_kernels, &tg_trace_ladder_count},
    {tg_trace_sm80_kernels, &tg_trace_sm80_count},
    {tg_trace_f32_kernels, &tg_trace_f32_count},
    {tg_trace_sm90_kernels, &tg_trace_sm90_count},
};

const tg_trace_kernel *tg_trace_kernel_at(int i) {
  if (i < 0) return NULL;
  for (size_t f = 0; f < sizeof k_families / sizeof k_families[0]; ++f) {
    if (i < *k_families[f].count) return &k_families[f].rows[i];
    i -= *k_families[f].count;
  }
  return NULL;
}

const tg_trace_kernel *tg_trace_kernel_find(const char *name) {
  for (int i = 0; tg_trace_kernel_at(i); ++i)
    if (strcmp(tg_trace_kernel_at(i)->name, name) == 0) return tg_trace_kernel_at(i);
  return NULL;
}

void tg_trace_init(tg_trace *t, const tg_trace_kernel *k, const tg_problem *p, int splits) {
  memset(t, 0, sizeof *t);
  t->kernel = k;
  t->p = *p;
  t->splits = splits > 1 ? splits : 1;
  k->grid(t, t->grid);
}

int tg_trace_threads(const tg_trace *t) { return t->kernel->block_x * t->kernel->block_y; }

int tg_trace_cta_at(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *c) {
  if (bx >= t->grid[0] || by >= t->grid[1] || bz >= t->grid[2]) return -1;
  return t->kernel->cta(t, bx, by, bz, c);
}

/* ---- the ladder's grid (ladder_grid.h) ---------------------------------------------------- */

const char tg_trace_ladder_grid_note[] = "x: column tiles, y: row tiles, z: batches";

void tg_trace_ladder_grid(const tg_problem *p, int tile_m, int tile_n, unsigned grid[3]) {
  const tg_ladder_grid_dims g = tg_ladder_grid(p, tile_m, tile_n);
  grid[0] = g.x;
  grid[1] = g.y;
  grid[2] = g.z;
}

int tg_trace_ladder_cta(const tg_trace *t, unsigned bx, unsigned by, unsigned bz,
                        tg_trace_cta *out) {
  const tg_trace_kernel *k = t->kernel;
  const tg_ladder_tile tile = tg_ladder_block_tile(bx, by, bz, k->tile_m, k->tile_n);
  memset(out, 0, sizeof *out);
  out->bx = bx, out->by = by, out->bz = bz;
  out->bat = tile.bat;
  out->m0 = tile.m0;
  out->n0 = tile.n0;
  out->k_begin = 0;
  out->k_end = t->p.k;
  out->k_tiles = (int)((t->p.k + k->tile_k - 1) / k->tile_k);
  return 0;
}

/* ---- elements ----------------------------------------------------------------------------- */

int64_t tg_trace_offset(const tg_problem *p, int operand, int64_t bat, int64_t row, int64_t col) {
  if (row < 0 || col < 0) return -1;
  switch (operand) {
    case TG_TRACE_A:
      if (row >= p->m || col >= p->k) return -1;
      return bat * p->batch_stride_a +
             (p->a_order == TG_ROW_MAJOR ? row * p->lda + col : col * p->lda + row);
    case TG_TRACE_B:
      if (row >= p->k || col >= p->n) return -1;
      return bat * p->batch_stride_b +
             (p->b_order == TG_ROW_MAJOR ? row * p->ldb + col : col * p->ldb + row);
    default:
      if (row >= p->m || col >= p->n) return -1;
      return bat * p->batch_stride_d + row * p->ldd + col;
  }
}

int tg_trace_inside(const tg_trace *t, const tg_trace_cta *c, int operand, int64_t row,
                    int64_t col) {
  const tg_problem *p = &t->p;
  if (row < 0 || col < 0) return 0;
  if (operand == TG_TRACE_A) return row < p->m && col < c->k_end && col >= c->k_begin;
  if (operand == TG_TRACE_B) return row < c->k_end && row >= c->k_begin && col < p->n;
  return row < p->m && col < p->n;
}

int64_t tg_trace_k0(const tg_trace *t, const tg_trace_cta *c, int kt) {
  return c->k_begin + (int64_t)kt * t->kernel->tile_k;
}

/* Appends one element; offset -1 and smem -1 where the element has none. */
static void push_elem(tg_trace_list *out, int kind, int operand, int access, int step, int64_t row,
                      int64_t col, int64_t offset, int64_t smem) {
  tg_trace_elem e;
  memset(&e, 0, sizeof e);
  e.kind = kind;
  e.operand = operand;
  e.access = access;
  e.step = step;
  e.row = row;
  e.col = col;
  e.offset = offset;
  e.smem = smem;
  tg_trace_list_push(out, &e);
}

/* The offset of an operand's element of the CTA's batch, or -1 outside the matrix. */
static int64_t offset_inside(const tg_trace *t, const tg_trace_cta *c, int operand, int64_t row,
                             int64_t col) {
  return tg_trace_inside(t, c, operand, row, col)
             ? tg_trace_offset(&t->p, operand, c->bat, row, col)
             : -1;
}

void tg_trace_put_load(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c, int operand,
                       int access, int64_t row, int64_t col, int64_t smem) {
  push_elem(out, TG_TRACE_LOAD, operand, access, 0, row, col,
            offset_inside(t, c, operand, row, col), smem);
}

void tg_trace_put_fragment(tg_trace_list *out, int operand, int access, int step, int64_t smem) {
  push_elem(out, TG_TRACE_FRAGMENT, operand, access, step, -1, -1, -1, smem);
}

/* The offset of D(row, col) of the CTA's batch, or with split-K of its partial sum. */
static int64_t store_offset(const tg_trace *t, const tg_trace_cta *c, int64_t row, int64_t col) {
  const tg_problem *p = &t->p;
  if (t->splits > 1) return ((c->split * p->batch + c->bat) * p->m + row) * p->n + col;
  return tg_trace_offset(p, TG_TRACE_D, c->bat, row, col);
}

void tg_trace_put_store(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c, int access,
                        int64_t row, int64_t col) {
  if (!tg_trace_inside(t, c, TG_TRACE_D, row, col)) return;
  push_elem(out, TG_TRACE_STORE, TG_TRACE_D, access, 0, row, col, store_offset(t, c, row, col), -1);
}

void tg_trace_put_accumulator(tg_trace_list *out, const tg_trace *t, const tg_trace_cta *c,
                              int access, int64_t row, int64_t col) {
  push_elem(out, TG_TRACE_ACCUM, TG_TRACE_D, access, 0, row, col,
            offset_inside(t, c, TG_TRACE_D, row, col), -1);
}

/* Lanes of a warp, rows of an ldmatrix 8×8 matrix, and bytes of a register of it. */
#define LDSM_LANES_PER_ROW 4
#define LDSM_REG_BYTES 4
#define LDSM_HALF_BYTES 2
#define LDSM_ROWS 8

int64_t tg_trace_ldmatrix_x4(const int64_t addr[32], int lane, int reg, int e, int elem_bytes,
                             int trans) {
  const int per_row = LDSM_LANES_PER_ROW;
  if (trans)
    return addr[LDSM_ROWS * reg + (LDSM_REG_BYTES / LDSM_HALF_BYTES) * (lane % per_row) + e] +
           LDSM_HALF_BYTES * (lane / per_row);
  return addr[LDSM_ROWS * reg + lane / per_row] + LDSM_REG_BYTES * (lane % per_row) +
         elem_bytes * e;
}

/* ---- one thread --------------------------------------------------------------------------- */

/* Orders staged elements by (operand, shared-memory offset), for kernels whose operands have
 * their own arrays, or by the offset alone, for kernels with one shared base. */
static int cmp_per_operand(const void *x, const void *y) {
  const tg_trace_elem *a = (const tg_trace_elem *)x, *b = (const tg_trace_elem *)y;
  if (a->operand != b->operand) return a->operand < b->operand ? -1 : 1;
  return a->smem < b->smem ? -1 : a->smem > b->smem;
}
static int cmp_shared(const void *x, const void *y) {
  const tg_trace_elem *a = (const tg_trace_elem *)x, *b = (const tg_trace_elem *)y;
  return a->smem < b->smem ? -1 : a->smem > b->smem;
}
typedef int (*elem_cmp)(const void *, const void *);
static elem_cmp staged_order(const tg_trace *t) {
  return t->kernel->smem_base == TG_TRACE_SMEM_SHARED ? cmp_shared : cmp_per_operand;
}

int tg_trace_staged(const tg_trace *t, const tg_trace_cta *c, int kt, tg_trace_list *staged) {
  tg_trace_list one = {0};
  tg_trace_list_clear(staged);
  for (int tid = 0; tid < tg_trace_threads(t); ++tid) {
    tg_trace_list_clear(&one);
    t->kernel->loads(t, c, tid, kt, &one);
    for (int i = 0; i < one.count; ++i)
      if (one.v[i].kind == TG_TRACE_LOAD && one.v[i].smem >= 0)
        tg_trace_list_push(staged, &one.v[i]);
    if (one.failed) staged->failed = 1;
  }
  tg_trace_list_free(&one);
  if (staged->count) qsort(staged->v, (size_t)staged->count, sizeof *staged->v, staged_order(t));
  return staged->failed ? -1 : 0;
}

/* The staged element of f's operand at f's shared-memory offset, or NULL. */
static const tg_trace_elem *staged_at(const tg_trace *t, const tg_trace_list *staged,
                                      const tg_trace_elem *f) {
  const tg_trace_elem *s = (const tg_trace_elem *)bsearch(f, staged->v, (size_t)staged->count,
                                                          sizeof *staged->v, staged_order(t));
  return s && s->operand == f->operand ? s : NULL;
}

int tg_trace_thread_staged(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, int stores,
                           const tg_trace_list *staged, tg_trace_list *out) {
  const tg_trace_kernel *k = t->kernel;
  if (kt >= 0 && kt < c->k_tiles) {
    k->loads(t, c, tid, kt, out);
    const int from = out->count;
    if (k->fragments) k->fragments(t, c, tid, kt, out);
    if (out->count > from) {
      tg_trace_list own = {0};
      if (!staged && tg_trace_staged(t, c, kt, &own) != 0) out->failed = 1;
      for (int i = from; i < out->count; ++i) {
        const tg_trace_elem *s = staged_at(t, staged ? staged : &own, &out->v[i]);
        if (!s) continue; /* unresolved: row, col and offset stay -1 */
        out->v[i].row = s->row;
        out->v[i].col = s->col;
        out->v[i].offset = s->offset;
      }
      tg_trace_list_free(&own);
    }
  }
  if (stores) k->stores(t, c, tid, out);
  return out->failed ? -1 : 0;
}

int tg_trace_thread(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, int stores,
                    tg_trace_list *out) {
  return tg_trace_thread_staged(t, c, tid, kt, stores, NULL, out);
}

/* ---- invariants --------------------------------------------------------------------------- */

/* Threads of a warp. */
#define MMA_WARP 32

int tg_trace_fail(char *err, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, len, fmt, ap);
  va_end(ap);
  return -1;
}

static const char *operand_name(int operand) {
  return operand == TG_TRACE_A ? "A" : operand == TG_TRACE_B ? "B" : "D";
}

/* The k-tile's extent of operand `operand` in matrix coordinates. */
static void tile_extent(const tg_trace *t, const tg_trace_cta *c, int kt, int operand,
                        int64_t *row0, int64_t *rows, int64_t *col0, int64_t *cols) {
  const tg_trace_kernel *k = t->kernel;
  const int64_t k0 = tg_trace_k0(t, c, kt);
  if (operand == TG_TRACE_A) *row0 = c->m0, *rows = k->tile_m, *col0 = k0, *cols = k->tile_k;
  else *row0 = k0, *rows = k->tile_k, *col0 = c->n0, *cols = k->tile_n;
}

/* Staged kernels: each element of each operand's k-tile loaded once, from its own offset (or as
 * zero outside), each shared-memory offset written once. */
static int check_staging(const tg_trace *t, const tg_trace_cta *c, int kt, char *err, size_t len) {
  tg_trace_list staged = {0};
  int rc = tg_trace_staged(t, c, kt, &staged);
  if (rc != 0) rc = tg_trace_fail(err, len, "out of host memory");
  for (int i = 1; rc == 0 && i < staged.count; ++i)
    if (staged_order(t)(&staged.v[i - 1], &staged.v[i]) == 0)
      rc = tg_trace_fail(err, len, "shared-memory offset %lld of %s is written twice",
                         (long long)staged.v[i].smem, operand_name(staged.v[i].operand));
  for (int operand = TG_TRACE_A; rc == 0 && operand <= TG_TRACE_B; ++operand) {
    int64_t row0, rows, col0, cols;
    tile_extent(t, c, kt, operand, &row0, &rows, &col0, &cols);
    unsigned char *seen = (unsigned char *)calloc((size_t)(rows * cols), 1);
    if (!seen) {
      rc = tg_trace_fail(err, len, "out of host memory");
      break;
    }
    for (int i = 0; rc == 0 && i < staged.count; ++i) {
      const tg_trace_elem *e = &staged.v[i];
      if (e->operand != operand) continue;
      const int64_t r = e->row - row0, q = e->col - col0;
      if (r < 0 || r >= rows || q < 0 || q >= cols)
        rc = tg_trace_fail(err, len, "%s(%lld, %lld) is staged but lies outside the k-tile",
                           operand_name(operand), (long long)e->row, (long long)e->col);
      else if (seen[r * cols + q]++)
        rc = tg_trace_fail(err, len, "%s(%lld, %lld) is staged twice", operand_name(operand),
                           (long long)e->row, (long long)e->col);
      else if (e->offset != (tg_trace_inside(t, c, operand, e->row, e->col)
                                 ? tg_trace_offset(&t->p, operand, c->bat, e->row, e->col)
                                 : -1))
        rc = tg_trace_fail(err, len, "%s(%lld, %lld) is read from the wrong offset %lld",
                           operand_name(operand), (long long)e->row, (long long)e->col,
                           (long long)e->offset);
    }
    for (int64_t i = 0; rc == 0 && i < rows * cols; ++i)
      if (!seen[i] && !(t->kernel->stale_past_edge &&
                        !tg_trace_inside(t, c, operand, row0 + i / cols, col0 + i % cols)))
        rc = tg_trace_fail(err, len, "%s(%lld, %lld) of the k-tile is never staged",
                           operand_name(operand), (long long)(row0 + i / cols),
                           (long long)(col0 + i % cols));
    free(seen);
  }
  tg_trace_list_free(&staged);
  return rc;
}

/* 1 when v is among the `count` values of set. */
static int holds(const int64_t *set, int count, int64_t v) {
  for (int i = 0; i < count; ++i)
    if (set[i] == v) return 1;
  return 0;
}

/* Per thread and k: the operands it reads (fragments, or direct loads) cover the rows of A and
 * the columns of B of every output it stores, and nothing of another k. For kernels whose
 * threads multiply their own outputs (not mma fragments, which the warp shares). */
static int check_operands(const tg_trace *t, const tg_trace_cta *c, int kt, char *err, size_t len) {
  const tg_trace_kernel *k = t->kernel;
  const int kind = k->k_steps ? TG_TRACE_FRAGMENT : TG_TRACE_LOAD;
  const int64_t k0 = tg_trace_k0(t, c, kt);
  tg_trace_list l = {0}, staged = {0};
  int rc =
      tg_trace_staged(t, c, kt, &staged) == 0 ? 0 : tg_trace_fail(err, len, "out of host memory");
  for (int tid = 0; rc == 0 && tid < tg_trace_threads(t); ++tid) {
    tg_trace_list_clear(&l);
    if (tg_trace_thread_staged(t, c, tid, kt, 1, &staged, &l) != 0) {
      rc = tg_trace_fail(err, len, "out of host memory");
      break;
    }
    /* The outputs the thread computes: its accumulators where the kernel says (they may be
     * stored by other threads), else its stores. */
    if (k->accumulators) k->accumulators(t, c, tid, &l);
    const int outputs = k->accumulators ? TG_TRACE_ACCUM : TG_TRACE_STORE;
    for (int64_t kk = k0; rc == 0 && kk < k0 + k->tile_k && kk < c->k_end; ++kk) {
      int64_t rows[256], cols[256]; /* what the thread reads at kk */
      int nr = 0, nc = 0;
      for (int i = 0; i < l.count; ++i) {
        const tg_trace_elem *e = &l.v[i];
        if (e->kind != kind) continue;
        if (e->operand == TG_TRACE_A && e->col == kk && nr < 256) rows[nr++] = e->row;
        if (e->operand == TG_TRACE_B && e->row == kk && nc < 256) cols[nc++] = e->col;
      }
      int64_t out_rows[256], out_cols[256];
      int nor = 0, noc = 0;
      for (int i = 0; rc == 0 && i < l.count; ++i) {
        const tg_trace_elem *e = &l.v[i];
        if (e->kind != outputs) continue;
        if (nor < 256 && !holds(out_rows, nor, e->row)) out_rows[nor++] = e->row;
        if (noc < 256 && !holds(out_cols, noc, e->col)) out_cols[noc++] = e->col;
        if (!holds(rows, nr, e->row))
          rc = tg_trace_fail(
              err, len, "thread %d computes D(%lld, %lld) but reads no A(%lld, %lld)", tid,
              (long long)e->row, (long long)e->col, (long long)e->row, (long long)kk);
        else if (!holds(cols, nc, e->col))
          rc = tg_trace_fail(
              err, len, "thread %d computes D(%lld, %lld) but reads no B(%lld, %lld)", tid,
              (long long)e->row, (long long)e->col, (long long)kk, (long long)e->col);
      }
      /* With accumulators (which include the cells past D's edge) nothing else is read. */
      for (int i = 0; rc == 0 && outputs == TG_TRACE_ACCUM && i < nr; ++i)
        if (!holds(out_rows, nor, rows[i]))
          rc = tg_trace_fail(err, len,
                             "thread %d reads A(%lld, %lld), which none of its outputs needs", tid,
                             (long long)rows[i], (long long)kk);
      for (int i = 0; rc == 0 && outputs == TG_TRACE_ACCUM && i < nc; ++i)
        if (!holds(out_cols, noc, cols[i]))
          rc = tg_trace_fail(err, len,
                             "thread %d reads B(%lld, %lld), which none of its outputs needs", tid,
                             (long long)kk, (long long)cols[i]);
    }
    for (int i = 0; rc == 0 && i < l.count; ++i) {
      const tg_trace_elem *e = &l.v[i];
      const int64_t kk = e->operand == TG_TRACE_A ? e->col : e->row;
      if (e->kind == kind && e->operand != TG_TRACE_D && (kk < k0 || kk >= k0 + k->tile_k))
        rc = tg_trace_fail(err, len, "thread %d reads %s(%lld, %lld), outside k-tile %d", tid,
                           operand_name(e->operand), (long long)e->row, (long long)e->col, kt);
    }
  }
  tg_trace_list_free(&l);
  tg_trace_list_free(&staged);
  return rc;
}

/* Every fragment reads a shared-memory offset some thread staged in this k-tile. */
static int check_fragments_resolved(const tg_trace *t, const tg_trace_cta *c, int kt, char *err,
                                    size_t len) {
  tg_trace_list l = {0}, staged = {0};
  int rc =
      tg_trace_staged(t, c, kt, &staged) == 0 ? 0 : tg_trace_fail(err, len, "out of host memory");
  for (int tid = 0; rc == 0 && tid < tg_trace_threads(t); ++tid) {
    tg_trace_list_clear(&l);
    if (tg_trace_thread_staged(t, c, tid, kt, 0, &staged, &l) != 0)
      rc = tg_trace_fail(err, len, "out of host memory");
    for (int i = 0; rc == 0 && i < l.count; ++i)
      if (l.v[i].kind == TG_TRACE_FRAGMENT && l.v[i].row < 0)
        rc = tg_trace_fail(err, len,
                           "thread %d reads shared-memory offset %lld, which nobody staged", tid,
                           (long long)l.v[i].smem);
  }
  tg_trace_list_free(&l);
  tg_trace_list_free(&staged);
  return rc;
}

/* Registers an ldmatrix.x4 fills, and the bytes of one. */
#define MMA_LDSM_REGS 4
#define MMA_REG_BYTES 4
/* Rows of an m16n8 tile's half, lanes sharing a row (4t..4t+3), and columns of an n8 tile. */
#define MMA_HALF_ROWS 8
#define MMA_QUAD 4
#define MMA_N 8

/* mma.sync fragments, per warp, k step and ldmatrix.x4 (a group of 4 registers of
 * MMA_REG_BYTES / elem_bytes elements each: an m16 tile of A, or two n8 tiles of B): every
 * lane 4g+t holds, in register r and element e, the element the PTX ISA's m16n8k(16·4 / bytes)
 * layout gives it, relative to the group's first row and k. A: row g + 8·(r % 2), k
 * (r / 2)·4·epr + epr·t + e; B: k (r % 2)·4·epr + epr·t + e, column g of n8 tile r / 2. */
static int check_mma_layout(const tg_trace *t, const tg_trace_cta *c, int kt, char *err,
                            size_t len) {
  const int epr = MMA_REG_BYTES / t->kernel->elem_bytes, group = MMA_LDSM_REGS * epr;
  const int warps = tg_trace_threads(t) / MMA_WARP;
  tg_trace_list lanes[MMA_WARP], staged = {0};
  memset(lanes, 0, sizeof lanes);
  int rc =
      tg_trace_staged(t, c, kt, &staged) == 0 ? 0 : tg_trace_fail(err, len, "out of host memory");
  for (int w = 0; rc == 0 && w < warps; ++w) {
    for (int lane = 0; lane < MMA_WARP; ++lane) {
      tg_trace_list_clear(&lanes[lane]);
      tg_trace_thread_staged(t, c, w * MMA_WARP + lane, kt, 0, &staged, &lanes[lane]);
    }
    const tg_trace_elem *f0 = lanes[0].v;
    int first = 0;
    while (first < lanes[0].count && f0[first].kind != TG_TRACE_FRAGMENT) ++first;
    for (int g0 = first; rc == 0 && g0 + group <= lanes[0].count; g0 += group) {
      const int b = f0[g0].operand == TG_TRACE_B;
      int64_t outer0 = INT64_MAX, k0 = INT64_MAX;
      for (int lane = 0; lane < MMA_WARP; ++lane)
        for (int i = 0; i < group; ++i) {
          const tg_trace_elem *e = &lanes[lane].v[g0 + i];
          const int64_t outer = b ? e->col : e->row, kk = b ? e->row : e->col;
          if (outer < outer0) outer0 = outer;
          if (kk < k0) k0 = kk;
        }
      for (int lane = 0; rc == 0 && lane < MMA_WARP; ++lane)
        for (int i = 0; rc == 0 && i < group; ++i) {
          const tg_trace_elem *e = &lanes[lane].v[g0 + i];
          const int r = i / epr, x = i % epr, g = lane / MMA_QUAD, tq = lane % MMA_QUAD;
          const int64_t outer = b ? e->col : e->row, kk = b ? e->row : e->col;
          const int64_t want_outer =
              b ? outer0 + MMA_N * (r / 2) + g : outer0 + g + MMA_HALF_ROWS * (r % 2);
          const int64_t want_k = k0 + (b ? r % 2 : r / 2) * MMA_QUAD * epr + epr * tq + x;
          if (outer != want_outer || kk != want_k)
            rc = tg_trace_fail(
                err, len,
                "thread %d, k step %d: register %d element %d of %s holds (%lld, %lld), "
                "not the mma.sync layout's",
                w * MMA_WARP + lane, e->step, r, x, b ? "B" : "A", (long long)e->row,
                (long long)e->col);
        }
    }
  }
  for (int lane = 0; lane < MMA_WARP; ++lane) tg_trace_list_free(&lanes[lane]);
  tg_trace_list_free(&staged);
  return rc;
}

/* The CTA's threads' accumulators hold every element of its tile exactly once. */
static int check_accumulators(const tg_trace *t, const tg_trace_cta *c, char *err, size_t len) {
  const tg_trace_kernel *k = t->kernel;
  unsigned char *seen = (unsigned char *)calloc((size_t)k->tile_m * (size_t)k->tile_n, 1);
  if (!seen) return tg_trace_fail(err, len, "out of host memory");
  tg_trace_list l = {0};
  int rc = 0;
  for (int tid = 0; rc == 0 && tid < tg_trace_threads(t); ++tid) {
    tg_trace_list_clear(&l);
    k->accumulators(t, c, tid, &l);
    if (l.failed) rc = tg_trace_fail(err, len, "out of host memory");
    for (int i = 0; rc == 0 && i < l.count; ++i) {
      const int64_t r = l.v[i].row - c->m0, q = l.v[i].col - c->n0;
      if (r < 0 || r >= k->tile_m || q < 0 || q >= k->tile_n)
        rc = tg_trace_fail(err, len, "thread %d holds D(%lld, %lld), outside the CTA tile", tid,
                           (long long)l.v[i].row, (long long)l.v[i].col);
      else if (seen[r * k->tile_n + q]++)
        rc = tg_trace_fail(err, len, "D(%lld, %lld) is held by two accumulators",
                           (long long)l.v[i].row, (long long)l.v[i].col);
    }
  }
  for (int64_t i = 0; rc == 0 && i < (int64_t)k->tile_m * k->tile_n; ++i)
    if (!seen[i])
      rc = tg_trace_fail(err, len, "D(%lld, %lld) of the CTA tile is held by no accumulator",
                         (long long)(c->m0 + i / k->tile_n), (long long)(c->n0 + i % k->tile_n));
  tg_trace_list_free(&l);
  free(seen);
  return rc;
}

int tg_trace_check_k_tile(const tg_trace *t, const tg_trace_cta *c, int kt, char *err,
                          size_t err_len) {
  const tg_trace_kernel *k = t->kernel;
  if (k->smem_base != TG_TRACE_SMEM_NONE && check_staging(t, c, kt, err, err_len) != 0) return -1;
  if (k->k_steps && check_fragments_resolved(t, c, kt, err, err_len) != 0) return -1;
  if (!k->mma_fragments && !k->fragments_opaque && !k->smem_descriptors &&
      check_operands(t, c, kt, err, err_len) != 0)
    return -1;
  if (k->stores_opaque && kt == 0 && check_accumulators(t, c, err, err_len) != 0) return -1;
  if (k->mma_fragments && check_mma_layout(t, c, kt, err, err_len) != 0) return -1;
  return 0;
}

int tg_trace_check_stores(const tg_trace *t, char *err, size_t err_len) {
  const tg_problem *p = &t->p;
  const int64_t cells = p->m * p->n * p->batch * t->splits;
  unsigned char *seen = (unsigned char *)calloc((size_t)cells, 1);
  if (!seen) return tg_trace_fail(err, err_len, "out of host memory");
  tg_trace_list l = {0};
  int rc = 0;
  for (unsigned bz = 0; rc == 0 && bz < t->grid[2]; ++bz)
    for (unsigned by = 0; rc == 0 && by < t->grid[1]; ++by)
      for (unsigned bx = 0; rc == 0 && bx < t->grid[0]; ++bx) {
        tg_trace_cta c;
        if (tg_trace_cta_at(t, bx, by, bz, &c) != 0) continue;
        for (int tid = 0; rc == 0 && tid < tg_trace_threads(t); ++tid) {
          tg_trace_list_clear(&l);
          if (t->kernel->stores_opaque) t->kernel->accumulators(t, &c, tid, &l);
          else t->kernel->stores(t, &c, tid, &l);
          if (l.failed) rc = tg_trace_fail(err, err_len, "out of host memory");
          for (int i = 0; rc == 0 && i < l.count; ++i) {
            const tg_trace_elem *e = &l.v[i];
            if (t->kernel->stores_opaque && e->offset < 0) continue; /* past D: never stored */
            const int64_t cell = ((c.split * p->batch + c.bat) * p->m + e->row) * p->n + e->col;
            if (e->row < 0 || e->row >= p->m || e->col < 0 || e->col >= p->n)
              rc = tg_trace_fail(err, err_len,
                                 "CTA (%u,%u,%u) thread %d stores D(%lld, %lld), outside D", bx, by,
                                 bz, tid, (long long)e->row, (long long)e->col);
            else if (e->offset != store_offset(t, &c, e->row, e->col))
              rc = tg_trace_fail(err, err_len, "D(%lld, %lld) is stored at the wrong offset",
                                 (long long)e->row, (long long)e->col);
            else if (seen[cell]++)
              rc = tg_trace_fail(err, err_len, "D(%lld, %lld) of batch %lld is stored twice",
                                 (long long)e->row, (long long)e->col, (long long)c.bat);
          }
        }
      }
  for (int64_t i = 0; rc == 0 && i < cells; ++i)
    if (!seen[i])
      rc = tg_trace_fail(err, err_len, "D(%lld, %lld) of batch %lld (split %lld) is never stored",
                         (long long)(i / p->n % p->m), (long long)(i % p->n),
                         (long long)(i / (p->m * p->n) % p->batch),
                         (long long)(i / (p->m * p->n * p->batch)));
  free(seen);
  tg_trace_list_free(&l);
  return rc;
}
