/*
 * trace_print.c — what `tilegemm trace` prints: the launch, the CTA, the thread, then the
 * elements it loads, reads into registers, holds in accumulators and stores, as runs of
 * consecutive elements, and pictures of the tiles and of shared memory with its cells marked.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "trace_family.h"

#define WARP_THREADS 32
/* The largest picture: characters per line and lines. */
#define PICTURE_COLS 64
#define PICTURE_ROWS 32
/* Shared-memory pictures: one character per 16-byte chunk, 128 bytes per line, at most this many
 * lines. */
#define SMEM_CHUNK_BYTES 16
#define SMEM_LINE_BYTES 128
#define SMEM_PICTURE_LINES 64
/* Width a wrapped line of runs may reach. */
#define LINE_WIDTH 100

static const char *operand_name(int operand) {
  return operand == TG_TRACE_A ? "A" : operand == TG_TRACE_B ? "B" : "D";
}

/* "a..b", or "a" when they are equal. */
static void range_text(char *buf, size_t len, int64_t a, int64_t b) {
  if (a == b) snprintf(buf, len, "%lld", (long long)a);
  else snprintf(buf, len, "%lld..%lld", (long long)a, (long long)b);
}

/* The length of the run of elements from v[i]: same kind, operand, access and step, one of row
 * or column fixed and the other counting up by one. */
static int run_length(const tg_trace_elem *v, int count, int i) {
  int n = 1;
  for (; i + n < count; ++n) {
    const tg_trace_elem *a = &v[i + n - 1], *b = &v[i + n];
    if (b->kind != a->kind || b->operand != a->operand || b->step != a->step) break;
    const int along_col = b->row == v[i].row && b->col == a->col + 1;
    const int along_row = b->col == v[i].col && b->row == a->row + 1;
    if (!(n == 1 ? along_col || along_row : (v[i + 1].row == v[i].row ? along_col : along_row)))
      break;
  }
  return n;
}

/* "A(r, c0..c1)" of a run. */
static void run_text(char *buf, size_t len, const tg_trace_elem *v, int n) {
  char r[48], c[48];
  range_text(r, sizeof r, v[0].row, v[n - 1].row);
  range_text(c, sizeof c, v[0].col, v[n - 1].col);
  snprintf(buf, len, "%s(%s, %s)", operand_name(v[0].operand), r, c);
}

/* Prints the elements of v as runs after `lead`, wrapping with `indent`; with t, each run read
 * from shared memory also says where (the kernel's name of its first element). */
static void print_runs(FILE *f, const tg_trace *t, const char *lead, const char *indent,
                       const tg_trace_elem *v, int count) {
  int col = fprintf(f, "%s", lead);
  for (int i = 0; i < count;) {
    const int n = run_length(v, count, i);
    char text[320];
    run_text(text, sizeof text, v + i, n);
    if (t && t->kernel->smem_name && v[i].smem >= 0) {
      char first[80], last[80];
      t->kernel->smem_name(t, v[i].operand, v[i].smem, first, sizeof first);
      t->kernel->smem_name(t, v[i].operand, v[i + n - 1].smem, last, sizeof last);
      snprintf(text + strlen(text), sizeof text - strlen(text), " from %s%s%s", first,
               n > 1 ? ".." : "", n > 1 ? last : "");
    }
    if (col + (int)strlen(text) + 1 > LINE_WIDTH && col > (int)strlen(indent))
      col = fprintf(f, "\n%s", indent) - 1;
    col += fprintf(f, " %s", text);
    i += n;
  }
  fputc('\n', f);
}

/* Offsets listed one by one up to this many elements; past it, the range they permute. */
#define SMEM_LISTED 16

/* Where n elements land: "registers", or their shared-memory byte offsets (a range when they
 * are consecutive elements, or many permuted ones: a whole swizzled box) and the kernel's name
 * of the first and last. */
