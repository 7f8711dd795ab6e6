/*
 * test_gpu_features.c — the rest of docs/testing.md on the GPU, through the public API:
 *   tile edges of every registered kernel (tile-1, tile, tile+1, 2·tile+odd in m, n and k;
 *   k below one k-tile; k over 19 k-tiles, past every stage ring and split by split-K and
 *   stream-K), run twice for determinism; batches (packed, padded, broadcast);
 *   every epilogue and bias type; pointers off by one element and odd leading dimensions;
 *   k == 0, alpha == 0 with NULL A/B, in-place C == D; whole and aligned edge tiles through
 *   every epilogue and D type on the tensor-core kernels and the f32 family's; the GPU oracle
 *   against the CPU one;
 *   tf32 input rounding bit for bit on the tf32 tensor-core kernels; stream-K splits on sm90.
 *
 *   test_gpu_features [--kernel NAME]   only that kernel's tile edges (others skipped)
 *                     [--part P/N]      part P of N (0 <= P < N): the kernels whose registry
 *                                       index i has i mod N == P, and the tests of no one kernel
 *                                       in part 0 (CTest runs the parts side by side); a part, or
 *                                       a --kernel, that selects no kernel fails
 *                     [--stream-k]      only the stream-K cases (for the sanitizers)
 *                     [--quick]         every code path of each kernel, fewer cases (for the
 *                                       slow sanitizers, racecheck above all): tile edges in one
 *                                       type set at tile-1 and 2·tile+3, the aligned epilogues
 *                                       (every epilogue × D type × C mode) at one shape and D
 *                                       order each, and stream-K at its shortest k
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_ref.h"
#include "gpu_case.h"
#include "host_dtype.h"
#include "random_values.h"
#include "tilegemm.h"

/* Above this many multiply-adds the GPU oracle replaces the CPU one. */
#define CPU_ORACLE_MAX_MACS 4000000.0
#define MAX_REPORTED_FAILURES 20

typedef struct type_set {
  const char *name;
  tg_dtype a, b, cd;
  tg_compute compute;
  tg_scale_mode scale; /* fp8 only */
  int fast_accum;      /* fp8 only */
} type_set;

static const type_set k_types[] = {
    {"f32", TG_F32, TG_F32, TG_F32, TG_COMPUTE_F32, TG_SCALE_NONE, 0},
    {"tf32", TG_F32, TG_F32, TG_F32, TG_COMPUTE_TF32, TG_SCALE_NONE, 0},
    {"3xtf32", TG_F32, TG_F32, TG_F32, TG_COMPUTE_3XTF32, TG_SCALE_NONE, 0},
    {"f16", TG_F16, TG_F16, TG_F16, TG_COMPUTE_F32, TG_SCALE_NONE, 0},
    {"bf16", TG_BF16, TG_BF16, TG_BF16, TG_COMPUTE_F32, TG_SCALE_NONE, 0},
    {"fp8", TG_E4M3, TG_E4M3, TG_BF16, TG_COMPUTE_F32, TG_SCALE_NONE, 0},
    {"fp8-block", TG_E4M3, TG_E5M2, TG_BF16, TG_COMPUTE_F32, TG_SCALE_BLOCK, 0},
    {"fp8-rowcol-fast", TG_E5M2, TG_E4M3, TG_F16, TG_COMPUTE_F32, TG_SCALE_ROW_COL, 1},
    {"fp8-tensor", TG_E5M2, TG_E5M2, TG_F32, TG_COMPUTE_F32, TG_SCALE_TENSOR, 0},
    {"fp8-tensor-fast", TG_E4M3, TG_E4M3, TG_BF16, TG_COMPUTE_F32, TG_SCALE_TENSOR, 1},
    {"s8", TG_S8, TG_S8, TG_S32, TG_COMPUTE_S32, TG_SCALE_NONE, 0},
};
#define TYPE_COUNT ((int)(sizeof k_types / sizeof k_types[0]))

static tg_handle *h;
static int reported;
static int g_quick; /* --quick */
/* The deep-K edge: 19 k-tiles, prime, so a multiple of no stage count (3 to 8 here) and past
 * twice the deepest ring; the last k-tile holds 7 of k. */
enum { DEEP_K_TILES = 19, DEEP_K_REMAINDER = 7 };
static long g_cases, g_refused;

static void init(tg_gemm *g, const type_set *t, int64_t m, int64_t n, int64_t k) {
  tg_gemm_init(g, m, n, k, t->a, t->cd);
  g->b_type = t->b;
  g->compute = t->compute;
  g->scale_mode = t->scale;
  g->fp8_fast_accum = t->fast_accum;
}

static void defaults(tg_case_options *o, uint64_t seed) {
  memset(o, 0, sizeof *o);
  o->seed = seed;
}

/* Runs one case; returns its outcome and reports a failure. */
static tg_case_outcome run(const tg_gemm *g, tg_case_options *o, const char *what) {
  char msg[2048];
  if ((double)g->m * g->n * g->k * (g->batch ? g->batch : 1) > CPU_ORACLE_MAX_MACS)
    o->gpu_oracle = 1;
  tg_case_outcome r = tg_run_case(h, g, o, msg, sizeof msg);
  ++g_cases;
  if (r == TG_CASE_REFUSED) ++g_refused;
  CHECK(r != TG_CASE_FAIL);
  if (r == TG_CASE_FAIL && reported++ < MAX_REPORTED_FAILURES)
    fprintf(stderr, "FAIL [%s] %s\n", what, msg);
  return r;
}

