/*
 * test_gpu_tf32x3.c — the accuracy of the 3xTF32 compute mode against the fp64 oracle, on
 * inputs chosen to be hard: uniform values, large cancellation (the exact sums are a thousandth
 * of their magnitude), exponents spread over 2^-30..2^30, and values that tf32 rounds coherently
 * (every input loses almost half a tf32 unit in the same direction, so tf32's errors add up).
 * Every element must meet the stated bound (measure.h: |d − ref| ≤ rel·mag + abs); tf32 itself
 * must fail that bound on the coherent set, which shows that the check can fail; and the
 * split's runs must be deterministic and equal when captured into a CUDA graph. It prints each
 * mode's worst error relative to mag beside fp32's (the CUDA-core family) for comparison.
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "measure.h"
#include "tilegemm.h"

/* Inputs that tf32 rounds down by almost half a unit: 1 + j·2^-10 + this many units of 2^-23. */
#define COHERENT_TAIL 0xfe0
/* Relative size of the perturbation that keeps the cancelling sums away from exact zero. */
#define CANCEL_PERTURBATION 1e-3
/* Exponents of the wide set span ±this. */
#define WIDE_EXPONENT 30

typedef enum { SET_UNIFORM, SET_CANCEL, SET_WIDE, SET_COHERENT, SET_COUNT } data_set;
static const char *const k_set_names[SET_COUNT] = {"uniform", "cancellation", "wide exponents",
                                                   "coherent rounding"};

static uint64_t rng = 0x2545f4914f6cdd1dull;
static uint64_t next_random(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}
static double uniform(void) { return (double)(next_random() >> 11) * 0x1p-52 - 1.0; } /* [-1, 1) */

/* 1 + j·2^-10 + COHERENT_TAIL·2^-23 for a random j: in [1, 2), exact in fp32. */
static float coherent_value(void) {
  return 1.0f + (float)(next_random() % 1024) * 0x1p-10f + COHERENT_TAIL * 0x1p-23f;
}

/* Element (i, kk) of A (m×k) and (kk, j) of B (k×n) of a set, as host row-major arrays. */
static void fill(data_set set, int64_t m, int64_t n, int64_t k, float *a, float *b) {
  const int64_t half = k / 2;
  for (int64_t i = 0; i < m * k; ++i) a[i] = (float)uniform();
  for (int64_t i = 0; i < k * n; ++i) b[i] = (float)uniform();
  switch (set) {
    case SET_UNIFORM: break;
    case SET_CANCEL: /* the second half of k repeats A and negates B, slightly perturbed */
      for (int64_t i = 0; i < m; ++i)
        for (int64_t kk = 0; kk < half; ++kk) a[i * k + half + kk] = a[i * k + kk];
      for (int64_t kk = 0; kk < half; ++kk)
        for (int64_t j = 0; j < n; ++j)
          b[(half + kk) * n + j] =
              (float)(-(double)b[kk * n + j] * (1.0 + CANCEL_PERTURBATION * uniform()));
      break;
    case SET_WIDE:
      for (int64_t i = 0; i < m * k; ++i)
        a[i] = ldexpf(a[i], (int)lround(WIDE_EXPONENT * uniform()));
      for (int64_t i = 0; i < k * n; ++i)
        b[i] = ldexpf(b[i], (int)lround(WIDE_EXPONENT * uniform()));
      break;
    case SET_COHERENT:
      for (int64_t i = 0; i < m * k; ++i) a[i] = coherent_value();
      for (int64_t i = 0; i < k * n; ++i) b[i] = coherent_value();
      break;
    case SET_COUNT: break;
  }
}

typedef struct shape {
  int64_t m, n, k;
  tg_order a_order, b_order, c_order;
} shape;

/* Host copy of a row-major r×c array in `order` (packed). */
static void to_order(const float *src, float *dst, int64_t r, int64_t c, tg_order order) {
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j)
      dst[order == TG_ROW_MAJOR ? i * c + j : j * r + i] = src[i * c + j];
}

typedef struct device_case {
  tg_gemm g;
  float *a, *b, *d;
  double *ref, *mag;
  size_t d_elems;
} device_case;

/* The worst |d − ref| / (bound.rel·mag + abs) under `bound_of`'s bound, and the worst
 * |d − ref| / mag, of one run of compute mode `compute`. */
