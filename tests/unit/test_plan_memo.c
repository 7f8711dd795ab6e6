/*
 * test_plan_memo.c — the handle's memory of plans (src/plan_memo.c) never answers differently
 * from the planner, with no GPU.
 *
 * Differential: a pool of requests that differ in sizes, types, orders, leading dimensions,
 * pointer alignment, batch, beta, epilogue and forced kernel is drawn from at random; every
 * plan the memory returns must equal, byte for byte, what tg_plan_choose says for the same
 * problem at that moment. Then the key's edges one by one (pointers alone do not matter, their
 * alignment does; the forced kernel and the tuning cache's generation do), and through the
 * public API: a tg_cache_add after a remembered plan changes the choice at once.
 */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "plan_memo.h"
#include "problem_build.h"
#include "random_values.h"
#include "registry.h"
#include "tilegemm.h"
#include "tune_cache.h"
#include "validate.h"

#define H100_SM 90
#define H100_SMS 132
#define POOL 48
#define DRAWS 4000
#define BASE_ADDRESS 0x10000

/* The test's draws: each the shared mixer (random_values.h) of its index, from a seed of its
 * own. */
static uint64_t g_draws = 0x9e3779b97f4a7c15ull;
static unsigned draw(unsigned n) { return (unsigned)(tg_mix64(++g_draws) % n); }

typedef struct request {
  tg_gemm g;
  uintptr_t offset_a, offset_b, offset_c; /* byte offsets from an aligned base */
  const char *forced;
} request;

static void random_request(request *r) {
  static const int64_t sizes[] = {1, 7, 64, 128, 1000, 4096};
  static const tg_dtype types[] = {TG_F16, TG_BF16, TG_F32, TG_S8};
  static const uintptr_t offsets[] = {0, 0, 0, 2, 4, 8};
  const tg_dtype t = types[draw(4)];
  tg_gemm_init(&r->g, sizes[draw(6)], sizes[draw(6)], sizes[draw(6)], t, t == TG_S8 ? TG_S32 : t);
  r->g.a_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  r->g.b_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  r->g.c_order = draw(2) ? TG_ROW_MAJOR : TG_COL_MAJOR;
  if (draw(4) == 0) { /* padded, sometimes odd, leading dimension of A */
    const int64_t rows = r->g.a_order == TG_ROW_MAJOR ? r->g.k : r->g.m;
    r->g.lda = rows + 1 + draw(8);
  }
  r->g.batch = draw(3) == 0 ? 3 : 1;
  if (t != TG_S8) {
    r->g.beta = draw(2) ? 0.0 : 1.0;
    r->g.epilogue = draw(3) == 0 ? TG_EPI_RELU : TG_EPI_NONE;
  }
  const size_t es = tg_dtype_size(t);
  r->offset_a = offsets[draw(6)] / es * es;
  r->offset_b = offsets[draw(6)] / es * es;
  r->offset_c = 0;
  r->forced = NULL;
  if (draw(5) == 0) r->forced = tg_registry_at((int)draw((unsigned)tg_registry_count()))->name;
}

/* The problem of r with its operands at base (+ r's offsets); 0 when r is not a valid request. */
static int build(const request *r, uintptr_t base, tg_problem *p) {
  tg_layout L;
  if (tg_validate_gemm(NULL, "test", &r->g, &L) != TG_OK) return 0;
  tg_problem_build(p, &r->g, &L, (const void *)(base + r->offset_a),
                   (const void *)(base + r->offset_b), (const void *)(base + r->offset_c),
                   (void *)(base + r->offset_c), H100_SM, H100_SMS);
  return 1;
}

static void test_differential(void) {
  static request pool[POOL];
  for (int i = 0; i < POOL; ++i) random_request(&pool[i]);
  tg_plan_memo memo;
  memset(&memo, 0, sizeof memo); /* the empty memo */
  tg_tune_cache cache;
  tg_cache_init(&cache, NULL);
  long hits = 0, compared = 0;
  for (int d = 0; d < DRAWS; ++d) {
    const request *r = &pool[draw(POOL)];
    tg_problem p;
    /* The same request at another (equally aligned) address: pointers are not in the key. */
    if (!build(r, BASE_ADDRESS * (1 + draw(4)) * 16, &p) || p.k == 0) continue;
    tg_plan fresh, remembered;
    char why[256];
    const tg_status s = tg_plan_choose(&p, r->forced, &cache, &fresh, why, sizeof why);
    if (tg_plan_memo_find(&memo, &p, r->forced, cache.generation, &remembered)) {
      ++hits;
      CHECK_MSG(s == TG_OK && memcmp(&remembered, &fresh, sizeof fresh) == 0,
                "remembered plan %s differs from the planner's %s (%lldx%lldx%lld, forced %s)",
                remembered.kernel ? remembered.kernel->name : "-",
                s == TG_OK ? fresh.kernel->name : why, (long long)p.m, (long long)p.n,
                (long long)p.k, r->forced ? r->forced : "auto");
    } else if (s == TG_OK) {
      tg_plan_memo_store(&memo, &p, r->forced, cache.generation, &fresh);
    }
    ++compared;
  }
  CHECK_MSG(hits > compared / 10, "the memory answered %ld of %ld requests", hits, compared);
  tg_cache_clear(&cache);
}