/* Tile edges of one kernel in every type set it accepts. Each kernel must run some case. */
static void test_tile_edges(const tg_kernel_info *kinfo) {
  if (kinfo->tile_m == 0) return;
  const int tiles[3] = {kinfo->tile_m, kinfo->tile_n, kinfo->tile_k};
  const int64_t other = 33;  /* odd, crosses no tile evenly */
  enum { ALIGNED_STEP = 8 }; /* elements: 16 bytes of a 16-bit D row */
  long ran = 0;
  for (int t = 0; t < TYPE_COUNT; ++t) {
    for (int dim = 0; dim < 3; ++dim) {
      const int tile = tiles[dim];
      const int64_t sizes[] = {tile - 1, tile, tile + 1, 2 * tile + 3};
      for (int s = 0; s < 4; ++s) {
        if (sizes[s] < 1 || (g_quick && (s == 1 || s == 2))) continue;
        int64_t mnk[3] = {other, other + 4, other + 8};
        mnk[dim] = sizes[s];
        for (int orders = 0; orders < 8; orders += 3) { /* RRR, CRR... a spread of orders */
          tg_gemm g;
          tg_case_options o;
          init(&g, &k_types[t], mnk[0], mnk[1], mnk[2]);
          g.kernel = kinfo->name;
          g.a_order = (orders & 1) ? TG_COL_MAJOR : TG_ROW_MAJOR;
          g.b_order = (orders & 2) ? TG_COL_MAJOR : TG_ROW_MAJOR;
          g.c_order = (orders & 4) ? TG_COL_MAJOR : TG_ROW_MAJOR;
          g.alpha = 0.75;
          g.beta = (s % 2) ? 0.5 : 0.0;
          defaults(&o, 100000u + (uint64_t)(t * 1000 + dim * 100 + s * 10 + orders));
          o.allow_refusal = 1;
          o.determinism = 1;
          if (run(&g, &o, kinfo->name) == TG_CASE_PASS) ++ran;
        }
      }
    }
    /* k below one k-tile, and k not a multiple of it. */
    for (int64_t k = 1; k < tiles[2]; k += tiles[2] / 3 + 1) {
      tg_gemm g;
      tg_case_options o;
      init(&g, &k_types[t], tiles[0] + 5, tiles[1] + 3, k);
      g.kernel = kinfo->name;
      defaults(&o, 200000u + (uint64_t)(t * 100 + k));
      o.allow_refusal = 1;
      o.exact = 1;
      o.determinism = 1;
      if (run(&g, &o, kinfo->name) == TG_CASE_PASS) ++ran;
    }
    /* K over many k-tiles, and a multiple of no pipeline depth (DEEP_K_TILES, the last one
     * partial): every stage ring fills, runs in steady state, wraps and drains, and the split-K
     * and stream-K rows split it (one output tile on the whole GPU). Random data with C, and
     * exact data (bitwise) with C never read; both twice, bit for bit. */
    for (int exact = 0; exact < 2; ++exact) {
      tg_gemm g;
      tg_case_options o;
      init(&g, &k_types[t], other, other + 4,
           (DEEP_K_TILES - 1) * (int64_t)tiles[2] + DEEP_K_REMAINDER);
      g.kernel = kinfo->name;
      g.a_order = exact ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.b_order = exact ? TG_ROW_MAJOR : TG_COL_MAJOR;
      g.alpha = 0.75;
      g.beta = exact ? 0.0 : 0.5;
      defaults(&o, 250000u + (uint64_t)(t * 10 + exact));
      o.allow_refusal = 1;
      o.determinism = 1;
      o.exact = exact;
      if (run(&g, &o, kinfo->name) == TG_CASE_PASS) ++ran;
    }
    /* The same edges with D 16-byte aligned (n and the partial tiles along it multiples of 8)
     * and beta = 0: the plain epilogue's TMA stores clipped at the edges, and the only edges a
     * row that holds just that epilogue (sm90_256x160x64) serves. */
    for (int dim = 0; dim < 3; ++dim) {
      const int64_t sizes[] = {tiles[dim] - ALIGNED_STEP, tiles[dim] + ALIGNED_STEP,
                               2 * tiles[dim] + 3 * ALIGNED_STEP};
      for (int s = 0; s < 3; ++s) {
        if (sizes[s] < 1 || (g_quick && s == 1)) continue;
        int64_t mnk[3] = {other, 5 * ALIGNED_STEP, other + 8};
        mnk[dim] = sizes[s];
        tg_gemm g;
        tg_case_options o;
        init(&g, &k_types[t], mnk[0], mnk[1], mnk[2]);
        g.kernel = kinfo->name;
        g.b_order = s == 2 ? TG_ROW_MAJOR : TG_COL_MAJOR;
        g.alpha = 0.75;
        defaults(&o, 300000u + (uint64_t)(t * 100 + dim * 10 + s));
        o.allow_refusal = 1;
        o.determinism = 1;
        if (run(&g, &o, kinfo->name) == TG_CASE_PASS) ++ran;
      }
    }
    if (g_quick && ran > 0) break; /* one type set that the kernel serves */
  }
  printf("tile edges  %-28s %ld cases ran\n", kinfo->name, ran);
  CHECK_MSG(ran > 0, "kernel %s refused every tile-edge case: it is never tested", kinfo->name);
}

