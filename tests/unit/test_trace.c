/*
 * test_trace.c — the invariants of `tilegemm trace` (tools/trace/trace.h) for every traced
 * kernel, on problems that fill their tiles, cut them at every edge, pad the leading dimensions
 * and stride batches: for every CTA and k-tile, the block's threads load each element of the A
 * and B k-tiles exactly once, from its own offset or as zero outside the matrix, into their own
 * shared-memory slots; every fragment reads a staged element (for mma.sync, the one the PTX
 * ISA's layout gives the lane); for the simt rungs each thread reads exactly the operands its
 * outputs need; and the grid's threads store every element of D exactly once. For the sm90
 * family (TMA boxes, wgmma accumulators, a persistent grid): the boxes that land in a CTA's
 * stage, its own and its partner's multicast ones, cover the k-tile exactly once; a stage's
 * swizzled offsets are a bijection onto its bytes; both CTAs of a cluster hold the shared
 * operand at the same offsets; the consumers' accumulators cover the CTA tile exactly once, and
 * the units of all CTAs cover D exactly once (also on few SMs, where CTAs run several units).
 * Also the printed trace for a thread of each kernel. No GPU.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "trace.h"

/* The largest power of two up to 16 dividing the bytes of ld and batch stride of floats. */
static int alignment(int64_t ld, int64_t stride) {
  const int bytes = (int)sizeof(float);
  int a = 16;
  while (a > bytes && ((ld * bytes) % a || (stride * bytes) % a)) a /= 2;
  return a;
}

/* A canonical problem in the kernel's frame: A (m×k) and B (k×n) in the given orders, D
 * row-major; leading dimensions padded by `pad`, `batch` batches one after the other. */
static tg_problem problem(int64_t m, int64_t n, int64_t k, int64_t batch, int64_t pad,
                          tg_order a_order, tg_order b_order) {
  tg_problem p;
  memset(&p, 0, sizeof p);
  p.m = m, p.n = n, p.k = k, p.batch = batch;
  p.a_order = a_order, p.b_order = b_order;
  p.lda = (a_order == TG_ROW_MAJOR ? k : m) + pad;
  p.ldb = (b_order == TG_ROW_MAJOR ? n : k) + pad;
  p.ldd = n + pad;
  p.batch_stride_a = p.lda * (a_order == TG_ROW_MAJOR ? m : k);
  p.batch_stride_b = p.ldb * (b_order == TG_ROW_MAJOR ? k : n);
  p.batch_stride_d = p.ldd * m;
  p.alpha = 1.0, p.alpha_f = 1.0f;
  /* The operands' alignment (the f32 family stages by it): 16-byte pointers, then what ld and
   * the batch stride allow, for 4-byte elements (the 16-bit kernels ignore it). */
  p.align_a = alignment(p.lda, p.batch_stride_a);
  p.align_b = alignment(p.ldb, p.batch_stride_b);
  return p;
}

/* Every invariant of kernel k on p split `splits` ways; returns the number of failures. */
static int check_kernel_on(const tg_trace_kernel *k, const tg_problem *p, int splits) {
  tg_trace t;
  tg_trace_init(&t, k, p, splits);
  char err[256];
  int failures = 0;
  for (unsigned bz = 0; bz < t.grid[2]; ++bz)
    for (unsigned by = 0; by < t.grid[1]; ++by)
      for (unsigned bx = 0; bx < t.grid[0]; ++bx) {
        tg_trace_cta c;
        if (tg_trace_cta_at(&t, bx, by, bz, &c) != 0) continue;
        for (int kt = 0; kt < c.k_tiles; ++kt) {
          const int ok = tg_trace_check_k_tile(&t, &c, kt, err, sizeof err) == 0;
          CHECK_MSG(ok, "%s, %lldx%lldx%lld batch %lld: CTA (%u,%u,%u) k-tile %d: %s", k->name,
                    (long long)p->m, (long long)p->n, (long long)p->k, (long long)p->batch, bx, by,
                    bz, kt, err);
          if (!ok && ++failures > 3) return failures; /* one broken map fails every tile */
        }
      }
  const int ok = tg_trace_check_stores(&t, err, sizeof err) == 0;
  CHECK_MSG(ok, "%s, %lldx%lldx%lld: stores: %s", k->name, (long long)p->m, (long long)p->n,
            (long long)p->k, err);
  return failures + !ok;
}

