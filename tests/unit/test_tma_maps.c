/*
 * test_tma_maps.c — every request a TMA row accepts launches: random valid requests go through
 * each such row's check (after the planner's repacking, as tg_matmul would run them), and the
 * tensor maps its launch would encode must lie within the driver's limits (tma_desc.h). Also the
 * limits themselves, one by one, and the requests that once ended in a CUDA error. No GPU.
 *
 *   test_tma_maps [--seed S] [--count N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tma_desc.h"
#include "validate.h"

#define DEFAULT_COUNT 20000
#define MAX_MAPS 8
#define H100_SMS 132

static uint64_t g_state;

static uint64_t next_random(void) { /* xorshift64* */
  g_state ^= g_state >> 12;
  g_state ^= g_state << 25;
  g_state ^= g_state >> 27;
  return g_state * 2685821657736338717ull;
}

/* Uniform in [0, n). */
static int64_t pick(int64_t n) { return (int64_t)(next_random() % (uint64_t)n); }

/* Sizes from 1 to 5000, half of them below 200 (edge tiles, single tiles). */
static int64_t pick_dim(void) { return pick(2) ? 1 + pick(200) : 1 + pick(5000); }

/* A leading dimension of `packed` or more: packed, padded to 8 elements, or padded oddly. */
static int64_t pick_ld(int64_t packed) {
  switch (pick(4)) {
    case 0: return packed;
    case 1: return (packed + 7) / 8 * 8;
    case 2: return packed + 1 + pick(20);
    default: return (packed + 7) / 8 * 8 + 8 * pick(4);
  }
}

/* A batch stride: packed (0), broadcast (inputs), padded, odd, or below one matrix (inputs may
 * overlap between batches). */
static int64_t pick_stride(int may_broadcast, int64_t one) {
  switch (pick(6)) {
    case 0: return 0;
    case 1: return may_broadcast ? TG_BATCH_BROADCAST : 0;
    case 2: return one + pick(50);
    case 3: return (one + 7) / 8 * 8 + 8 * pick(8);
    case 4: return 1 + 2 * pick(1 << 16);
    default: return may_broadcast ? 8 * (1 + pick(64)) : one;
  }
}

static int64_t extent(tg_order order, int64_t rows, int64_t cols, int64_t ld) {
  return order == TG_ROW_MAJOR ? (rows - 1) * ld + cols : (cols - 1) * ld + rows;
}

static tg_dtype pick_float(void) {
  static const tg_dtype t[] = {TG_F32, TG_F16, TG_BF16};
  return t[pick(3)];
}

/* An address 256-byte aligned plus a few elements (often none). */
static const void *pick_pointer(int slot, size_t es) {
  const uintptr_t base = ((uintptr_t)(slot + 1) << 32) + (uintptr_t)pick(1 << 16) * 256;
  return (const void *)(base + (pick(3) == 0 ? (uintptr_t)pick(8) * es : 0));
}

static void random_request(tg_gemm *g) {
  tg_gemm_init(g, pick_dim(), pick_dim(), pick_dim(), pick(2) ? TG_F16 : TG_BF16, pick_float());
  if (pick(8) == 0) { /* f32 inputs: full fp32 math (no TMA row takes it) or tf32 */
    g->a_type = g->b_type = TG_F32;
    if (pick(2)) g->compute = TG_COMPUTE_TF32;
  } else if (pick(4) == 0) { /* fp8, any pairing, scaling and accumulation */
    g->a_type = pick(2) ? TG_E4M3 : TG_E5M2;
    g->b_type = pick(2) ? TG_E4M3 : TG_E5M2;
    g->scale_mode = (tg_scale_mode)pick(4);
    g->fp8_fast_accum = (int)pick(2);
  }
  g->c_type = pick_float();
  g->batch = pick(3) ? 1 : 1 + pick(4);
  g->a_order = (tg_order)pick(2);
  g->b_order = (tg_order)pick(2);
  g->c_order = (tg_order)pick(2);
  g->lda = pick_ld(g->a_order == TG_ROW_MAJOR ? g->k : g->m);
  g->ldb = pick_ld(g->b_order == TG_ROW_MAJOR ? g->n : g->k);
  g->ldc = pick_ld(g->c_order == TG_ROW_MAJOR ? g->n : g->m);
  g->ldd = pick(2) ? g->ldc : pick_ld(g->c_order == TG_ROW_MAJOR ? g->n : g->m);
  g->batch_stride_a = pick_stride(1, extent(g->a_order, g->m, g->k, g->lda));
  g->batch_stride_b = pick_stride(1, extent(g->b_order, g->k, g->n, g->ldb));
  g->batch_stride_c = pick_stride(1, extent(g->c_order, g->m, g->n, g->ldc));
  g->batch_stride_d = pick_stride(0, extent(g->c_order, g->m, g->n, g->ldd));
  if (g->batch > 1 && g->batch_stride_d != 0 &&
      g->batch_stride_d < extent(g->c_order, g->m, g->n, g->ldd))
    g->batch_stride_d = 0; /* batches of D may not overlap */
  g->beta = pick(2) ? 0.0 : 0.5;
  g->epilogue = (tg_epilogue)pick(6);
  g->bias_type = pick_float();
  if (pick(10) == 0) { /* int8 into int32 (exact when plain) or saturating int8 */
    g->a_type = g->b_type = TG_S8;
    g->compute = TG_COMPUTE_S32;
    g->scale_mode = TG_SCALE_NONE;
    g->fp8_fast_accum = 0;
    g->c_type = g->d_type = pick(3) ? TG_S32 : TG_S8;
    g->alpha = 1.0;
  }
  if (pick(50) == 0)
    g->lda = ((int64_t)1 << 39) / (int64_t)tg_dtype_size(g->a_type) + 8; /* past TMA's strides */
  if (pick(50) == 0) g->ldd = ((int64_t)1 << 40) / (int64_t)tg_dtype_size(g->d_type);
}