static void test_batches(void) {
  for (int t = 0; t < TYPE_COUNT; ++t)
    for (int variant = 0; variant < 5; ++variant)
      for (int64_t batch = 1; batch <= 3; batch += 2) {
        tg_gemm g;
        tg_case_options o;
        init(&g, &k_types[t], 17, 13, 11);
        g.batch = batch;
        g.beta = 1.0;
        g.c_order = (variant & 1) ? TG_COL_MAJOR : TG_ROW_MAJOR;
        if (variant == 1) { /* padded strides */
          g.batch_stride_a = 17 * 11 + 7;
          g.batch_stride_b = 11 * 13 + 5;
          g.batch_stride_c = 17 * 13 + 3;
          g.batch_stride_d = 17 * 13 + 9;
        }
        if (variant == 2) g.batch_stride_a = TG_BATCH_BROADCAST;
        if (variant == 3)
          g.batch_stride_b = TG_BATCH_BROADCAST, g.batch_stride_c = TG_BATCH_BROADCAST;
        if (variant == 4) g.b_order = TG_COL_MAJOR, g.a_order = TG_COL_MAJOR;
        defaults(&o, 300000u + (uint64_t)(t * 100 + variant * 10 + batch));
        o.exact = 1;
        run(&g, &o, "batch");
      }
}

static void test_epilogues(void) {
  const tg_dtype bias_types[] = {TG_F32, TG_F16, TG_BF16};
  for (int t = 0; t < TYPE_COUNT; ++t)
    for (int e = TG_EPI_NONE; e <= TG_EPI_BIAS_GELU; ++e)
      for (int bt = 0; bt < 3; ++bt)
        for (int corder = 0; corder < 2; ++corder) {
          tg_gemm g;
          tg_case_options o;
          init(&g, &k_types[t], 33, 65, 17);
          g.epilogue = (tg_epilogue)e;
          g.bias_type = bias_types[bt];
          g.c_order = corder ? TG_COL_MAJOR : TG_ROW_MAJOR;
          g.alpha = 0.5;
          g.beta = (bt == 1) ? -1.25 : 0.0;
          defaults(&o, 400000u + (uint64_t)(t * 1000 + e * 100 + bt * 10 + corder));
          run(&g, &o, "epilogue");
        }
}

static void test_alignment_and_ld(void) {
  for (int t = 0; t < TYPE_COUNT; ++t)
    for (int which = 0; which < 5; ++which) {
      tg_gemm g;
      tg_case_options o;
      init(&g, &k_types[t], 37, 41, 29);
      g.beta = 1.0;
      defaults(&o, 500000u + (uint64_t)(t * 10 + which));
      o.exact = 1;
      if (which < 4) o.offset[which] = 1; /* one operand one element off */
      else o.pad_ld = 3;                  /* odd leading dimensions everywhere */
      run(&g, &o, "alignment");
    }
}

static void test_special_scalars(void) {
  for (int t = 0; t < TYPE_COUNT; ++t) {
    tg_gemm g;
    tg_case_options o;
    /* k == 0: D = beta·C. */
    init(&g, &k_types[t], 19, 23, 0);
    g.beta = 1.5;
    g.epilogue = TG_EPI_BIAS;
    defaults(&o, 600000u + (uint64_t)t);
    o.null_unread = 1;
    run(&g, &o, "k=0");
    /* alpha == 0 with NULL A and B: D = beta·C + relu. */
    init(&g, &k_types[t], 19, 23, 31);
    g.alpha = 0.0;
    g.beta = -2.0;
    g.epilogue = TG_EPI_RELU;
    run(&g, &o, "alpha=0");
    /* beta == 0 with C NULL. */
    init(&g, &k_types[t], 19, 23, 31);
    run(&g, &o, "beta=0, C NULL");
    /* In place. */
    init(&g, &k_types[t], 21, 18, 40);
    g.beta = 1.3;
    defaults(&o, 610000u + (uint64_t)t);
    o.c_is_d = 1;
    run(&g, &o, "C == D");
  }
}

enum { STREAM_K_VARIANTS = 7, N_SHORT = 5, N_SHORT_ALIGNED = 8, BF16_SET = 3, F16_SET = 2 };
enum { F32_SET = 0, TF32_SET = 1, S8_SET = 9 };
/* k_types' fp8 sets the stream-K cases of fp8 kernels take. */
enum { FP8_BLOCK_SET = 5, FP8_ROWCOL_FAST_SET = 6, FP8_TENSOR_SET = 7, FP8_TENSOR_FAST_SET = 8 };
/* The stream-K variant that only kernels promoting fp8 sums run (run_stream_k_variant). */
enum { STREAM_K_BLOCK_TRANSPOSED = 6 };

/* Whether a kernel promotes fp8 sums: the fp8 rows that may take BLOCK scales. */
static int promotes_fp8(const tg_kernel_info *kinfo) {
  return strstr(kinfo->name, "_f8_") && !strstr(kinfo->name, "_fast");
}