/* The problems of a kernel: one tile exactly, edges cut in m, n and k, a single element, and a
 * padded, batched problem over several tiles; in every order of A and B the kernel reads, and,
 * for the rows that split k, split two and three ways (the last split empty). Rungs 1 and 2
 * take k-tiles of one k step, so their k stays small. */
static void check_kernel(const tg_trace_kernel *k) {
  const int64_t tm = k->tile_m, tn = k->tile_n, tk = k->tile_k == 1 ? 4 : k->tile_k;
  const int64_t sizes[][5] = {
      /* m, n, k, batch, pad */
      {tm, tn, 2 * tk, 1, 0},
      {tm + 3, tn - 5, tk + 7, 1, 0},
      {1, 1, 1, 1, 0},
      {2 * tm - 1, tn + 1, 3 * tk - 1, 2, 3},
  };
  const int splitk = strstr(k->name, "splitk") != NULL;
  for (int a = TG_ROW_MAJOR; a <= TG_COL_MAJOR; ++a)
    for (int b = TG_ROW_MAJOR; b <= TG_COL_MAJOR; ++b) {
      if (!(k->a_orders >> a & 1u) || !(k->b_orders >> b & 1u)) continue;
      for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        const tg_problem p = problem(sizes[i][0], sizes[i][1], sizes[i][2], sizes[i][3],
                                     sizes[i][4], (tg_order)a, (tg_order)b);
        if (check_kernel_on(k, &p, 1) > 3) return;
      }
      for (int splits = 2; splitk && splits <= 3; ++splits) {
        const tg_problem p = problem(tm + 3, tn - 5, 3 * tk + 5, 2, 1, (tg_order)a, (tg_order)b);
        if (check_kernel_on(k, &p, splits) > 3) return;
      }
    }
}

/* The order a kernel reads an operand in: row-major if it takes it. */
static tg_order first_order(unsigned orders) {
  return orders >> TG_ROW_MAJOR & 1u ? TG_ROW_MAJOR : TG_COL_MAJOR;
}

/* sm90: on a problem of whole tiles, the producer's stage is every byte of the stage once (the
 * 128-byte swizzle is a bijection onto it), and the partner CTA of a cluster holds the operand
 * they share (the same tile rows or columns) at the same offsets. */
static int staged_of(const tg_trace *t, unsigned bx, unsigned by, int kt, tg_trace_list *l,
                     tg_trace_cta *c) {
  tg_trace_list_clear(l);
  if (tg_trace_cta_at(t, bx, by, 0, c) != 0) return -1;
  return tg_trace_staged(t, c, kt, l);
}

static void check_sm90_stage(const tg_trace_kernel *k, tg_order a_order, tg_order b_order) {
  tg_problem p = problem(4 * k->tile_m, 4 * k->tile_n, 4 * k->tile_k, 1, 0, a_order, b_order);
  p.sm_count = 8; /* 16 items on 4 or 8 CTAs: several units per CTA, some loading k backwards */
  tg_trace t;
  tg_trace_init(&t, k, &p, 1);
  const int64_t stage_bytes = (int64_t)(k->tile_m + k->tile_n) * 128;
  tg_trace_list l = {0}, partner = {0};
  for (unsigned by = 0; by < 2 && by < t.grid[1]; ++by)
    for (int kt = 0; kt < 2; ++kt) {
      tg_trace_cta c, pc;
      CHECK(staged_of(&t, 0, by, kt, &l, &c) == 0);
      CHECK_MSG(l.count * k->elem_bytes == stage_bytes, "%s: stage of %d elements", k->name,
                l.count);
      const int64_t s0 = l.count ? l.v[0].smem - l.v[0].smem % stage_bytes : 0;
      for (int i = 0; i < l.count; ++i) {
        const int64_t at = l.v[i].smem - s0;
        CHECK_MSG(at >= 0 && at < stage_bytes && at % k->elem_bytes == 0 &&
                      (i == 0 || l.v[i].smem > l.v[i - 1].smem),
                  "%s: offset %lld of the stage at %lld", k->name, (long long)l.v[i].smem,
                  (long long)s0);
        if (at < 0 || at >= stage_bytes) break;
      }
      if (t.grid[0] < 2 || staged_of(&t, 1, by, kt, &partner, &pc) != 0) continue;
      if (!strstr(k->summary, "multicast")) continue; /* no cluster: CTA 1 is another item */
      /* The operand they share: B for a cluster along m (same columns), A along n. */
      const int shared = pc.n0 == c.n0 ? TG_TRACE_B : TG_TRACE_A;
      int same = 0, both = 0;
      for (int i = 0, j = 0; i < l.count && j < partner.count;) {
        if (l.v[i].operand != shared) ++i;
        else if (partner.v[j].operand != shared) ++j;
        else {
          both += 1;
          same += l.v[i].smem == partner.v[j].smem && l.v[i].row == partner.v[j].row &&
                  l.v[i].col == partner.v[j].col;
          ++i, ++j;
        }
      }
      CHECK_MSG(both > 0 && same == both, "%s: the cluster's CTAs hold %s differently", k->name,
                shared == TG_TRACE_A ? "A" : "B");
    }
  tg_trace_list_free(&l);
  tg_trace_list_free(&partner);
  /* Few SMs: every CTA runs several units, and D is still held exactly once. */
  for (int sms = 2; sms <= 6; sms += 4) {
    p = problem(3 * k->tile_m + 1, 2 * k->tile_n + 7, k->tile_k + 1, 2, 1, a_order, b_order);
    p.sm_count = sms;
    if (check_kernel_on(k, &p, 1)) return;
  }
}