static int run_mode(tg_handle *h, device_case *x, tg_compute compute, const tg_bound *bound,
                    double *ratio, double *rel_err, float *d_host, const double *ref,
                    const double *mag) {
  x->g.compute = compute;
  cudaMemset(x->d, 0xff, x->d_elems * sizeof(float)); /* NaN: an element not written fails */
  if (tg_matmul(h, &x->g, x->a, x->b, NULL, x->d, NULL) != TG_OK) {
    fprintf(stderr, "tg_matmul (%s): %s\n", tg_compute_name(compute), tg_last_error(h));
    return -1;
  }
  if (cudaMemcpy(d_host, x->d, x->d_elems * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    return -1;
  *ratio = *rel_err = 0.0;
  /* D's order as the request stores it; ref and mag are row-major m×n. */
  for (int64_t i = 0; i < x->g.m; ++i)
    for (int64_t j = 0; j < x->g.n; ++j) {
      const int64_t at = x->g.c_order == TG_ROW_MAJOR ? i * x->g.n + j : j * x->g.m + i;
      const double err = fabs((double)d_host[at] - ref[i * x->g.n + j]), mg = mag[i * x->g.n + j];
      const double r = err / (bound->rel * mg + bound->abs);
      if (!(r <= *ratio)) *ratio = r; /* NaN propagates */
      if (mg > 0.0 && err / mg > *rel_err) *rel_err = err / mg;
    }
  return 0;
}

/* Two runs, and one replay of a captured graph, give the same bits. */
static void check_repeatable(tg_handle *h, device_case *x, const float *first, const char *what) {
  float *again = (float *)malloc(x->d_elems * sizeof(float));
  cudaStream_t s;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  int ok = again && cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess;
  if (ok) {
    cudaMemset(x->d, 0xff, x->d_elems * sizeof(float));
    ok = tg_matmul(h, &x->g, x->a, x->b, NULL, x->d, s) == TG_OK &&
         cudaStreamSynchronize(s) == cudaSuccess &&
         cudaMemcpy(again, x->d, x->d_elems * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
    CHECK_MSG(ok && memcmp(first, again, x->d_elems * sizeof(float)) == 0,
              "%s: a second run differs", what);
    cudaMemset(x->d, 0xff, x->d_elems * sizeof(float));
    ok = cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess;
    const tg_status st = tg_matmul(h, &x->g, x->a, x->b, NULL, x->d, s);
    ok = cudaStreamEndCapture(s, &graph) == cudaSuccess && ok && st == TG_OK &&
         cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess &&
         cudaGraphLaunch(exec, s) == cudaSuccess && cudaStreamSynchronize(s) == cudaSuccess &&
         cudaMemcpy(again, x->d, x->d_elems * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
    CHECK_MSG(ok && memcmp(first, again, x->d_elems * sizeof(float)) == 0,
              "%s: the captured graph's replay differs", what);
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
    cudaStreamDestroy(s);
  }
  free(again);
}

static void run_shape(tg_handle *h, const shape *sh, data_set set) {
  const int64_t m = sh->m, n = sh->n, k = sh->k;
  float *a = (float *)malloc((size_t)(m * k) * sizeof(float)),
        *b = (float *)malloc((size_t)(k * n) * sizeof(float)),
        *a_stored = (float *)malloc((size_t)(m * k) * sizeof(float)),
        *b_stored = (float *)malloc((size_t)(k * n) * sizeof(float)),
        *d_host = (float *)malloc((size_t)(m * n) * sizeof(float));
  double *ref = (double *)malloc((size_t)(m * n) * sizeof(double)),
         *mag = (double *)malloc((size_t)(m * n) * sizeof(double));
  device_case x;
  memset(&x, 0, sizeof x);
  x.d_elems = (size_t)(m * n);
  fill(set, m, n, k, a, b);
  to_order(a, a_stored, m, k, sh->a_order);
  to_order(b, b_stored, k, n, sh->b_order);
  int ok = a && b && d_host && ref && mag &&
           cudaMalloc((void **)&x.a, (size_t)(m * k) * sizeof(float)) == cudaSuccess &&
           cudaMalloc((void **)&x.b, (size_t)(k * n) * sizeof(float)) == cudaSuccess &&
           cudaMalloc((void **)&x.d, x.d_elems * sizeof(float)) == cudaSuccess &&
           cudaMalloc((void **)&x.ref, x.d_elems * sizeof(double)) == cudaSuccess &&
           cudaMalloc((void **)&x.mag, x.d_elems * sizeof(double)) == cudaSuccess;
  CHECK_MSG(ok, "allocation failed");
  if (ok) {
    cudaMemcpy(x.a, a_stored, (size_t)(m * k) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(x.b, b_stored, (size_t)(k * n) * sizeof(float), cudaMemcpyHostToDevice);
    tg_gemm_init(&x.g, m, n, k, TG_F32, TG_F32);
    x.g.a_order = sh->a_order;
    x.g.b_order = sh->b_order;
    x.g.c_order = sh->c_order;
    ok =
        tg_reference(h, &x.g, x.a, x.b, NULL, x.ref, x.mag, NULL) == TG_OK &&
        cudaMemcpy(ref, x.ref, x.d_elems * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess &&
        cudaMemcpy(mag, x.mag, x.d_elems * sizeof(double), cudaMemcpyDeviceToHost) == cudaSuccess;
    CHECK_MSG(ok, "the oracle failed: %s", tg_last_error(h));
  }
  if (ok) {
    x.g.compute = TG_COMPUTE_3XTF32;
    const tg_bound bound = tg_request_bound(&x.g);
    double r3, e3, rt, et, rf, ef;
    char what[160];
    snprintf(what, sizeof what, "%lldx%lldx%lld %c%c%c, %s", (long long)m, (long long)n,
             (long long)k, sh->a_order == TG_ROW_MAJOR ? 'r' : 'c',
             sh->b_order == TG_ROW_MAJOR ? 'r' : 'c', sh->c_order == TG_ROW_MAJOR ? 'r' : 'c',
             k_set_names[set]);
    if (run_mode(h, &x, TG_COMPUTE_3XTF32, &bound, &r3, &e3, d_host, ref, mag) == 0) {
      const char *kernel = tg_last_kernel(h);
      CHECK_MSG(r3 <= 1.0, "%s: 3xTF32 (%s) error/bound %.3g", what, kernel, r3);
      CHECK_MSG(strstr(kernel, "tf32") != NULL, "%s: 3xTF32 ran on %s, not a tf32 row", what,
                kernel);
      check_repeatable(h, &x, d_host, what);
      if (run_mode(h, &x, TG_COMPUTE_TF32, &bound, &rt, &et, d_host, ref, mag) == 0 &&
          run_mode(h, &x, TG_COMPUTE_F32, &bound, &rf, &ef, d_host, ref, mag) == 0) {
        printf("%-44s 3xtf32 %.2e (%.3f of its bound, %s)  tf32 %.2e  f32 %.2e\n", what, e3, r3,
               kernel, et, ef);
        if (set == SET_COHERENT)
          CHECK_MSG(rt > 1.0, "%s: tf32 met the 3xTF32 bound (%.3g): the set is not hard", what,
                    rt);
      } else {
        CHECK_MSG(0, "%s: the tf32 or f32 run failed", what);
      }
    } else {
      CHECK_MSG(0, "%s: the 3xTF32 run failed", what);
    }
  }
  cudaFree(x.a);
  cudaFree(x.b);
  cudaFree(x.d);
  cudaFree(x.ref);
  cudaFree(x.mag);
  free(a);
  free(b);
  free(a_stored);
  free(b_stored);
  free(d_host);
  free(ref);
  free(mag);
}

int main(void) {
  tg_test_require_gpu("test_gpu_tf32x3");
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  const shape shapes[] = {
      {256, 256, 256, TG_ROW_MAJOR, TG_COL_MAJOR, TG_ROW_MAJOR},
      {333, 200, 517, TG_ROW_MAJOR, TG_ROW_MAJOR, TG_ROW_MAJOR},
      {129, 300, 260, TG_COL_MAJOR, TG_ROW_MAJOR, TG_COL_MAJOR},
      {1024, 1024, 384, TG_ROW_MAJOR, TG_COL_MAJOR, TG_ROW_MAJOR},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
    for (int set = 0; set < SET_COUNT; ++set) run_shape(h, &shapes[i], (data_set)set);
  tg_destroy(h);
  return tg_test_finish("test_gpu_tf32x3");
}