static void test_key_edges(void) {
  request r;
  tg_gemm_init(&r.g, 1000, 1000, 1000, TG_BF16, TG_BF16);
  r.g.b_order = TG_COL_MAJOR;
  r.offset_a = r.offset_b = r.offset_c = 0;
  r.forced = NULL;
  tg_problem p, q;
  CHECK(build(&r, BASE_ADDRESS, &p));
  tg_plan plan, got;
  char why[256];
  CHECK(tg_plan_choose(&p, NULL, NULL, &plan, why, sizeof why) == TG_OK);
  tg_plan_memo memo;
  memset(&memo, 0, sizeof memo); /* the empty memo */
  CHECK(!tg_plan_memo_find(&memo, &p, NULL, 0, &got));
  tg_plan_memo_store(&memo, &p, NULL, 0, &plan);
  CHECK(tg_plan_memo_find(&memo, &p, NULL, 0, &got) && memcmp(&got, &plan, sizeof plan) == 0);
  CHECK(tg_plan_memo_find(&memo, &p, "auto", 0, &got)); /* "auto" is the automatic choice */
  CHECK(build(&r, BASE_ADDRESS * 7 * 16, &q) && tg_plan_memo_find(&memo, &q, NULL, 0, &got));
  r.offset_a = 2; /* A's pointer 2-byte aligned: planning reads that */
  CHECK(build(&r, BASE_ADDRESS, &q) && q.align_a != p.align_a &&
        !tg_plan_memo_find(&memo, &q, NULL, 0, &got));
  CHECK(!tg_plan_memo_find(&memo, &p, NULL, 1, &got));            /* the cache changed */
  CHECK(!tg_plan_memo_find(&memo, &p, "sm80_64x64x64", 0, &got)); /* a forced kernel */
  char long_name[TG_PLAN_MEMO_NAME_BYTES + 8];
  memset(long_name, 'x', sizeof long_name - 1);
  long_name[sizeof long_name - 1] = '\0';
  tg_plan_memo_store(&memo, &p, long_name, 0, &plan); /* too long to remember: not stored */
  CHECK(!tg_plan_memo_find(&memo, &p, long_name, 0, &got));
  /* The oldest plan gives way once the memory is full. */
  for (int i = 0; i < TG_PLAN_MEMO_ENTRIES; ++i) {
    r.offset_a = 0;
    r.g.m = 2000 + i;
    CHECK(build(&r, BASE_ADDRESS, &q));
    tg_plan_memo_store(&memo, &q, NULL, 0, &plan);
  }
  CHECK(!tg_plan_memo_find(&memo, &p, NULL, 0, &got));
}

/* Through the handle: a remembered choice yields at once to a tuning-cache entry added after it. */
static void test_cache_add_invalidates(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, H100_SM, H100_SMS) == TG_OK);
  if (!h) return;
  tg_gemm g;
  tg_gemm_init(&g, 4096, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  CHECK(tg_check(h, &g) == TG_OK);
  const char *first = tg_last_kernel(h);
  CHECK(tg_check(h, &g) == TG_OK && strcmp(tg_last_kernel(h), first) == 0);
  /* Any other tunable row that serves the request. */
  const char *other = NULL;
  for (int i = 0; i < tg_registry_count() && !other; ++i) {
    const tg_kernel *k = tg_registry_at(i);
    tg_gemm forced = g;
    forced.kernel = k->name;
    if (strcmp(k->name, first) != 0 && tg_plan_tunable(k) && tg_check(h, &forced) == TG_OK)
      other = k->name;
  }
  CHECK(other != NULL);
  if (other) {
    CHECK(tg_cache_add(h, &g, other, 1.0) == TG_OK);
    CHECK_MSG(tg_check(h, &g) == TG_OK && strcmp(tg_last_kernel(h), other) == 0,
              "after tg_cache_add(%s) the planner still says %s", other, tg_last_kernel(h));
  }
  tg_destroy(h);
}

int main(void) {
  test_differential();
  test_key_edges();
  test_cache_add_invalidates();
  return tg_test_finish("test_plan_memo");
}