static int row_accepts(const tg_kernel *k, const tg_problem *p, tg_problem *q) {
  tg_plan plan;
  if (tg_plan_for_kernel(k, p, &plan, NULL, 0) != TG_OK) return 0;
  *q = *p;
  tg_plan_apply(&plan, q);
  return 1;
}

static void test_random_requests(uint64_t seed, long count) {
  g_state = seed ? seed : 1;
  const int rows = tg_registry_count();
  long *accepted = (long *)calloc((size_t)rows, sizeof(long));
  long valid = 0, tma_served = 0;
  for (long i = 0; i < count; ++i) {
    tg_gemm g;
    random_request(&g);
    tg_layout L;
    if (tg_validate_gemm(NULL, "test", &g, &L) != TG_OK) continue;
    g.bias = tg_epilogue_has_bias(g.epilogue) ? pick_pointer(4, tg_dtype_size(g.bias_type)) : NULL;
    tg_problem p;
    tg_problem_build(&p, &g, &L, pick_pointer(0, tg_dtype_size(g.a_type)),
                     pick_pointer(1, tg_dtype_size(g.b_type)),
                     pick_pointer(2, tg_dtype_size(g.c_type)),
                     (void *)pick_pointer(3, tg_dtype_size(g.d_type)), 90, H100_SMS);
    if (p.k == 0) continue;
    ++valid;
    tg_plan chosen;
    char why[256];
    CHECK_MSG(tg_plan_choose(&p, NULL, NULL, &chosen, why, sizeof why) == TG_OK, "request %ld: %s",
              i, why);
    int served = 0;
    for (int r = 0; r < rows; ++r) {
      const tg_kernel *k = tg_registry_at(r);
      tg_problem q;
      if (!k->tma_maps || !row_accepts(k, &p, &q)) continue;
      tg_tma_desc maps[MAX_MAPS];
      const int n = k->tma_maps(&q, maps, MAX_MAPS);
      CHECK_MSG(n >= 2, "seed %llu request %ld: %s accepts it but describes %d maps",
                (unsigned long long)seed, i, k->name, n);
      for (int j = 0; j < n; ++j) {
        const int ok = tg_tma_desc_valid(&maps[j], why, sizeof why);
        CHECK_MSG(
            ok,
            "seed %llu request %ld (m=%lld n=%lld k=%lld batch=%lld): %s accepts it, map %d: %s",
            (unsigned long long)seed, i, (long long)g.m, (long long)g.n, (long long)g.k,
            (long long)g.batch, k->name, j, why);
      }
      ++accepted[r];
      served = 1;
    }
    tma_served += served;
  }
  printf("tma maps: seed %llu, %ld requests, %ld valid, %ld served by a TMA row\n",
         (unsigned long long)seed, count, valid, tma_served);
  /* Not vacuous: every TMA row took its share (256x160 holds the plain epilogue only). */
  for (int r = 0; r < rows; ++r) {
    const tg_kernel *k = tg_registry_at(r);
    if (!k->tma_maps) continue;
    printf("  %-22s accepted %ld\n", k->name, accepted[r]);
    CHECK_MSG(accepted[r] > count / 1000, "%s accepted only %ld requests", k->name, accepted[r]);
  }
  free(accepted);
}

/* How many TMA rows take request *g (at addresses far apart), each with every map valid and, when
 * maps_expected > 0, that many maps. */