/* The type set of a stream-K variant on a kernel: f16 or bf16, tf32 for a tf32 kernel, int8 for
 * an int8 kernel, or for an fp8 kernel BLOCK and TENSOR scales (promoting kernels) or ROW_COL and
 * TENSOR scales with fast accumulation. */
static const type_set *stream_k_types(const tg_kernel_info *kinfo, int variant) {
  const int odd = variant % 2;
  if (strstr(kinfo->name, "_tf32_")) return &k_types[TF32_SET];
  if (strstr(kinfo->name, "_s8_")) return &k_types[S8_SET];
  if (strstr(kinfo->name, "_f8_") && strstr(kinfo->name, "_fast"))
    return &k_types[odd ? FP8_ROWCOL_FAST_SET : FP8_TENSOR_FAST_SET];
  if (strstr(kinfo->name, "_f8_")) return &k_types[odd ? FP8_TENSOR_SET : FP8_BLOCK_SET];
  return &k_types[variant == 1 ? F16_SET : BF16_SET];
}

/* Whole tiles and aligned edge tiles through every epilogue on the tensor-core families: the
 * kernels finish these on their own inline paths (sm90: D, and C when read, move by TMA), which
 * the edge-heavy, misaligned cases above rarely reach. Every D type (C and bias of D's type),
 * C not read, read, in place (C == D) and shared by a batch of two; row-major D (bias along n)
 * and column-major D (the transposed problem: bias along m). The edge shapes keep every row
 * 16-byte aligned (n a multiple of 8), so they stay on the aligned paths. sm90 gets all of it
 * (its C moves by TMA); sm80 and f32, whose aligned paths are one loop over the shared epilogue,
 * whole tiles with and without C (f32: its 16-byte operand copies too, in f32). */
enum { C_NONE, C_READ, C_IS_D, C_SHARED_BY_BATCH, C_MODES };
/* The inputs of the aligned-epilogue cases: bf16, f32 for the f32 family, or for an fp8 or tf32
 * kernel its stream-K type sets (the scalings an fp8 kernel serves), rotating with `rotate`. */
static const type_set *aligned_epilogue_types(const tg_kernel_info *kinfo, int rotate) {
  if (strcmp(kinfo->family, "f32") == 0) return &k_types[F32_SET];
  return strstr(kinfo->name, "_f8_") || strstr(kinfo->name, "_tf32_")
             ? stream_k_types(kinfo, rotate)
             : &k_types[BF16_SET];
}
static void test_aligned_epilogues(const tg_kernel_info *kinfo) {
  const int sm90 = strcmp(kinfo->family, "sm90") == 0;
  if (!sm90 && strcmp(kinfo->family, "sm80") != 0 && strcmp(kinfo->family, "f32") != 0) return;
  const tg_dtype outs[] = {TG_BF16, TG_F16, TG_F32};
  /* Whole tiles of 64, 128 and 256 columns (512), edges inside the last tile of every width (424
   * and 616 end inside every width's last tile), and the 16-column tails of 144- and 208-wide tiles hold an edge in both D orders (column-major D
   * swaps m and n): 424 = 2 × 144 + 136 and 136 in a 144-wide tail, 200 and 616 = 2 × 208 + 200
   * in a 208-wide one. */
  const int64_t shapes[][3] = {{256, 512, 64}, {200, 424, 100}, {136, 616, 100}};
  const int c_modes = sm90 ? C_MODES : C_IS_D, n_shapes = sm90 ? 3 : 1;
  long ran = 0;
  for (int e = TG_EPI_NONE; e <= TG_EPI_BIAS_GELU; ++e)
    for (int o = 0; o < 3; ++o)
      for (int cm = 0; cm < c_modes; ++cm)
        for (int sh = 0; sh < n_shapes; ++sh)
          for (int corder = 0; corder < 2; ++corder) {
            /* --quick: every epilogue × D type × C mode at one shape and D order, rotating. */
            if (g_quick && sh * 2 + corder != (e + o + cm) % (n_shapes * 2)) continue;
            tg_gemm g;
            tg_case_options opt;
            init(&g, aligned_epilogue_types(kinfo, e + cm), shapes[sh][0], shapes[sh][1],
                 shapes[sh][2]);
            g.kernel = kinfo->name;
            g.d_type = g.c_type = g.bias_type = outs[o];
            g.epilogue = (tg_epilogue)e;
            g.alpha = 1.25;
            g.beta = cm == C_NONE ? 0.0 : -0.5;
            g.c_order = corder ? TG_COL_MAJOR : TG_ROW_MAJOR;
            if (cm == C_SHARED_BY_BATCH) {
              g.batch = 2;
              g.batch_stride_c = TG_BATCH_BROADCAST;
            }
            defaults(&opt, 700000u + (uint64_t)(e * 1000 + o * 100 + cm * 10 + sh * 2 + corder));
            opt.allow_refusal = 1;
            opt.c_is_d = cm == C_IS_D;
            if (run(&g, &opt, "aligned epilogue") == TG_CASE_PASS) ++ran;
          }
  /* A bias one element off its pairs' alignment beside an aligned D: the inline epilogues then
   * load it an element at a time (sm90: the tile's bias words) instead of in pairs. */
  const tg_epilogue bias_epilogues[] = {TG_EPI_BIAS, TG_EPI_BIAS_RELU};
  for (int e = 0; e < 2; ++e)
    for (int o = 0; o < 3; ++o)
      for (int sh = 0; sh < n_shapes; ++sh) {
        if (g_quick && sh != (e + o) % n_shapes) continue; /* --quick: one shape each */
        tg_gemm g;
        tg_case_options opt;
        init(&g, aligned_epilogue_types(kinfo, e + o), shapes[sh][0], shapes[sh][1], shapes[sh][2]);
        g.kernel = kinfo->name;
        g.d_type = g.c_type = g.bias_type = outs[o];
        g.epilogue = bias_epilogues[e];
        defaults(&opt, 710000u + (uint64_t)(e * 100 + o * 10 + sh));
        opt.allow_refusal = 1;
        opt.offset[4] = 1;
        if (run(&g, &opt, "misaligned bias") == TG_CASE_PASS) ++ran;
      }
  printf("aligned epilogues %-22s %ld cases ran\n", kinfo->name, ran);
}