static void smem_text(char *buf, size_t len, const tg_trace *t, const tg_trace_elem *e, int n) {
  if (e->smem < 0) {
    snprintf(buf, len, "registers");
    return;
  }
  const int64_t step = n > 1 ? e[1].smem - e[0].smem : 0;
  int consecutive = n > 1 && step == t->kernel->elem_bytes;
  for (int j = 1; j < n; ++j) consecutive &= e[j].smem - e[j - 1].smem == step;
  size_t used = 0;
  int64_t lo = e[0].smem, hi = e[0].smem;
  for (int j = 1; j < n; ++j) {
    if (e[j].smem < lo) lo = e[j].smem;
    if (e[j].smem > hi) hi = e[j].smem;
  }
  if (consecutive)
    used = (size_t)snprintf(buf, len, "smem %lld..%lld", (long long)e[0].smem,
                            (long long)(e[n - 1].smem + step - 1));
  else if (n > SMEM_LISTED)
    used = (size_t)snprintf(buf, len, "smem %lld..%lld, permuted", (long long)lo,
                            (long long)(hi + t->kernel->elem_bytes - 1));
  else {
    used = (size_t)snprintf(buf, len, "smem");
    for (int j = 0; j < n && used < len; ++j)
      used +=
          (size_t)snprintf(buf + used, len - used, "%s%lld", j ? "," : " ", (long long)e[j].smem);
  }
  if (t->kernel->smem_name && used < len) {
    char first[80], last[80];
    t->kernel->smem_name(t, e->operand, e[0].smem, first, sizeof first);
    t->kernel->smem_name(t, e->operand, e[n - 1].smem, last, sizeof last);
    if (consecutive || n == 1) snprintf(buf + used, len - used, "  %s", first);
    else snprintf(buf + used, len - used, "  %s .. %s", first, last);
  }
}

/* One line per load instruction: the elements, where they come from, where they land. */
static void print_loads(FILE *f, const tg_trace *t, const tg_trace_elem *v, int count) {
  for (int i = 0; i < count;) {
    int n = 1;
    while (i + n < count && v[i + n].access == v[i].access) ++n;
    const tg_trace_elem *e = v + i;
    char what[128], from[96], to[256];
    run_text(what, sizeof what, e, run_length(e, n, 0) == n ? n : 1);
    int64_t r0 = e->row, r1 = e->row, c0 = e->col, c1 = e->col;
    for (int j = 1; j < n; ++j) {
      r0 = e[j].row < r0 ? e[j].row : r0, r1 = e[j].row > r1 ? e[j].row : r1;
      c0 = e[j].col < c0 ? e[j].col : c0, c1 = e[j].col > c1 ? e[j].col : c1;
    }
    if (run_length(e, n, 0) != n && (r1 - r0 + 1) * (c1 - c0 + 1) == n) { /* a whole block */
      char r[48], c[48];
      range_text(r, sizeof r, r0, r1);
      range_text(c, sizeof c, c0, c1);
      snprintf(what, sizeof what, "%s(%s, %s)", operand_name(e->operand), r, c);
    } else if (run_length(e, n, 0) != n)
      snprintf(what + strlen(what), sizeof what - strlen(what), " ...");
    int read = 0;
    for (int j = 0; j < n; ++j) read += e[j].offset >= 0;
    if (read == 0) snprintf(from, sizeof from, "zeros (outside the matrix)");
    else {
      int64_t lo = -1, hi = -1;
      for (int j = 0; j < n; ++j)
        if (e[j].offset >= 0) {
          if (lo < 0 || e[j].offset < lo) lo = e[j].offset;
          if (e[j].offset > hi) hi = e[j].offset;
        }
      char r[48];
      range_text(r, sizeof r, lo, hi);
      snprintf(from, sizeof from, "%s[%s]%s", operand_name(e->operand), r,
               read < n ? " + zeros" : "");
    }
    smem_text(to, sizeof to, t, e, n);
    fprintf(f, "  #%-3d %-24s <- %-30s -> %s\n", e->access, what, from, to);
    i += n;
  }
}

/* 1 when element b is element a of a k step `ds` later: the same row of A (column of B) at
 * k + ds. */
static int same_at_next_k(const tg_trace_elem *a, const tg_trace_elem *b, int ds) {
  if (a->operand != b->operand) return 0;
  if (a->operand == TG_TRACE_A) return b->row == a->row && b->col == a->col + ds;
  return b->col == a->col && b->row == a->row + ds;
}

