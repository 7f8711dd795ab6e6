/*
 * test_gpu_tune.c — tg_tune on the GPU, on a small shape: it times the tunable kernels, picks
 * and verifies a winner, stores it; tg_matmul then runs that kernel (tg_last_kernel) and is
 * right; the saved cache gives the same choice in a new handle. Also: the library's own
 * comparison kernel (kernels/ref/ref_compare.cu) agrees with the tools' verifier, and finds a
 * planted wrong element and unwritten (NaN) output. TILEGEMM_CACHE points into the build tree
 * (tests/CMakeLists.txt), so the user's cache is never read or written.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device_tools.h"
#include "plan.h"
#include "ref_compare.h"
#include "registry.h"
#include "tilegemm.h"
#include "tolerance.h"

#define M 256
#define N 512
#define K 384
#define SEED 7
#define PATH_BYTES 1024
/* The library's and the tools' comparisons compute the same ratios, up to rounding. */
#define RATIO_AGREEMENT 1e-9

typedef struct buffers {
  void *a, *b, *c, *d;
  double *ref, *mag;
} buffers;

static int alloc(buffers *x, const tg_gemm *g) {
  memset(x, 0, sizeof *x);
  const size_t ea = tg_dtype_size(g->a_type), ed = tg_dtype_size(g->d_type);
  const size_t mn = (size_t)(g->m * g->n * g->batch);
  if (cudaMalloc(&x->a, (size_t)(g->m * g->k * g->batch) * ea) != cudaSuccess ||
      cudaMalloc(&x->b, (size_t)(g->k * g->n * g->batch) * ea) != cudaSuccess ||
      cudaMalloc(&x->c, mn * ed) != cudaSuccess || cudaMalloc(&x->d, mn * ed) != cudaSuccess ||
      cudaMalloc((void **)&x->ref, mn * sizeof(double)) != cudaSuccess ||
      cudaMalloc((void **)&x->mag, mn * sizeof(double)) != cudaSuccess)
    return -1;
  if (tg_fill_random_device(x->a, g->m * g->k * g->batch, g->a_type, SEED + 1, 0, 0) !=
          cudaSuccess ||
      tg_fill_random_device(x->b, g->k * g->n * g->batch, g->b_type, SEED + 2, 0, 0) !=
          cudaSuccess ||
      tg_fill_random_device(x->c, (int64_t)mn, g->c_type, SEED + 3, 0, 0) != cudaSuccess)
    return -1;
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

static void release(buffers *x) {
  cudaFree(x->a);
  cudaFree(x->b);
  cudaFree(x->c);
  cudaFree(x->d);
  cudaFree(x->ref);
  cudaFree(x->mag);
}

/* D against the oracle with the tools' verifier: the worst error/bound. */
static double tools_check(tg_handle *h, const tg_gemm *g, const buffers *x, const void *c) {
  tg_verify_result v;
  CHECK(tg_reference(h, g, x->a, x->b, c, x->ref, x->mag, 0) == TG_OK);
  CHECK(tg_verify_device(g, x->d, x->ref, x->mag, tg_tolerance_make(g, 0), &v, 0) == cudaSuccess);
  CHECK_MSG(v.failures == 0, "%lld failures, worst %.3g (kernel %s)", (long long)v.failures,
            v.worst_ratio, tg_last_kernel(h));
  return v.worst_ratio;
}

static void test_tune_small_shape(const char *cache_path) {
  tg_handle *h = NULL;
  CHECK_MSG(tg_create(&h) == TG_OK, "%s", tg_last_error(NULL));
  if (!h) return;
  CHECK(tg_cache_count(h) == 0); /* the test's own, fresh cache file */
  tg_gemm g;
  tg_gemm_init(&g, M, N, K, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  buffers x;
  CHECK(alloc(&x, &g) == 0);
  tg_tune_options o;
  tg_tune_options_init(&o);
  o.warmup = 1;
  o.iterations = 3;
  tg_tune_result r;
  tg_status s = tg_tune(h, &g, x.a, x.b, NULL, x.d, 0, &o, &r);
  if (s == TG_ERR_NOT_SUPPORTED) { /* no tunable bf16 kernel on this GPU/build */
    printf("tg_tune: %s (skipped)\n", tg_last_error(h));
    release(&x);
    tg_destroy(h);
    return;
  }
  CHECK_MSG(s == TG_OK, "tg_tune: %s", tg_last_error(h));
  if (s != TG_OK) {
    release(&x);
    tg_destroy(h);
    return;
  }
  printf(
      "tg_tune %dx%dx%d bf16: %d candidates, winner %s %.2f us (untuned %s %.2f us), worst %.3g\n",
      M, N, K, r.candidate_count, r.kernel, r.us, r.heuristic_kernel, r.heuristic_us,
      r.worst_ratio);
  const tg_kernel *k = tg_registry_find(r.kernel);
  CHECK(k && tg_plan_tunable(k) && strcmp(r.kernel, "ref") != 0);
  CHECK(r.us > 0 && r.worst_ratio <= 1.0 && r.candidate_count >= 1 && r.heuristic_kernel != NULL);
  CHECK(r.heuristic_us > 0);
  int winner_listed = 0;
  for (int i = 0; i < r.candidate_count; ++i) {
    const tg_tune_candidate *c = &r.candidates[i];
    const tg_kernel *ck = tg_registry_find(c->kernel);
    CHECK_MSG(ck && tg_plan_tunable(ck), "%s is not tunable", c->kernel);
    CHECK(c->estimate > 0);
    if (c->status == TG_OK) CHECK(c->us > 0 && c->us >= r.us);
    winner_listed |= c->kernel == r.kernel;
  }
  CHECK(winner_listed);
  CHECK(strcmp(tg_last_kernel(h), r.kernel) == 0);
  /* The library's comparison agrees with the tools' on the winner's output (D holds it). */
  const double worst = tools_check(h, &g, &x, NULL);
  CHECK_MSG(fabs(worst - r.worst_ratio) <= RATIO_AGREEMENT * (1.0 + worst),
            "library %.17g, tools %.17g", r.worst_ratio, worst);
  /* Stored: tg_matmul takes it and is right. */
  CHECK(tg_cache_count(h) == 1);
  CHECK(cudaMemset(x.d, 0xff, (size_t)(M * N) * tg_dtype_size(g.d_type)) == cudaSuccess);
  CHECK(tg_matmul(h, &g, x.a, x.b, NULL, x.d, 0) == TG_OK);
  CHECK_MSG(strcmp(tg_last_kernel(h), r.kernel) == 0, "tg_matmul ran %s, not the tuned %s",
            tg_last_kernel(h), r.kernel);
  tools_check(h, &g, &x, NULL);
  /* Saved and loaded by a new handle: the same choice. */
  CHECK_MSG(tg_cache_save(h, NULL) == TG_OK, "%s", tg_last_error(h));
  tg_handle *h2 = NULL;
  CHECK(tg_create(&h2) == TG_OK);
  CHECK_MSG(tg_cache_count(h2) == 1, "reloading %s: %d entries; %s", cache_path, tg_cache_count(h2),
            tg_cache_warnings(h2));
  CHECK(tg_check(h2, &g) == TG_OK && strcmp(tg_last_kernel(h2), r.kernel) == 0);
  tg_destroy(h2);
  /* In place (C is D, beta = 1): tuning still verifies against the right C. */
  tg_gemm inplace = g;
  inplace.beta = 1.0;
  s = tg_tune(h, &inplace, x.a, x.b, x.d, x.d, 0, &o, &r);
  CHECK_MSG(s == TG_OK, "in place: %s", tg_last_error(h));
  release(&x);
  tg_destroy(h);
}

/* The comparison kernel on planted data: D = round(ref) exactly, then one wrong element, then
 * one NaN; with a column-major D and a batch stride. */
static void test_compare_kernel(void) {
  const int64_t m = 37, n = 53, batch = 2, ldd = 40, stride = ldd * n + 7;
  const size_t count = (size_t)(stride * batch);
  float *host = (float *)calloc(count, sizeof *host);
  double *href = (double *)calloc((size_t)(m * n * batch), sizeof *href);
  double *hmag = (double *)calloc((size_t)(m * n * batch), sizeof *hmag);
  float *d = NULL;
  double *ref = NULL, *mag = NULL;
  tg_compare_counts *counts = NULL, got;
  CHECK(host && href && hmag);
  if (!host || !href || !hmag) return;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        const double v = (double)(i * 3 - j) / 8.0;
        href[b * m * n + i * n + j] = v;
        hmag[b * m * n + i * n + j] = fabs(v) + 1.0;
        host[b * stride + j * ldd + i] = (float)v;
      }
  CHECK(cudaMalloc((void **)&d, count * sizeof *d) == cudaSuccess);
  CHECK(cudaMalloc((void **)&ref, (size_t)(m * n * batch) * sizeof *ref) == cudaSuccess);
  CHECK(cudaMalloc((void **)&mag, (size_t)(m * n * batch) * sizeof *mag) == cudaSuccess);
  CHECK(cudaMalloc((void **)&counts, sizeof *counts) == cudaSuccess);
  cudaMemcpy(ref, href, (size_t)(m * n * batch) * sizeof *ref, cudaMemcpyHostToDevice);
  cudaMemcpy(mag, hmag, (size_t)(m * n * batch) * sizeof *mag, cudaMemcpyHostToDevice);
  tg_compare_spec s;
  memset(&s, 0, sizeof s);
  s.d = d;
  s.d_type = TG_F32;
  s.d_order = TG_COL_MAJOR;
  s.ldd = ldd;
  s.batch_stride_d = stride;
  s.m = m, s.n = n, s.batch = batch;
  s.ref = ref, s.mag = mag;
  s.rel = 1e-6, s.abs = 0.0, s.lo = -HUGE_VAL, s.hi = HUGE_VAL;
  for (int pass = 0; pass < 3; ++pass) {
    if (pass == 1) host[1 * stride + 5 * ldd + 9] += 1.0f; /* wrong by 1 */
    if (pass == 2) host[0 * stride + 0 * ldd + 0] = NAN;
    cudaMemcpy(d, host, count * sizeof *d, cudaMemcpyHostToDevice);
    cudaMemset(counts, 0, sizeof *counts);
    CHECK(tg_ref_compare_launch(&s, counts, 0) == TG_OK);
    CHECK(cudaMemcpy(&got, counts, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
    double worst;
    memcpy(&worst, &got.worst_bits, sizeof worst);
    CHECK_MSG((int64_t)got.failures == pass, "pass %d: %llu failures", pass, got.failures);
    CHECK_MSG(pass == 0 ? worst == 0.0 : worst > 1.0, "pass %d: worst %g", pass, worst);
  }
  /* Poison writes NaN into D's elements only, never into the padding. */
  for (size_t i = 0; i < count; ++i) host[i] = 1.0f;
  cudaMemcpy(d, host, count * sizeof *d, cudaMemcpyHostToDevice);
  CHECK(tg_ref_poison_launch(&s, 0) == TG_OK);
  cudaMemcpy(host, d, count * sizeof *d, cudaMemcpyDeviceToHost);
  int64_t nans = 0, ones = 0;
  for (size_t i = 0; i < count; ++i) nans += host[i] != host[i], ones += host[i] == 1.0f;
  CHECK_MSG(nans == m * n * batch && ones == (int64_t)count - m * n * batch,
            "%lld NaN, %lld untouched", (long long)nans, (long long)ones);
  cudaFree(d);
  cudaFree(ref);
  cudaFree(mag);
  cudaFree(counts);
  free(host);
  free(href);
  free(hmag);
}

int main(void) {
  tg_test_require_gpu("test_gpu_tune");
  char path[PATH_BYTES];
  if (tg_cache_default_path(path, sizeof path) != TG_OK || !getenv("TILEGEMM_CACHE")) {
    fprintf(stderr, "test_gpu_tune: set TILEGEMM_CACHE to a scratch file (ctest does)\n");
    return 1;
  }
  remove(path);
  test_compare_kernel();
  test_tune_small_shape(path);
  remove(path);
  return tg_test_finish("test_gpu_tune");
}
