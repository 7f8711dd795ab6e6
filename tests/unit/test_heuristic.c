/*
 * test_heuristic.c — what the planner's heuristic guarantees, with no GPU (virtual handles and
 * no cache): the lowest-cost plan wins across families; wave quantization sends small M·N to
 * smaller tiles and, with a long K, to split-K rows; large squares take the 128×256-class
 * tiles of the fastest family on the architecture; a short K goes to a row that hides the
 * per-tile epilogue (smaller tile_overhead_k), and so does a heavy epilogue (C, GELU) at short
 * K; unaligned operands are repacked rather
 * than sent to the reference kernel; fp32 with fp32 math goes to the f32 family in every layout
 * and alignment (to `ref` in a build without it). Only what the cost model really
 * implies is asserted, so refitting its constants from a sweep keeps these true.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tilegemm.h"
#include "validate.h"

#define H100_SM 90
#define H100_SMS 132
#define A100_SM 80
#define A100_SMS 108
/* The 128×256 (or 256×128) class of CTA tiles. */
#define LARGE_TILE_AREA (128 * 256)

static tg_handle *g_h90, *g_h80;

static int have_family(const char *family) {
  for (int i = 0; i < tg_registry_count(); ++i)
    if (strcmp(tg_registry_at(i)->family, family) == 0) return 1;
  return 0;
}

static void request(tg_gemm *g, int64_t m, int64_t n, int64_t k, tg_dtype t) {
  tg_gemm_init(g, m, n, k, t, t == TG_S8 ? TG_S32 : t);
  g->b_order = TG_COL_MAJOR;
}

/* The row the planner picks for g on h. */
static const tg_kernel *pick(tg_handle *h, const tg_gemm *g) {
  tg_status s = tg_check(h, g);
  CHECK_MSG(s == TG_OK, "tg_check: %s", tg_last_error(h));
  return s == TG_OK ? tg_registry_find(tg_last_kernel(h)) : NULL;
}

static int area(const tg_kernel *k) { return k ? k->tile_m * k->tile_n : 0; }

/* The canonical problem of g on a device of compute capability sm with sms SMs, with aligned
 * stand-in operand addresses. */
static void build(const tg_gemm *g, int sm, int sms, tg_problem *p) {
  tg_layout L;
  CHECK(tg_validate_gemm(NULL, "test", g, &L) == TG_OK);
  tg_problem_build(p, g, &L, (void *)(uintptr_t)4096, (void *)(uintptr_t)4096, NULL,
                   (void *)(uintptr_t)4096, sm, sms);
}

/* The chosen plan has the lowest cost of every auto-pickable row that can serve. */
static void check_minimal(int sm, int sms, const tg_gemm *g) {
  tg_problem p;
  tg_plan chosen, other;
  char why[256];
  build(g, sm, sms, &p);
  CHECK(tg_plan_choose(&p, NULL, NULL, &chosen, why, sizeof why) == TG_OK);
  const double best = tg_plan_cost(&chosen, &p);
  for (int i = 0; i < tg_registry_count(); ++i) {
    const tg_kernel *k = tg_registry_at(i);
    if (!k->auto_pick || tg_plan_for_kernel(k, &p, &other, why, sizeof why) != TG_OK) continue;
    CHECK_MSG(tg_plan_cost(&other, &p) >= best,
              "%s is cheaper than the chosen %s for %lldx%lldx%lld", k->name, chosen.kernel->name,
              (long long)g->m, (long long)g->n, (long long)g->k);
  }
}

static void test_family_speeds(void) {
  CHECK(tg_plan_family_speed("sm90", H100_SM) == 1.0);
  CHECK(tg_plan_family_speed("sm80", A100_SM) == 1.0);
  CHECK(tg_plan_family_speed("sm80", H100_SM) < 1.0 && tg_plan_family_speed("sm80", H100_SM) > 0.3);
  CHECK(tg_plan_family_speed("ref", H100_SM) < 0.05 && tg_plan_family_speed("ref", A100_SM) < 0.05);
}