/* The printed trace of a middle thread of the last CTA, at its last k-tile. */
static void check_print(const tg_trace_kernel *k, tg_order a_order, tg_order b_order) {
  const tg_problem p =
      problem(k->tile_m + 5, k->tile_n + 3, 2 * k->tile_k + 1, 1, 0, a_order, b_order);
  tg_trace t;
  tg_trace_init(&t, k, &p, 1);
  tg_trace_print_options o;
  memset(&o, 0, sizeof o);
  o.bx = t.grid[0] - 1, o.by = t.grid[1] - 1;
  tg_trace_cta c;
  if (tg_trace_cta_at(&t, o.bx, o.by, 0, &c) != 0) o.by = 0; /* a persistent CTA's last unit */
  o.tid = tg_trace_threads(&t) / 2 + 5;
  o.kt = 2;
  o.pictures = 1;
  char err[256];
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f) return;
  CHECK_MSG(tg_trace_print(f, &t, &o, err, sizeof err) == 0, "%s: %s", k->name, err);
  CHECK_MSG(ftell(f) > 0, "%s printed nothing", k->name);
  o.tid = 0; /* a producer, where there is one */
  CHECK_MSG(tg_trace_print(f, &t, &o, err, sizeof err) == 0, "%s thread 0: %s", k->name, err);
  o.tid = tg_trace_threads(&t) / 2 + 5;
  fclose(f);
  /* Outside the launch: refused with a reason. */
  o.tid = tg_trace_threads(&t);
  CHECK(tg_trace_print(stdout, &t, &o, err, sizeof err) != 0 && strstr(err, "thread") != NULL);
  o.tid = 0;
  o.bx = t.grid[0];
  CHECK(tg_trace_print(stdout, &t, &o, err, sizeof err) != 0 && strstr(err, "CTA") != NULL);
  o.bx = 0;
  o.kt = 3;
  CHECK(tg_trace_print(stdout, &t, &o, err, sizeof err) != 0 && strstr(err, "k-tile") != NULL);
}

int main(void) {
  int kernels = 0, sm90 = 0;
  for (int i = 0; tg_trace_kernel_at(i); ++i, ++kernels) {
    const tg_trace_kernel *k = tg_trace_kernel_at(i);
    check_kernel(k);
    check_print(k, first_order(k->a_orders), first_order(k->b_orders));
    if (strcmp(k->family, "sm90") == 0) {
      ++sm90;
      check_sm90_stage(k, first_order(k->a_orders), first_order(k->b_orders));
      if ((k->a_orders >> TG_COL_MAJOR & 1u) && (k->b_orders >> TG_ROW_MAJOR & 1u))
        check_sm90_stage(k, TG_COL_MAJOR, TG_ROW_MAJOR); /* MN-major boxes */
    }
    CHECK(tg_trace_kernel_find(k->name) == k);
  }
  CHECK(kernels >= 12 + 15 + 3); /* the teaching rungs 1-12, the sm80 and f32 rows */
  CHECK(sm90 >= 19);             /* every row of sm90_configs.h */
  CHECK(tg_trace_kernel_find("no_such_kernel") == NULL);
  return tg_test_finish("test_trace");
}