/* The operands a thread reads, one line per k step and operand; when every k step reads what the
 * first does at its own k, the first step alone and a line saying so. */
static void print_operands(FILE *f, const tg_trace *t, const tg_trace_elem *v, int count) {
  int first = 0;
  while (first < count && v[first].step == v[0].step) ++first;
  int alike = first > 0 && count % first == 0 && count > first;
  for (int i = first; alike && i < count; ++i)
    alike = v[i].step == v[i - first].step + 1 && same_at_next_k(&v[i - first], &v[i], 1);
  const int shown = alike ? first : count;
  for (int i = 0; i < shown;) {
    int n = 1;
    while (i + n < shown && v[i + n].step == v[i].step && v[i + n].operand == v[i].operand) ++n;
    char lead[48];
    snprintf(lead, sizeof lead, "  k step %2d %s:", v[i].step, operand_name(v[i].operand));
    print_runs(f, t, lead, "               ", v + i, n);
    i += n;
  }
  if (alike)
    fprintf(f, "  k steps %d..%d: the same rows of A and columns of B, at k + step\n",
            v[0].step + 1, v[count - 1].step);
}

/* mma.sync fragments, one ldmatrix.x4 per line: its four registers r0..r3 of 4 / elem_bytes
 * elements each (an m16 tile of A: a0..a3; two n8 tiles of B: b0, b1 of the first, then of the
 * second). */
#define LDSM_REGS 4
#define REG_BYTES 4
static void print_ldmatrix(FILE *f, const tg_trace *t, const tg_trace_elem *v, int count) {
  const int per_reg = REG_BYTES / t->kernel->elem_bytes, group_elems = LDSM_REGS * per_reg;
  for (int i = 0, group = 0; i + group_elems <= count; i += group_elems) {
    const tg_trace_elem *e = v + i;
    group = i && (e->step != e[-1].step || e->operand != e[-1].operand) ? 0 : group;
    if (e->operand == TG_TRACE_A) fprintf(f, "  k step %d, A m16 tile %d:", e->step, group);
    else fprintf(f, "  k step %d, B n8 tiles %d,%d:", e->step, 2 * group, 2 * group + 1);
    for (int r = 0; r < LDSM_REGS; ++r) {
      char text[128];
      const int n = run_length(e + r * per_reg, per_reg, 0);
      run_text(text, sizeof text, e + r * per_reg, n);
      fprintf(f, "  r%d %s%s", r, text, n < per_reg ? " ..." : "");
    }
    fputc('\n', f);
    ++group;
  }
}

/* ---- pictures ----------------------------------------------------------------------------- */

/* A picture of rows × cols elements at (row0, col0), cells of ch × cw elements. Each cell shows
 * the strongest mark of its elements: '#' the thread, '+' another lane of its warp, '.' another
 * thread, ':' outside the matrix, ' ' nobody. */
typedef struct picture {
  int64_t row0, col0, rows, cols;
  int ch, cw, lines, width;
  char cell[PICTURE_ROWS][PICTURE_COLS + 1];
} picture;

static void picture_init(picture *pic, int64_t row0, int64_t col0, int64_t rows, int64_t cols) {
  memset(pic, 0, sizeof *pic);
  pic->row0 = row0, pic->col0 = col0, pic->rows = rows, pic->cols = cols;
  pic->ch = (int)((rows + PICTURE_ROWS - 1) / PICTURE_ROWS);
  pic->cw = (int)((cols + PICTURE_COLS - 1) / PICTURE_COLS);
  pic->lines = (int)((rows + pic->ch - 1) / pic->ch);
  pic->width = (int)((cols + pic->cw - 1) / pic->cw);
  for (int i = 0; i < pic->lines; ++i) memset(pic->cell[i], ' ', (size_t)pic->width);
}

static int mark_rank(char c) {
  return c == '#' ? 4 : c == '+' ? 3 : c == '.' ? 2 : c == ':' ? 1 : 0;
}