static void test_large_squares(void) {
  tg_gemm g;
  const int64_t sizes[] = {4096, 8192};
  for (int i = 0; i < 2; ++i) {
    request(&g, sizes[i], sizes[i], sizes[i], TG_BF16);
    const tg_kernel *k = pick(g_h90, &g);
    if (have_family("sm90"))
      CHECK_MSG(k && strcmp(k->family, "sm90") == 0 && area(k) == LARGE_TILE_AREA,
                "sm_90 %lld^3: %s", (long long)sizes[i], k ? k->name : "-");
    k = pick(g_h80, &g);
    if (have_family("sm80"))
      CHECK_MSG(k && strcmp(k->family, "sm80") == 0 && area(k) == LARGE_TILE_AREA,
                "sm_80 %lld^3: %s", (long long)sizes[i], k ? k->name : "-");
    check_minimal(H100_SM, H100_SMS, &g);
    check_minimal(A100_SM, A100_SMS, &g);
  }
}

/* 1024³ on 132 SMs: 128×256 tiles make 32 CTAs, a quarter of a wave; smaller tiles win. */
static void test_wave_quantization(void) {
  tg_gemm g;
  request(&g, 1024, 1024, 1024, TG_BF16);
  const tg_kernel *k = pick(g_h90, &g);
  if (have_family("sm90") || have_family("sm80"))
    CHECK_MSG(k && area(k) < LARGE_TILE_AREA, "1024^3 on sm_90: %s", k ? k->name : "-");
  check_minimal(H100_SM, H100_SMS, &g);
}

/* 1536³ on 132 SMs: 128×192 tiles make 96 CTAs (36 SMs idle) and 128×128 tiles 144 (a second
 * wave of 12); the pick fills one wave nearly whole (128×144: 12 × 11 = 132 tiles). */
static void test_full_wave_width(void) {
  if (!have_family("sm90")) return;
  tg_gemm g;
  request(&g, 1536, 1536, 1536, TG_BF16);
  const tg_kernel *k = pick(g_h90, &g);
  CHECK(k != NULL);
  if (!k) return;
  const int64_t tiles = ((1536 + k->tile_m - 1) / k->tile_m) * ((1536 + k->tile_n - 1) / k->tile_n);
  CHECK_MSG(tiles <= H100_SMS && tiles * 10 >= H100_SMS * 9, "1536^3 on sm_90: %s, %lld tiles",
            k->name, (long long)tiles);
  check_minimal(H100_SM, H100_SMS, &g);
  /* ... but not where a lone-CTA row fills a single wave better: at 1280³ (90 tiles against
   * 100) and 1408×1536×2048, where 11 tile rows leave a spare CTA in 11 of its clusters of 2,
   * 128×128 ran faster (docs/history/sm90_notebook.md, "144-wide tiles"). */
  const int64_t others[][3] = {{1280, 1280, 1280}, {1408, 1536, 2048}};
  for (int i = 0; i < 2; ++i) {
    request(&g, others[i][0], others[i][1], others[i][2], TG_BF16);
    k = pick(g_h90, &g);
    CHECK_MSG(k && strcmp(k->name, "sm90_128x144x64") != 0, "%lldx%lldx%lld on sm_90: %s",
              (long long)others[i][0], (long long)others[i][1], (long long)others[i][2],
              k ? k->name : "-");
    check_minimal(H100_SM, H100_SMS, &g);
  }
}

/* 2560³ on 132 SMs: 128×256 tiles end in a half-idle second wave (200 tiles), 128×144 need a
 * third (360); 128×208 tiles fill two waves nearly whole (20 × 13 = 260 tiles), and 1792³ one
 * (126 tiles against 98 of 128×256); 128×208 ran those shapes faster. Where 208 fills the waves
 * no better it stays out, and ran slower: 2048³ (160 tiles, 1.2 waves), 1664×4096×4096, 3072³
 * and 1536³ (docs/history/sm90_notebook.md, "208-wide tiles"). */
