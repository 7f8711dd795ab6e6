/*
 * test_ladder_edges.c — the ladder's rungs (1-12) on the GPU, forced, on the shapes where their
 * edge logic lives (needs a device; exits 77 without one):
 *   - every size around the tile in m, n and k (1, 2, 7, 8, 9, tile±1, tile, 2·tile+3), with
 *     leading dimensions rounded up to 16 bytes, so the 128-bit / cp.async paths run and a
 *     chunk straddles the k edge (padding holds NaN: a read past the edge shows);
 *   - the same with odd leading dimensions (the element-by-element paths);
 *   - batches with padded and broadcast strides, beta, bias and GELU, column-major D, C == D,
 *     every float output type, deep k (the pipelines' steady state and drain).
 * No case may be refused: every rung declares that it serves all of them.
 *
 *   test_ladder_edges [--kernel NAME]
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "gpu_case.h"
#include "tilegemm.h"

/* Above this many multiply-adds the GPU oracle replaces the CPU one. */
#define CPU_ORACLE_MAX_MACS 4000000.0
#define MAX_REPORTED_FAILURES 20
/* Leading dimensions of the aligned cases are multiples of this many bytes. */
#define ALIGN_BYTES 16

static tg_handle *h;
static int reported;
static long g_cases;

static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

/* The rung's native request (f32 C = A·B, or 16-bit C = A·Bᵀ), m×n×k, batch 1. */
static void native(tg_gemm *g, const tg_kernel_info *k, tg_dtype t16, int64_t m, int64_t n,
                   int64_t kk) {
  const tg_dtype t = k->rung <= 8 ? TG_F32 : t16;
  tg_gemm_init(g, m, n, kk, t, t);
  g->b_order = k->rung <= 8 ? TG_ROW_MAJOR : TG_COL_MAJOR;
  g->kernel = k->name;
}

/* Leading dimensions: aligned (rounded up to 16 bytes, plus one more 16-byte step of padding)
 * or odd (packed + 1). */
static void set_lds(tg_gemm *g, int aligned) {
  const int64_t per = ALIGN_BYTES / (int64_t)tg_dtype_size(g->a_type);
  const int64_t a_inner = g->a_order == TG_ROW_MAJOR ? g->k : g->m;
  const int64_t b_inner = g->b_order == TG_ROW_MAJOR ? g->n : g->k;
  const int64_t d_inner = g->c_order == TG_ROW_MAJOR ? g->n : g->m;
  g->lda = aligned ? round_up(a_inner, per) + per : a_inner + 1;
  g->ldb = aligned ? round_up(b_inner, per) + per : b_inner + 1;
  g->ldc = g->ldd = aligned ? round_up(d_inner, per) : d_inner + 1;
}

static void run(const tg_gemm *g, tg_case_options *o, const char *what) {
  char msg[2048];
  if ((double)g->m * g->n * g->k * (g->batch ? g->batch : 1) > CPU_ORACLE_MAX_MACS)
    o->gpu_oracle = 1;
  o->allow_refusal = 0;
  const tg_case_outcome r = tg_run_case(h, g, o, msg, sizeof msg);
  ++g_cases;
  CHECK(r == TG_CASE_PASS);
  if (r != TG_CASE_PASS && reported++ < MAX_REPORTED_FAILURES)
    fprintf(stderr, "FAIL [%s %s] %s\n", g->kernel, what, msg);
}