/* tf32 input rounding, bit for bit. docs/testing.md's bound assumes inputs rounded to nearest
 * (u_in = 2^-11), but on random data it also passes truncated inputs, so this checks the
 * rounding itself: B is the identity (exact in tf32) and every other product is 0·x, so D
 * must be exactly rn(A) (nearest, ties to even, as cvt.rn.tf32.f32). A's mantissas are random
 * with some dropped parts set to exactly half an ulp (both parities of the last kept bit) and
 * just below or above it; one row holds a NaN, which must reach all of that row (NaN·0). k spans
 * several k-tiles, m and n are not tile multiples. The tensor-core families are asked (the sm90
 * tf32 rows get their operands rounded by the copy engine on the way into shared memory);
 * kernels that compute tf32 requests in higher precision (ref) are not. */
#define TF32_DROPPED_BITS 0x1fffu
#define TF32_HALF_ULP 0x1000u
#define TF32_LSB 0x2000u
static uint32_t tf32_rn_bits(uint32_t x) {
  const uint32_t dropped = x & TF32_DROPPED_BITS, kept = x & ~TF32_DROPPED_BITS;
  const int up = dropped > TF32_HALF_ULP || (dropped == TF32_HALF_ULP && (kept & TF32_LSB));
  return up ? kept + TF32_LSB : kept;
}

static void test_tf32_rounding(const tg_kernel_info *kinfo) {
  if (strcmp(kinfo->family, "sm80") != 0 && strcmp(kinfo->family, "sm90") != 0) return;
  enum { M = 96, N = 320, K = 320, NAN_ROW = 7, NAN_COL = 5 };
  static const uint32_t kDropped[] = {TF32_HALF_ULP, TF32_HALF_ULP - 1u, TF32_HALF_ULP + 1u};
  tg_gemm g;
  tg_gemm_init(&g, M, N, K, TG_F32, TG_F32);
  g.compute = TG_COMPUTE_TF32;
  g.b_order = TG_COL_MAJOR; /* B stored N×K: K-major, no repack */
  g.kernel = kinfo->name;
  uint32_t *A = malloc(sizeof(uint32_t) * M * K), *D = malloc(sizeof(uint32_t) * M * N);
  float *B = calloc((size_t)N * K, sizeof(float));
  uint64_t state = 0x7f4a7c15u;
  for (int i = 0; i < M * K; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t r = (uint32_t)(state >> 32);
    const uint32_t exponent = 127u - 20u + (r >> 8) % 41u; /* 2^-20 .. 2^20: normal, no overflow */
    uint32_t mantissa = (uint32_t)(state >> 8) & 0x7fffffu;
    if (r % 8u < 3u) mantissa = (mantissa & ~TF32_DROPPED_BITS) | kDropped[r % 8u];
    A[i] = (r & 1u) << 31 | exponent << 23 | mantissa;
  }
  A[NAN_ROW * K + NAN_COL] = 0x7fc00000u;
  for (int j = 0; j < N && j < K; ++j) B[(size_t)j * K + j] = 1.0f; /* column j of B = e_j */
  void *dA, *dB, *dD;
  cudaMalloc(&dA, sizeof(uint32_t) * M * K);
  cudaMalloc(&dB, sizeof(float) * N * K);
  cudaMalloc(&dD, sizeof(uint32_t) * M * N);
  cudaMemcpy(dA, A, sizeof(uint32_t) * M * K, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, sizeof(float) * N * K, cudaMemcpyHostToDevice);
  const tg_status s = tg_matmul(h, &g, dA, dB, NULL, dD, 0);
  if (s == TG_ERR_NOT_SUPPORTED) {
    ++g_refused;
  } else {
    CHECK_MSG(s == TG_OK, "tf32 rounding on %s: %s", kinfo->name, tg_last_error(h));
    cudaMemcpy(D, dD, sizeof(uint32_t) * M * N, cudaMemcpyDeviceToHost);
    long bad = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const uint32_t got = D[i * N + j];
        const int is_nan = (got & 0x7fffffffu) > 0x7f800000u;
        const int ok = i == NAN_ROW ? is_nan : got == tf32_rn_bits(A[i * K + j]);
        if (!ok && ++bad <= 3)
          fprintf(stderr, "tf32 rounding on %s: D(%d,%d) = 0x%08x, A = 0x%08x, want 0x%08x\n",
                  kinfo->name, i, j, got, A[i * K + j],
                  i == NAN_ROW ? 0x7fffffffu : tf32_rn_bits(A[i * K + j]));
      }
    CHECK_MSG(bad == 0, "tf32 rounding on %s: %ld of %d outputs differ from rn(A)", kinfo->name,
              bad, M * N);
    ++g_cases;
    printf("tf32 bits   %-28s %d outputs\n", kinfo->name, M * N);
  }
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dD);
  free(A);
  free(B);
  free(D);
}