static void test_two_wave_width(void) {
  if (!have_family("sm90")) return;
  enum { WIDE = 4, OTHERS = 4 };
  const int64_t wide[WIDE][3] = {
      {2560, 2560, 2560}, {1792, 1792, 1792}, {2560, 2560, 8192}, {1792, 1792, 4096}};
  const int64_t others[OTHERS][3] = {
      {2048, 2048, 2048}, {1664, 4096, 4096}, {3072, 3072, 3072}, {1536, 1536, 1536}};
  tg_gemm g;
  for (int i = 0; i < WIDE + OTHERS; ++i) {
    const int64_t *s = i < WIDE ? wide[i] : others[i - WIDE];
    request(&g, s[0], s[1], s[2], TG_BF16);
    const tg_kernel *k = pick(g_h90, &g);
    const int is_208 = k && strcmp(k->name, "sm90_128x208x64") == 0;
    CHECK_MSG(k && is_208 == (i < WIDE), "%lldx%lldx%lld on sm_90: %s", (long long)s[0],
              (long long)s[1], (long long)s[2], k ? k->name : "-");
    check_minimal(H100_SM, H100_SMS, &g);
  }
}

/* 4096×14336×4096 on 132 SMs: 128×256 tiles make 896 items of two in 13.6 waves of 66 clusters;
 * 256×160 tiles make 720 items of two in 10.9, and ran it and 5120³ faster. The row holds the
 * plain epilogue only, so with beta = 1 or bias+GELU the same shapes stay on 128×256; shapes
 * that 128×256 tiles fill evenly (4096³, 8192×8192×1024, 8192³) never take it. */
static void test_long_n_width(void) {
  if (!have_family("sm90")) return;
  enum { LONG = 2, EVEN = 3 };
  const int64_t long_n[LONG][3] = {{4096, 14336, 4096}, {5120, 5120, 5120}};
  const int64_t even[EVEN][3] = {{4096, 4096, 4096}, {8192, 8192, 1024}, {8192, 8192, 8192}};
  tg_gemm g;
  for (int i = 0; i < LONG + EVEN; ++i) {
    const int64_t *s = i < LONG ? long_n[i] : even[i - LONG];
    for (int variant = 0; variant < 3; ++variant) {
      request(&g, s[0], s[1], s[2], TG_BF16);
      if (variant == 1) g.beta = 1.0;
      if (variant == 2) g.epilogue = TG_EPI_BIAS_GELU;
      const tg_kernel *k = pick(g_h90, &g);
      const int is_160 = k && strcmp(k->name, "sm90_256x160x64") == 0;
      CHECK_MSG(k && is_160 == (i < LONG && variant == 0),
                "%lldx%lldx%lld (variant %d) on sm_90: %s", (long long)s[0], (long long)s[1],
                (long long)s[2], variant, k ? k->name : "-");
      check_minimal(H100_SM, H100_SMS, &g);
    }
  }
}

/* The cooperative sm90 rows count their waves themselves: 3072³ in 128×256 tiles is 144 items of
 * two tiles on 66 clusters, 2.18 waves; the last full wave and the partial one run stream-K at
 * 0.7 of the speed of whole tiles, 1 + 78 / 66 / 0.7 = 2.69 waves instead of 3, and the row asks
 * for the partial sums' workspace. 4096³ (a last wave 88% full) stays 4 whole waves. */