static void test_rung(const tg_kernel_info *k) {
  const int tiles[3] = {k->tile_m, k->tile_n, k->tile_k};
  const tg_dtype types16[2] = {TG_BF16, TG_F16};
  const int n_types = k->rung <= 8 ? 1 : 2;
  const long before = g_cases;
  for (int ty = 0; ty < n_types; ++ty) {
    /* Sizes around the tile in each dimension; the other two stay odd and multi-chunk. */
    for (int dim = 0; dim < 3; ++dim) {
      const int t = tiles[dim];
      const int64_t sizes[] = {1, 2, 7, 8, 9, t - 1, t, t + 1, 2 * t + 3};
      for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s) {
        if (sizes[s] < 1) continue;
        for (int aligned = 1; aligned >= 0; --aligned) {
          int64_t mnk[3] = {45, 51, 43};
          mnk[dim] = sizes[s];
          tg_gemm g;
          tg_case_options o;
          native(&g, k, types16[ty], mnk[0], mnk[1], mnk[2]);
          set_lds(&g, aligned);
          g.alpha = 0.75;
          g.beta = (s % 2) ? 0.5 : 0.0;
          memset(&o, 0, sizeof o);
          o.seed = 700000u + (uint64_t)(k->rung * 10000 + ty * 1000 + dim * 100 + s * 10 + aligned);
          o.exact = s % 3 == 0;
          run(&g, &o, aligned ? "edge, aligned ld" : "edge, odd ld");
        }
      }
    }
    /* Batches (padded / broadcast strides), epilogue, column-major D, in place, outputs. */
    for (int variant = 0; variant < 6; ++variant) {
      tg_gemm g;
      tg_case_options o;
      native(&g, k, types16[ty], 2 * k->tile_m + 5, k->tile_n + 9, 3 * k->tile_k + 5);
      g.batch = 3;
      g.beta = 1.25;
      g.epilogue = variant % 2 ? TG_EPI_BIAS_GELU : TG_EPI_BIAS_RELU;
      g.bias_type = variant % 3 == 0 ? TG_F32 : TG_BF16;
      if (variant == 1) g.batch_stride_a = TG_BATCH_BROADCAST;
      if (variant == 2)
        g.batch_stride_b = TG_BATCH_BROADCAST, g.batch_stride_c = TG_BATCH_BROADCAST;
      if (variant == 3) { /* column-major D: computed as D^T = B^T A^T */
        g.c_order = TG_COL_MAJOR;
        g.a_order = k->rung <= 8 ? TG_COL_MAJOR : TG_ROW_MAJOR;
        g.b_order = TG_COL_MAJOR;
      }
      if (variant == 4) g.c_type = g.d_type = TG_F32;
      if (variant == 5) g.c_type = g.d_type = k->rung <= 8 ? TG_BF16 : TG_F16;
      set_lds(&g, variant != 2);
      if (variant == 0) { /* padded batch strides */
        g.batch_stride_a = (g.a_order == TG_ROW_MAJOR ? g.m : g.k) * g.lda + 16;
        g.batch_stride_b = (g.b_order == TG_ROW_MAJOR ? g.k : g.n) * g.ldb + 32;
        g.batch_stride_c = g.m * g.ldc + 8;
        g.batch_stride_d = g.m * g.ldd + 24;
      }
      memset(&o, 0, sizeof o);
      o.seed = 800000u + (uint64_t)(k->rung * 100 + ty * 10 + variant);
      o.c_is_d = variant == 4;
      o.determinism = variant == 5;
      run(&g, &o, "batch/epilogue");
    }
    /* Deep k: many k-tiles through the pipelines, k not a multiple of the tile, two CTAs wide. */
    {
      tg_gemm g;
      tg_case_options o;
      native(&g, k, types16[ty], k->tile_m + 3, 2 * k->tile_n + 1, 37 * k->tile_k + 3);
      set_lds(&g, 1);
      memset(&o, 0, sizeof o);
      o.seed = 900000u + (uint64_t)(k->rung * 10 + ty);
      o.exact = 1;
      o.determinism = 1;
      run(&g, &o, "deep k, exact");
    }
  }
  printf("ladder edges  %-30s %ld cases\n", k->name, g_cases - before);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) only = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--kernel NAME]\n", argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_ladder_edges");
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  int rungs = 0;
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (k.rung < 1 || k.rung > 12 || (only && strcmp(only, k.name) != 0)) continue;
    ++rungs;
    test_rung(&k);
  }
  CHECK_MSG(rungs > 0, "no ladder rung matched");
  printf("ladder edges: %d rungs, %ld cases\n", rungs, g_cases);
  tg_destroy(h);
  return tg_test_finish("test_ladder_edges");
}