static int rows_taking(const tg_gemm *g, int maps_expected) {
  tg_layout L;
  CHECK(tg_validate_gemm(NULL, "test", g, &L) == TG_OK);
  tg_problem p;
  tg_problem_build(&p, g, &L, (const void *)0x100000, (const void *)0x200000, NULL,
                   (void *)0x300000, 90, H100_SMS);
  int rows = 0;
  for (int r = 0, n = tg_registry_count(); r < n; ++r) {
    const tg_kernel *k = tg_registry_at(r);
    tg_problem q;
    if (!k->tma_maps || !row_accepts(k, &p, &q)) continue;
    tg_tma_desc maps[MAX_MAPS];
    const int count = k->tma_maps(&q, maps, MAX_MAPS);
    for (int j = 0; j < count; ++j)
      CHECK_MSG(tg_tma_desc_valid(&maps[j], NULL, 0), "%s map %d", k->name, j);
    CHECK_MSG(maps_expected <= 0 || count == maps_expected, "%s: %d maps, expected %d", k->name,
              count, maps_expected);
    ++rows;
  }
  return rows;
}

/* The requests of the reliability report that ended in TG_ERR_CUDA: batch 1 with a batch stride
 * that is not a multiple of 16 bytes, which the map must not carry. */
static void test_unused_batch_stride(void) {
  tg_gemm g;
  tg_gemm_init(&g, 1000, 63, 1000, TG_BF16, TG_BF16);
  g.c_order = TG_COL_MAJOR;
  g.ldd = 1000;
  g.batch_stride_d = 63005;
  g.batch_stride_a = 1000 * 1000 + 3;
  CHECK(rows_taking(&g, 0) > 0);
  const tg_tma_desc d =
      tg_tma_desc_make((const void *)0x1000, TG_BF16, 1000, 63, 1000, 1, 63005, 64, 16, 128);
  CHECK(d.dims[2] == 1 && d.strides[1] == 1000 * 63 * 2);
  CHECK(tg_tma_desc_valid(&d, NULL, 0));
}

/* A row of D that ends inside a 16-byte piece (n = 303 bf16, ldd = 304) once had its TMA store
 * overwrite the padding after it: the rows now store such a D without TMA (A's and B's maps
 * only), and still take it. */
static void test_store_granule(void) {
  tg_gemm g;
  tg_gemm_init(&g, 474, 303, 101, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  g.ldd = 304;
  CHECK(rows_taking(&g, 2) >= 9); /* all but the plain-epilogue-only row */
}

/* Each limit of cuTensorMapEncodeTiled, broken one at a time. */
static void test_limits(void) {
  const tg_tma_desc good = tg_tma_desc_make((const void *)0x1000, TG_F16, 4096, 4096, 4096, 3,
                                            4096 * 4096, 64, 128, 128);
  char why[160];
  CHECK(tg_tma_desc_valid(&good, why, sizeof why));
  tg_tma_desc d = good;
  d.base = (const void *)0x1008;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "base address"));
  d = good;
  d.strides[0] = 4096 * 2 + 2;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "multiples of 16"));
  d = good;
  d.strides[1] = (int64_t)1 << 40;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "2^40"));
  d = good;
  d.dims[1] = ((int64_t)1 << 32) + 1;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "dimension"));
  d = good;
  d.dims[0] = 0;
  CHECK(!tg_tma_desc_valid(&d, NULL, 0));
  d = good;
  d.box[1] = 257;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "box side"));
  d = good;
  d.box[0] = 12; /* 24 bytes */
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "inner side must be a multiple"));
  d = good;
  d.box[0] = 128; /* 256 bytes against a 128-byte swizzle */
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "swizzle"));
  d = good;
  d.swizzle_bytes = 0;
  d.box[0] = 128;
  CHECK(tg_tma_desc_valid(&d, NULL, 0));
  d = good;
  d.strides[0] = 2 * 4000; /* a line longer than its stride */
  CHECK(!tg_tma_desc_valid(&d, NULL, 0));
  d = good;
  d.dims[0] = 4095; /* loads may end a line anywhere; a store only on a 16-byte boundary */
  CHECK(tg_tma_desc_valid(&d, NULL, 0));
  d.store = 1;
  CHECK(!tg_tma_desc_valid(&d, why, sizeof why) && strstr(why, "16-byte boundary"));
  d.dims[0] = 4096;
  CHECK(tg_tma_desc_valid(&d, NULL, 0));
}

int main(int argc, char **argv) {
  uint64_t seed = 20261128;
  long count = DEFAULT_COUNT;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--count") == 0 && i + 1 < argc) count = atol(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--seed S] [--count N]\n", argv[0]);
      return 2;
    }
  }
  test_limits();
  test_unused_batch_stride();
  test_store_granule();
  test_random_requests(seed, count);
  return tg_test_finish("test_tma_maps");
}