static void test_stream_k_waves(void) {
  const tg_kernel *k = tg_registry_find("sm90_128x256x64");
  if (!k) return;
  CHECK(k->waves != NULL && k->workspace != NULL);
  if (!k->waves || !k->workspace) return;
  const int64_t sizes[] = {3072, 4096};
  const double expect[] = {1.0 + 78.0 / 66.0 / 0.7, 4.0};
  for (int i = 0; i < 2; ++i) {
    tg_gemm g;
    tg_problem p;
    request(&g, sizes[i], sizes[i], sizes[i], TG_BF16);
    build(&g, H100_SM, H100_SMS, &p);
    const double waves = k->waves(&p);
    CHECK_MSG(waves > expect[i] - 1e-9 && waves < expect[i] + 1e-9,
              "%lld^3: %.4f waves, expected %.4f", (long long)sizes[i], waves, expect[i]);
    CHECK_MSG((k->workspace(&p) > 0) == (i == 0), "%lld^3: workspace %zu", (long long)sizes[i],
              k->workspace(&p));
  }
}

/* Small M·N, long K: a few CTAs would each walk all of K; split-K rows spread K over the SMs. */
static void test_split_k(void) {
  if (!have_family("sm80")) return;
  tg_gemm g;
  request(&g, 128, 128, 65536, TG_BF16);
  const tg_kernel *k = pick(g_h90, &g);
  CHECK_MSG(k && k->splits && strstr(k->name, "splitk"), "sm_90 128x128x65536: %s",
            k ? k->name : "-");
  k = pick(g_h80, &g);
  CHECK_MSG(k && k->splits && strstr(k->name, "splitk"), "sm_80 128x128x65536: %s",
            k ? k->name : "-");
  tg_problem p;
  tg_plan plan;
  char why[256];
  build(&g, H100_SM, H100_SMS, &p);
  CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_OK && plan.splits > 1);
  check_minimal(H100_SM, H100_SMS, &g);
  /* A large square never splits. */
  request(&g, 8192, 8192, 8192, TG_BF16);
  k = pick(g_h80, &g);
  CHECK(k && !strstr(k->name, "splitk"));
}

/* A short K makes the per-tile overhead count: 4096×4096×512 on sm_90 takes a row that hides
 * more of it (the pingpong schedule) than the row 4096³ takes. */
static void test_short_k(void) {
  if (!have_family("sm90")) return;
  tg_gemm g;
  request(&g, 4096, 4096, 4096, TG_BF16);
  const tg_kernel *deep = pick(g_h90, &g);
  request(&g, 4096, 4096, 512, TG_BF16);
  const tg_kernel *shallow = pick(g_h90, &g);
  CHECK_MSG(deep && shallow && shallow->tile_overhead_k < deep->tile_overhead_k,
            "4096x4096x512 on sm_90: %s, 4096^3: %s", shallow ? shallow->name : "-",
            deep ? deep->name : "-");
  check_minimal(H100_SM, H100_SMS, &g);
}

/* A heavy epilogue at short K goes to a row that hides more of it than the row the plain
 * request takes: on sm_90, 8192×8192×1024 bf16 runs plain on a cooperative row and with
 * bias+GELU on one with smaller overheads (the pingpong schedule). C of the inputs' type does
 * not move it: the cooperative 128×256 row reads C into a borrowed stage (the RESID epilogues),
 * which costs it 175 k per tile instead of 420, and keeps it; f32 C and D still move, as they
 * run faster on pingpong (docs/tuning.md). */
static int gelu_tile_cost_k(const tg_kernel *k) { return k->tile_overhead_k + k->gelu_overhead_k; }