static void picture_mark(picture *pic, int64_t row, int64_t col, char mark) {
  const int64_t r = row - pic->row0, c = col - pic->col0;
  if (r < 0 || c < 0 || r >= pic->rows || c >= pic->cols) return;
  char *cell = &pic->cell[r / pic->ch][c / pic->cw];
  if (mark_rank(mark) > mark_rank(*cell)) *cell = mark;
}

static void picture_print(FILE *f, const picture *pic, const char *title) {
  fprintf(f, "\n%s (one character per %d x %d elements; rows %lld.., columns %lld..)\n", title,
          pic->ch, pic->cw, (long long)pic->row0, (long long)pic->col0);
  for (int i = 0; i < pic->lines; ++i) fprintf(f, "  |%s|\n", pic->cell[i]);
}

/* The mark thread `other` earns next to thread `tid`. */
static char mark_of(int tid, int other) {
  return other == tid ? '#' : other / WARP_THREADS == tid / WARP_THREADS ? '+' : '.';
}

/* Marks every element of `kind` and `operand` the CTA's threads move (k-tile kt; kt < 0: the
 * stores). Elements outside the matrix mark ':' unless the thread's warp moves them. */
static void mark_cta(picture *pic, const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                     int kind, int operand) {
  tg_trace_list l = {0};
  for (int other = 0; other < tg_trace_threads(t); ++other) {
    tg_trace_list_clear(&l);
    if (kind == TG_TRACE_ACCUM) t->kernel->accumulators(t, c, other, &l);
    else tg_trace_thread(t, c, other, kt, kind == TG_TRACE_STORE, &l);
    for (int i = 0; i < l.count; ++i) {
      const tg_trace_elem *e = &l.v[i];
      if (e->kind != kind || e->operand != operand) continue;
      const char m = mark_of(tid, other);
      const int outside = kind == TG_TRACE_LOAD ? e->offset < 0 : 0;
      picture_mark(pic, e->row, e->col, outside && m == '.' ? ':' : m);
    }
  }
  tg_trace_list_free(&l);
}

/* Shared memory of `operand` in k-tile kt as 128-byte lines of 16-byte chunks. */
static void print_smem_picture(FILE *f, const tg_trace *t, const tg_trace_cta *c, int tid, int kt,
                               int operand) {
  tg_trace_list l = {0};
  int64_t lo = -1, hi = -1;
  char lines[SMEM_PICTURE_LINES][SMEM_LINE_BYTES / SMEM_CHUNK_BYTES + 1];
  memset(lines, 0, sizeof lines);
  for (int pass = 0; pass < 2; ++pass)
    for (int other = 0; other < tg_trace_threads(t); ++other) {
      tg_trace_list_clear(&l);
      t->kernel->loads(t, c, other, kt, &l);
      for (int i = 0; i < l.count; ++i) {
        const tg_trace_elem *e = &l.v[i];
        if (e->kind != TG_TRACE_LOAD || e->operand != operand || e->smem < 0) continue;
        if (pass == 0) {
          if (lo < 0 || e->smem < lo) lo = e->smem;
          if (e->smem > hi) hi = e->smem;
          continue;
        }
        const int64_t line = (e->smem - lo) / SMEM_LINE_BYTES;
        if (line >= SMEM_PICTURE_LINES) continue;
        char *cell = &lines[line][(e->smem - lo) % SMEM_LINE_BYTES / SMEM_CHUNK_BYTES];
        const char m = mark_of(tid, other);
        if (mark_rank(m) > mark_rank(*cell)) *cell = m;
      }
    }
  tg_trace_list_free(&l);
  if (lo < 0) return;
  lo -= lo % SMEM_LINE_BYTES;
  const int64_t count = (hi - lo) / SMEM_LINE_BYTES + 1;
  fprintf(f,
          "\nshared memory of %s, k-tile %d: bytes %lld.., a line per 128 bytes, a character "
          "per 16-byte chunk%s\n",
          operand_name(operand), kt, (long long)lo,
          count > SMEM_PICTURE_LINES ? " (first lines)" : "");
  for (int64_t i = 0; i < count && i < SMEM_PICTURE_LINES; ++i) {
    for (int j = 0; j < SMEM_LINE_BYTES / SMEM_CHUNK_BYTES; ++j)
      if (!lines[i][j]) lines[i][j] = ' ';
    fprintf(f, "  %6lld |%s|\n", (long long)(lo + i * SMEM_LINE_BYTES), lines[i]);
  }
}