/* fp8 BLOCK scales on the kernels that promote fp8 sums, in both D orders. A column-major D is
 * computed as D^T = B^T·A^T: the canonical A then carries the user's B's 128×128 blocks and the
 * canonical B the user's A's 1×128 slices (problem.h's scale_a_blocks). Small integers and
 * power-of-two scales (exact: bitwise), each case twice, bit for bit: rows and columns of both
 * frames crossing 128-wide scale blocks and ending inside one (a tile's second consumer wholly
 * past the edge included), D rows 16-byte aligned and not (the TMA and the general epilogue), k
 * over several 128-deep blocks ending in a partial one; one batch, a batch of two with scales of
 * its own, and a batch of two sharing B and its scales (broadcast) with C and a bias. A kernel
 * that takes no BLOCK scales refuses them. */
static void test_block_scales(const tg_kernel_info *kinfo) {
  if (!promotes_fp8(kinfo)) return;
  enum { BATCH_ONE, BATCH_OWN, BATCH_SHARED_B, BATCH_VARIANTS };
  /* m, n, k: 264 and 392 rows of D 16-byte aligned in bf16, 131, 389, 129 and 257 not; 131
   * leaves the second consumer of the second tile wholly past the edge. */
  const int64_t shapes[][3] = {{264, 392, 645}, {389, 131, 300}, {129, 257, 128}};
  long ran = 0;
  for (int sh = 0; sh < 3; ++sh)
    for (int corder = 0; corder < 2; ++corder)
      for (int batch = 0; batch < BATCH_VARIANTS; ++batch) {
        if (g_quick && batch != (sh + corder) % BATCH_VARIANTS) continue;
        tg_gemm g;
        tg_case_options o;
        init(&g, &k_types[FP8_BLOCK_SET], shapes[sh][0], shapes[sh][1], shapes[sh][2]);
        g.kernel = kinfo->name;
        g.b_order = TG_COL_MAJOR; /* K-major, as the kernel reads it: no repack */
        g.c_order = corder ? TG_COL_MAJOR : TG_ROW_MAJOR;
        if (batch != BATCH_ONE) g.batch = 2;
        if (batch == BATCH_SHARED_B) {
          g.batch_stride_b = TG_BATCH_BROADCAST;
          g.beta = 1.0;
          g.epilogue = TG_EPI_BIAS;
        }
        defaults(&o, 720000u + (uint64_t)(sh * 100 + corder * 10 + batch));
        o.allow_refusal = 1;
        o.exact = 1;
        o.determinism = 1;
        if (run(&g, &o, "block scales") == TG_CASE_PASS) ++ran;
      }
  printf("block scales %-27s %ld cases ran\n", kinfo->name, ran);
}

/* Stream-K cases share their variants: 0 exact, 1 transposed (f16), 2 f32 C and D with
 * bias+GELU on misaligned rows (the general epilogue); 3 exact and 4 bf16 C with bias+GELU on
 * 16-byte-aligned rows (the TMA epilogues, C loaded during the mainloop of a unit that then
 * collects partial sums); 5 exact bias+ReLU into bf16 on aligned rows (the tile's bias loaded
 * before the partial sums are collected); 6 (STREAM_K_BLOCK_TRANSPOSED, kernels that promote fp8
 * sums only) exact with BLOCK scales, transposed (the canonical A holds the 128×128 blocks, the
 * canonical B the 1×128 slices). n is the misaligned width; the aligned variants take
 * n + N_SHORT - N_SHORT_ALIGNED. Every case runs twice, bit for bit. */
static int stream_k_variant_runs(const tg_kernel_info *kinfo, int variant) {
  return variant != STREAM_K_BLOCK_TRANSPOSED || promotes_fp8(kinfo);
}
static tg_case_outcome run_stream_k_variant(const tg_kernel_info *kinfo, int variant, int64_t m,
                                            int64_t n, int64_t k, uint64_t seed,
                                            const char *label) {
  tg_gemm g;
  tg_case_options o;
  const int64_t n_v = variant >= 3 ? n + N_SHORT - N_SHORT_ALIGNED : n;
  init(&g, stream_k_types(kinfo, variant), m, n_v, k);
  g.kernel = kinfo->name;
  defaults(&o, seed);
  o.allow_refusal = 1;
  o.determinism = 1;
  o.gpu_oracle = 1;
  if (variant == 0 || variant == 3 || variant == 5 || variant == STREAM_K_BLOCK_TRANSPOSED)
    o.exact = 1;
  if (variant == 5) g.epilogue = TG_EPI_BIAS_RELU;
  if (variant == 1 || variant == STREAM_K_BLOCK_TRANSPOSED)
    g.c_order = TG_COL_MAJOR; /* the transposed problem */
  if (variant == 2 || variant == 4) {
    g.beta = 0.5;
    g.epilogue = TG_EPI_BIAS_GELU;
  }
  if (variant == 2) g.c_type = g.d_type = TG_F32;
  return run(&g, &o, label);
}