static void test_heavy_epilogue(void) {
  if (!have_family("sm90")) return;
  tg_gemm g;
  request(&g, 8192, 8192, 1024, TG_BF16);
  const tg_kernel *plain = pick(g_h90, &g);
  g.beta = 1.0;
  const tg_kernel *with_c = pick(g_h90, &g);
  check_minimal(H100_SM, H100_SMS, &g);
  request(&g, 8192, 8192, 1024, TG_BF16);
  g.c_type = g.d_type = TG_F32;
  g.beta = 1.0;
  const tg_kernel *with_f32_c = pick(g_h90, &g);
  check_minimal(H100_SM, H100_SMS, &g);
  request(&g, 8192, 8192, 1024, TG_BF16);
  g.epilogue = TG_EPI_BIAS_GELU;
  const tg_kernel *gelu = pick(g_h90, &g);
  check_minimal(H100_SM, H100_SMS, &g);
  CHECK_MSG(plain && with_c && with_f32_c && gelu, "no pick");
  if (!plain || !with_c || !with_f32_c || !gelu) return;
  CHECK_MSG(with_c == plain, "beta=1: %s, plain: %s", with_c->name, plain->name);
  CHECK_MSG(with_f32_c->tile_overhead_k < plain->tile_overhead_k, "beta=1 into f32: %s, plain: %s",
            with_f32_c->name, plain->name);
  CHECK_MSG(gelu_tile_cost_k(gelu) < gelu_tile_cost_k(plain), "bias+GELU: %s, plain: %s",
            gelu->name, plain->name);
}

/* Unaligned operands (odd leading dimensions) are repacked for a fast row, not sent to ref. */
static void test_unaligned(void) {
  tg_gemm g;
  request(&g, 4095, 4097, 4093, TG_BF16);
  const tg_kernel *k = pick(g_h90, &g);
  if (have_family("sm90") || have_family("sm80"))
    CHECK_MSG(k && strcmp(k->family, "ref") != 0, "%s", k ? k->name : "-");
  check_minimal(H100_SM, H100_SMS, &g);
}

/* fp32 with fp32 math goes to the f32 family (`ref` without it), whatever the orders and
 * alignment, unless its grid cannot hold the tiles; other types to their own families. */
static void test_types(void) {
  tg_gemm g;
  const char *f32_family = have_family("f32") ? "f32" : "ref";
  request(&g, 512, 512, 512, TG_F32);
  const tg_kernel *k = pick(g_h90, &g);
  CHECK_MSG(k && strcmp(k->family, f32_family) == 0, "fp32: %s", k ? k->name : "-");
  request(&g, 4095, 4097, 4093, TG_F32);
  g.a_order = TG_COL_MAJOR;
  g.b_order = TG_ROW_MAJOR;
  k = pick(g_h80, &g);
  CHECK_MSG(k && strcmp(k->family, f32_family) == 0, "fp32, odd sizes: %s", k ? k->name : "-");
  check_minimal(A100_SM, A100_SMS, &g);
  /* More output tiles than a grid holds: the f32 rows refuse it, `ref` serves it. */
  request(&g, (int64_t)1 << 30, (int64_t)1 << 30, 16, TG_F32);
  k = pick(g_h90, &g);
  CHECK_MSG(k && strcmp(k->name, "ref") == 0, "fp32, 2^30 x 2^30: %s", k ? k->name : "-");
  if (!have_family("sm80")) return;
  request(&g, 4096, 4096, 4096, TG_F32);
  g.compute = TG_COMPUTE_TF32;
  k = pick(g_h90, &g);
  CHECK_MSG(k && (k->inputs & TG_MASK(TG_IN_TF32)) && strcmp(k->family, "ref") != 0, "tf32: %s",
            k ? k->name : "-");
  request(&g, 4096, 4096, 4096, TG_S8);
  k = pick(g_h90, &g);
  CHECK_MSG(k && (k->inputs & TG_MASK(TG_IN_S8)) && strcmp(k->family, "ref") != 0, "s8: %s",
            k ? k->name : "-");
}

int main(void) {
  CHECK(tg_create_virtual(&g_h90, H100_SM, H100_SMS) == TG_OK);
  CHECK(tg_create_virtual(&g_h80, A100_SM, A100_SMS) == TG_OK);
  test_family_speeds();
  test_large_squares();
  test_wave_quantization();
  test_full_wave_width();
  test_two_wave_width();
  test_long_n_width();
  test_stream_k_waves();
  test_split_k();
  test_heavy_epilogue();
  test_short_k();
  test_unaligned();
  test_types();
  tg_destroy(g_h90);
  tg_destroy(g_h80);
  return tg_test_finish("test_heuristic");
}