/* Where the warp's first ldmatrix.x4 (A's first m16 tile, the k-tile's first k step) reads: each
 * 16-byte chunk marked with the register (0-3) of the 8x8 matrix whose row lies there, so the
 * 8 rows of one matrix show in 8 different chunk positions of their 128-byte lines (all 32
 * banks) when the tile is swizzled. */
static void print_ldmatrix_picture(FILE *f, const tg_trace *t, const tg_trace_cta *c, int tid,
                                   int kt) {
  const int per_reg = REG_BYTES / t->kernel->elem_bytes, group = LDSM_REGS * per_reg;
  const int line_chunks = SMEM_LINE_BYTES / SMEM_CHUNK_BYTES;
  const int warp0 = tid / WARP_THREADS * WARP_THREADS;
  int64_t lo = -1, hi = -1;
  int64_t chunk[WARP_THREADS][LDSM_REGS * REG_BYTES];
  tg_trace_list l = {0};
  for (int lane = 0; lane < WARP_THREADS; ++lane) {
    tg_trace_list_clear(&l);
    t->kernel->fragments(t, c, warp0 + lane, kt, &l);
    for (int i = 0; i < group && l.count >= group; ++i) {
      chunk[lane][i] = l.v[i].smem / SMEM_CHUNK_BYTES;
      if (lo < 0 || chunk[lane][i] < lo) lo = chunk[lane][i];
      if (chunk[lane][i] > hi) hi = chunk[lane][i];
    }
  }
  tg_trace_list_free(&l);
  if (lo < 0) return;
  lo -= lo % line_chunks;
  const int64_t lines = (hi - lo) / line_chunks + 1;
  if (lines > SMEM_PICTURE_LINES) return;
  char pic[SMEM_PICTURE_LINES][SMEM_LINE_BYTES / SMEM_CHUNK_BYTES + 1];
  for (int64_t i = 0; i < lines; ++i) {
    memset(pic[i], '.', (size_t)line_chunks);
    pic[i][line_chunks] = '\0';
  }
  for (int lane = 0; lane < WARP_THREADS; ++lane)
    for (int i = 0; i < group; ++i)
      pic[(chunk[lane][i] - lo) / line_chunks][(chunk[lane][i] - lo) % line_chunks] =
          (char)('0' + i / per_reg);
  fprintf(f,
          "\nshared memory the warp's first ldmatrix.x4 reads (A, m16 tile 0, k step 0): a line "
          "per 128 bytes, each chunk marked with the matrix (register r0-r3) that reads it\n");
  for (int64_t i = 0; i < lines; ++i)
    fprintf(f, "  %6lld |%s|\n", (long long)((lo + i * line_chunks) * SMEM_CHUNK_BYTES), pic[i]);
}

static void print_pictures(FILE *f, const tg_trace *t, const tg_trace_cta *c, int tid, int kt) {
  const tg_trace_kernel *k = t->kernel;
  const int64_t k0 = tg_trace_k0(t, c, kt);
  picture pic;
  fprintf(f,
          "\nmarks: '#' this thread, '+' the other lanes of its warp, '.' the CTA's other "
          "threads, ':' zeros from outside the matrix\n");
  picture_init(&pic, c->m0, k0, k->tile_m, k->tile_k);
  mark_cta(&pic, t, c, tid, kt, TG_TRACE_LOAD, TG_TRACE_A);
  picture_print(f, &pic, "A k-tile (m x k), loads");
  picture_init(&pic, k0, c->n0, k->tile_k, k->tile_n);
  mark_cta(&pic, t, c, tid, kt, TG_TRACE_LOAD, TG_TRACE_B);
  picture_print(f, &pic, "B k-tile (k x n), loads");
  if (k->smem_base != TG_TRACE_SMEM_NONE) {
    print_smem_picture(f, t, c, tid, kt, TG_TRACE_A);
    print_smem_picture(f, t, c, tid, kt, TG_TRACE_B);
  }
  if (k->mma_fragments) print_ldmatrix_picture(f, t, c, tid, kt);
  if (k->accumulators) {
    picture_init(&pic, c->m0, c->n0, k->tile_m, k->tile_n);
    mark_cta(&pic, t, c, tid, kt, TG_TRACE_ACCUM, TG_TRACE_D);
    picture_print(f, &pic, "D tile (m x n), accumulators");
  }
  if (k->stores_opaque) return;
  picture_init(&pic, c->m0, c->n0, k->tile_m, k->tile_n);
  mark_cta(&pic, t, c, tid, kt, TG_TRACE_STORE, TG_TRACE_D);
  picture_print(f, &pic, "D tile (m x n), stores");
}