/* Stream-K on the sm90 kernels. The shapes have 2a tile rows and TILE_COLS tile columns, a
 * chosen so that a·TILE_COLS items (clusters of 2 CTAs, sm_count/2 clusters) and 2a·TILE_COLS
 * (clusters of 1, sm_count) leave the last wave at most 40% full, for both cluster sizes:
 *   - a·TILE_COLS just over the clusters: one partial wave, every item split between clusters;
 *   - twice that: a full wave of whole tiles first, then the stream-K part (as 3072³ runs).
 * m and n stop short of the last tile's edge; k spans 4, 9 and 16 k-tiles (cut by the k edge,
 * a whole number of them, cut). Small-integer data makes the comparison bitwise (a partial sum
 * lost or added twice shows exactly); random data checks the bound, the transposed problem, and
 * C, bias and GELU through both the general and the TMA epilogue (run_stream_k_variant). The
 * pingpong row never splits: its cases check that it is unaffected. */
static void test_stream_k(const tg_kernel_info *kinfo, int sm_count) {
  if (strcmp(kinfo->family, "sm90") != 0) return;
  enum { TILE_COLS = 12, M_SHORT = 37 };
  const int64_t k_tile = kinfo->tile_k;
  const int64_t ks[] = {4 * k_tile - 47, 9 * k_tile, 16 * k_tile - 24};
  const int64_t a_one_wave = (sm_count / 2 + 1 + TILE_COLS - 1) / TILE_COLS;
  const int64_t n = TILE_COLS * (int64_t)kinfo->tile_n - N_SHORT;
  long ran = 0;
  for (int waves = 1; waves <= 2; ++waves) {
    const int64_t m = 2 * waves * a_one_wave * kinfo->tile_m - M_SHORT;
    for (int i = 0; i < 3; ++i)
      for (int variant = 0; variant < STREAM_K_VARIANTS; ++variant) {
        if (waves == 2 && i == 1) continue; /* the second shape at two k depths is enough */
        if (g_quick && i > 0) continue;     /* the cut k edge only */
        if (!stream_k_variant_runs(kinfo, variant)) continue;
        const uint64_t seed = 900000u + (uint64_t)((waves - 1) * 100 + i * 10 + variant);
        if (run_stream_k_variant(kinfo, variant, m, n, ks[i], seed, "stream-K") == TG_CASE_PASS)
          ++ran;
      }
  }
  /* A memory-bound single wave (decode: M far below the tile, TILE_COLS items against up to
   * sm_count clusters) is spread over up to 4 clusters per item (TG_SM90_SPREAD_MAX_SPLIT):
   * each finisher collects up to 3 partial sums, and shares start and end inside items. k is
   * deep enough for every share to hold 4 k-tiles even on sm_count clusters. */
  enum { DECODE_M = 40, DECODE_MIN_SHARE = 4 };
  const int64_t decode_k_tiles = (DECODE_MIN_SHARE * sm_count + TILE_COLS - 1) / TILE_COLS;
  for (int variant = 0; variant < STREAM_K_VARIANTS; ++variant) {
    if ((variant == 2 && g_quick) || !stream_k_variant_runs(kinfo, variant)) continue;
    if (run_stream_k_variant(kinfo, variant, DECODE_M, n, decode_k_tiles * k_tile - 24,
                             910000u + (uint64_t)variant, "stream-K decode") == TG_CASE_PASS)
      ++ran;
  }
  printf("stream-K    %-28s %ld cases ran\n", kinfo->name, ran);
}