/* ---- the trace ---------------------------------------------------------------------------- */

static const char *order_name(tg_order o) {
  return o == TG_ROW_MAJOR ? "row-major" : "column-major";
}

static void print_header(FILE *f, const tg_trace *t, const tg_trace_cta *c,
                         const tg_trace_print_options *o) {
  const tg_trace_kernel *k = t->kernel;
  const tg_problem *p = &t->p;
  fprintf(f, "kernel %s (family %s", k->name, k->family);
  if (k->rung) fprintf(f, ", ladder rung %d", k->rung);
  fprintf(f, "): %s\n", k->summary);
  fprintf(f,
          "problem as the kernel sees it: m=%lld n=%lld k=%lld batch=%lld; A %s lda=%lld, B %s "
          "ldb=%lld, D row-major ldd=%lld\n",
          (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->batch,
          order_name(p->a_order), (long long)p->lda, order_name(p->b_order), (long long)p->ldb,
          (long long)p->ldd);
  fprintf(f, "grid %u x %u x %u CTAs of %d x %d threads (%s); CTA tile %dx%d, k-tiles of %d, ",
          t->grid[0], t->grid[1], t->grid[2], k->block_x, k->block_y, k->grid_note, k->tile_m,
          k->tile_n, k->tile_k);
  if (t->splits > 1) fprintf(f, "k split %d ways, ", t->splits);
  if (k->smem_base == TG_TRACE_SMEM_NONE) fprintf(f, "no shared memory\n");
  else fprintf(f, "%d shared-memory stage%s\n", k->stages, k->stages == 1 ? "" : "s");
  fprintf(f, "CTA (%u, %u, %u): batch %lld", c->bx, c->by, c->bz, (long long)c->bat);
  if (t->splits > 1) fprintf(f, ", split %d (partial sums to the workspace)", c->split);
  fprintf(f, ", D rows %lld..%lld, columns %lld..%lld, k %lld..%lld in %d k-tiles\n",
          (long long)c->m0, (long long)(c->m0 + k->tile_m - 1), (long long)c->n0,
          (long long)(c->n0 + k->tile_n - 1), (long long)c->k_begin, (long long)(c->k_end - 1),
          c->k_tiles);
  fprintf(f, "thread %d", o->tid);
  if (k->block_y > 1)
    fprintf(f, " = (threadIdx.x %d, threadIdx.y %d)", o->tid % k->block_x, o->tid / k->block_x);
  fprintf(f, ": warp %d, lane %d\n", o->tid / WARP_THREADS, o->tid % WARP_THREADS);
  const int64_t k0 = tg_trace_k0(t, c, o->kt);
  fprintf(f, "k-tile %d: k %lld..%lld", o->kt, (long long)k0, (long long)(k0 + k->tile_k - 1));
  if (k0 + k->tile_k > c->k_end)
    fprintf(f, " (k ends at %lld: the rest arrives as zeros)", (long long)c->k_end);
  if (k->smem_base != TG_TRACE_SMEM_NONE)
    fprintf(f, ", shared-memory stage %d", k->stage ? k->stage(t, c, o->kt) : o->kt % k->stages);
  fputc('\n', f);
}

int tg_trace_print(FILE *f, const tg_trace *t, const tg_trace_print_options *o, char *err,
                   size_t err_len) {
  const tg_trace_kernel *k = t->kernel;
  tg_trace_cta c;
  if (tg_trace_cta_at(t, o->bx, o->by, o->bz, &c) != 0)
    return tg_trace_fail(err, err_len, "CTA (%u, %u, %u) is outside the grid %u x %u x %u", o->bx,
                         o->by, o->bz, t->grid[0], t->grid[1], t->grid[2]);
  if (o->tid < 0 || o->tid >= tg_trace_threads(t))
    return tg_trace_fail(err, err_len, "thread %d: the CTA has threads 0..%d", o->tid,
                         tg_trace_threads(t) - 1);
  if (o->kt < 0 || o->kt >= c.k_tiles)
    return tg_trace_fail(err, err_len, "k-tile %d: the CTA has k-tiles 0..%d", o->kt,
                         c.k_tiles - 1);
  tg_trace_list l = {0};
  if (tg_trace_thread(t, &c, o->tid, o->kt, 1, &l) != 0) {
    tg_trace_list_free(&l);
    return tg_trace_fail(err, err_len, "out of host memory");
  }
  if (k->accumulators) k->accumulators(t, &c, o->tid, &l);
  if (o->lead) fprintf(f, "%s\n", o->lead);
  print_header(f, t, &c, o);
  if (k->notes) k->notes(f, t, &c, o->tid, o->kt);
  int counts[TG_TRACE_KINDS] = {0};
  for (int i = 0; i < l.count; ++i) ++counts[l.v[i].kind];
  /* Elements are listed kind by kind, in the order the family appended them. */
  const tg_trace_elem *kind_start[TG_TRACE_KINDS];
  for (int kind = TG_TRACE_KINDS - 1; kind >= 0; --kind) kind_start[kind] = NULL;
  for (int i = l.count - 1; i >= 0; --i) kind_start[l.v[i].kind] = &l.v[i];

  fprintf(f, "\nloads of k-tile %d (%d elements, global -> %s):\n", o->kt, counts[TG_TRACE_LOAD],
          k->smem_base == TG_TRACE_SMEM_NONE ? "registers" : "shared memory");
  if (counts[TG_TRACE_LOAD]) print_loads(f, t, kind_start[TG_TRACE_LOAD], counts[TG_TRACE_LOAD]);
  if (k->fragments_opaque)
    fprintf(f,
            "\nfragments: WMMA does not say which lane holds which element of a 16x16 "
            "fragment; the warp loads its fragments from the staged tiles with "
            "wmma::load_matrix_sync\n");
  if (counts[TG_TRACE_FRAGMENT]) {
    fprintf(f, "\n%s read from shared memory, k-tile %d (%d elements):\n",
            k->mma_fragments ? "mma.sync fragments (ldmatrix.x4)" : "operands", o->kt,
            counts[TG_TRACE_FRAGMENT]);
    const tg_trace_elem *v = kind_start[TG_TRACE_FRAGMENT];
    if (k->mma_fragments) print_ldmatrix(f, t, v, counts[TG_TRACE_FRAGMENT]);
    if (!k->mma_fragments) print_operands(f, t, v, counts[TG_TRACE_FRAGMENT]);
  }
  if (counts[TG_TRACE_ACCUM]) {
    fprintf(f, "\naccumulators (%d elements of D):\n", counts[TG_TRACE_ACCUM]);
    print_runs(f, NULL, " ", "  ", kind_start[TG_TRACE_ACCUM], counts[TG_TRACE_ACCUM]);
  }
  if (k->stores_opaque)
    fprintf(f,
            "\nstores to D: through shared memory, not traced per thread (its accumulators "
            "above are what it contributes)\n");
  else fprintf(f, "\nstores to D after the last k-tile (%d elements):\n", counts[TG_TRACE_STORE]);
  if (counts[TG_TRACE_STORE])
    print_runs(f, NULL, " ", "  ", kind_start[TG_TRACE_STORE], counts[TG_TRACE_STORE]);
  if (o->pictures) print_pictures(f, t, &c, o->tid, o->kt);
  tg_trace_list_free(&l);
  return 0;
}