/* The GPU oracle agrees with the CPU oracle (both fp64) to rounding of the sums. */
static void test_gpu_oracle(void) {
  for (int t = 0; t < TYPE_COUNT; ++t)
    for (int corder = 0; corder < 2; ++corder) {
      tg_gemm g;
      init(&g, &k_types[t], 70, 45, 130);
      g.c_order = corder ? TG_COL_MAJOR : TG_ROW_MAJOR;
      g.a_order = TG_COL_MAJOR;
      g.batch = 2;
      g.alpha = 1.5;
      g.beta = 0.25;
      g.epilogue = TG_EPI_BIAS_GELU;
      g.bias_type = TG_BF16;
      const int64_t na = 70 * 130 * 2, nb = 130 * 45 * 2, nc = 70 * 45 * 2;
      const size_t ea = tg_dtype_size(g.a_type), eb = tg_dtype_size(g.b_type),
                   ec = tg_dtype_size(g.c_type);
      unsigned char *A = malloc((size_t)na * ea), *B = malloc((size_t)nb * eb),
                    *C = malloc((size_t)nc * ec);
      unsigned char bias[45 * 2];
      double *ref = malloc(nc * sizeof(double)), *mag = malloc(nc * sizeof(double));
      double *gref = malloc(nc * sizeof(double)), *gmag = malloc(nc * sizeof(double));
      for (int64_t i = 0; i < na; ++i)
        tg_host_store(A, i, g.a_type, tg_random_value(1, i, g.a_type, 0));
      for (int64_t i = 0; i < nb; ++i)
        tg_host_store(B, i, g.b_type, tg_random_value(2, i, g.b_type, 0));
      for (int64_t i = 0; i < nc; ++i)
        tg_host_store(C, i, g.c_type, tg_random_value(3, i, g.c_type, 0));
      for (int64_t i = 0; i < 45; ++i)
        tg_host_store(bias, i, TG_BF16, tg_random_value(4, i, TG_BF16, 0));
      /* fp8 scales of the type set, per batch, positive and of varied size. */
      const int64_t nsa = tg_scale_count(&g, 'a'), nsb = tg_scale_count(&g, 'b');
      float *sa = malloc((size_t)(nsa + 1) * sizeof(float));
      float *sb = malloc((size_t)(nsb + 1) * sizeof(float));
      for (int64_t i = 0; i < nsa; ++i) sa[i] = tg_scale_value(5, i, 0);
      for (int64_t i = 0; i < nsb; ++i) sb[i] = tg_scale_value(6, i, 0);
      tg_cpu_reference_scaled(&g, A, B, C, bias, sa, sb, ref, mag);
      float *dsa = NULL, *dsb = NULL;
      cudaMalloc((void **)&dsa, (size_t)(nsa + 1) * sizeof(float));
      cudaMalloc((void **)&dsb, (size_t)(nsb + 1) * sizeof(float));
      cudaMemcpy(dsa, sa, (size_t)nsa * sizeof(float), cudaMemcpyHostToDevice);
      cudaMemcpy(dsb, sb, (size_t)nsb * sizeof(float), cudaMemcpyHostToDevice);
      g.scale_a = dsa;
      g.scale_b = dsb;
      void *dA, *dB, *dC, *dbias;
      double *dref, *dmag;
      cudaMalloc(&dA, (size_t)na * ea);
      cudaMalloc(&dB, (size_t)nb * eb);
      cudaMalloc(&dC, (size_t)nc * ec);
      cudaMalloc(&dbias, sizeof bias);
      cudaMalloc((void **)&dref, nc * sizeof(double));
      cudaMalloc((void **)&dmag, nc * sizeof(double));
      cudaMemcpy(dA, A, (size_t)na * ea, cudaMemcpyHostToDevice);
      cudaMemcpy(dB, B, (size_t)nb * eb, cudaMemcpyHostToDevice);
      cudaMemcpy(dC, C, (size_t)nc * ec, cudaMemcpyHostToDevice);
      cudaMemcpy(dbias, bias, sizeof bias, cudaMemcpyHostToDevice);
      g.bias = dbias;
      CHECK_MSG(tg_reference(h, &g, dA, dB, dC, dref, dmag, 0) == TG_OK, "%s", tg_last_error(h));
      cudaMemcpy(gref, dref, nc * sizeof(double), cudaMemcpyDeviceToHost);
      cudaMemcpy(gmag, dmag, nc * sizeof(double), cudaMemcpyDeviceToHost);
      int bad = 0;
      for (int64_t i = 0; i < nc; ++i)
        if (fabs(gref[i] - ref[i]) > 1e-12 * (mag[i] + 1e-300) ||
            fabs(gmag[i] - mag[i]) > 1e-12 * mag[i])
          ++bad;
      CHECK_MSG(bad == 0, "GPU oracle differs from the CPU oracle in %d elements (%s, c_order %d)",
                bad, k_types[t].name, corder);
      cudaFree(dA);
      cudaFree(dB);
      cudaFree(dC);
      cudaFree(dbias);
      cudaFree(dref);
      cudaFree(dmag);
      cudaFree(dsa);
      cudaFree(dsb);
      free(sa);
      free(sb);
      free(A);
      free(B);
      free(C);
      free(ref);
      free(mag);
      free(gref);
      free(gmag);
    }
}

int main(int argc, char **argv) {
  const char *only = NULL;
  int stream_k_only = 0, part = 0, parts = 1, kernels_run = 0;
  char part_tail;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) only = argv[++i];
    else if (strcmp(argv[i], "--stream-k") == 0) stream_k_only = 1;
    else if (strcmp(argv[i], "--quick") == 0) g_quick = 1;
    else if (strcmp(argv[i], "--part") == 0 && i + 1 < argc &&
             sscanf(argv[i + 1], "%d/%d%c", &part, &parts, &part_tail) == 2 && parts > 0 &&
             part >= 0 && part < parts)
      ++i;
    else {
      fprintf(stderr, "usage: %s [--kernel NAME] [--part P/N] [--stream-k] [--quick]\n", argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_gpu_features");
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  int sm_count = 0, dev = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev);
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (only && strcmp(only, k.name) != 0) continue;
    if (i % parts != part) continue;
    ++kernels_run;
    if (!stream_k_only) {
      test_tile_edges(&k);
      test_aligned_epilogues(&k);
      test_tf32_rounding(&k);
      test_block_scales(&k);
    }
    test_stream_k(&k, sm_count);
  }
  if (!only && !stream_k_only && part == 0) {
    test_batches();
    test_epilogues();
    test_alignment_and_ld();
    test_special_scalars();
    test_gpu_oracle();
  }
  /* A misspelt --kernel, or a part past the registry's end, must not pass on no cases. */
  CHECK_MSG(kernels_run > 0 || (!only && part == 0),
            "no kernel selected (--kernel %s, --part %d/%d)", only ? only : "-", part, parts);
  printf("features: %ld cases, %ld refused by forced kernels\n", g_cases, g_refused);
  tg_destroy(h);
  return tg_test_finish("test_gpu_features");
}
