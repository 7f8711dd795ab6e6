/*
 * bench_run.c — measurement engine of `tilegemm bench` and `tilegemm ladder`.
 *
 * Method (docs/performance.md): random data, never zeros; with --cold-l2 enough input sets that
 * one set is evicted from L2 before it is used again; warm-up; each launch timed with its own
 * pair of events; ours and cuBLAS alternate, each on a set the other has not touched for half a
 * rotation (with one set, both on it), because a set one library has just read would hand the
 * other its L2 lines and flatter memory-bound shapes; medians.
 * fp8 scales (--scale): one set, random in [0.5, 2), shared by every input set and by
 * cuBLASLt (small beside the operands: they are not rotated).
 * Verification: D poisoned with NaN, one run, compared with the fp64 GPU oracle (which applies
 * the scales of the request it is given).
 */
#include "bench_run.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref.h"
#include "cublas_runner.h"
#include "device_tools.h"
#include "operands.h"
#include "tolerance.h"

/* Total input bytes that must exceed L2 for a set to be evicted before its reuse. */
#define COLD_L2_FACTOR 3
#define MAX_SETS 64
#define POISON_BYTE 0xff /* NaN in every float format */

typedef struct operand_set {
  void *a, *b, *c, *d;
} operand_set;

typedef struct spans {
  int64_t a, b, c, d; /* bytes */
} spans;

static spans spans_of(const tg_gemm *g) {
  spans s;
  s.a = tg_operand_span(g->m, g->k, g->a_order, g->lda, g->batch_stride_a, g->batch) *
        (int64_t)tg_dtype_size(g->a_type);
  s.b = tg_operand_span(g->k, g->n, g->b_order, g->ldb, g->batch_stride_b, g->batch) *
        (int64_t)tg_dtype_size(g->b_type);
  s.c = g->beta != 0.0
            ? tg_operand_span(g->m, g->n, g->c_order, g->ldc, g->batch_stride_c, g->batch) *
                  (int64_t)tg_dtype_size(g->c_type)
            : 0;
  s.d = tg_operand_span(g->m, g->n, g->c_order, g->ldd, g->batch_stride_d, g->batch) *
        (int64_t)tg_dtype_size(g->d_type);
  return s;
}

static int cmp_float(const void *x, const void *y) {
  float a = *(const float *)x, b = *(const float *)y;
  return (a > b) - (a < b);
}

static double median_ms(float *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_float);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

#define CUDA_TRY(call)                                                 \
  do {                                                                 \
    cudaError_t e_ = (call);                                           \
    if (e_ != cudaSuccess) {                                           \
      snprintf(err, err_len, "%s: %s", #call, cudaGetErrorString(e_)); \
      goto done;                                                       \
    }                                                                  \
  } while (0)

static void free_set(operand_set *s) {
  cudaFree(s->a);
  cudaFree(s->b);
  cudaFree(s->c);
  cudaFree(s->d);
  memset(s, 0, sizeof *s);
}

/* Compares D of set 0 with the oracle. */
static void verify(const tg_gemm *g, const void *d, const double *ref, const double *mag, int exact,
                   tg_check_outcome *out) {
  tg_verify_result v;
  cudaError_t e = tg_verify_device(g, d, ref, mag, tg_tolerance_make(g, exact), &v, 0);
  if (e != cudaSuccess) {
    snprintf(out->note, sizeof out->note, "comparison failed: %s", cudaGetErrorString(e));
    return;
  }
  out->done = 1;
  out->pass = v.failures == 0;
  out->worst_ratio = v.worst_ratio;
  out->failures = v.failures;
  out->checked = v.checked;
}

int tg_bench_run(tg_handle *h, const tg_bench_options *o, tg_bench_result *res, char *err,
                 size_t err_len) {
  const tg_gemm *g = &o->g;
  operand_set sets[MAX_SETS];
  void *bias = NULL;
  tg_scales scales = {NULL, NULL};
  double *ref = NULL, *mag = NULL;
  cudaEvent_t *ev = NULL;
  float *t_ours = NULL, *t_cublas = NULL;
  tg_cublas_runner *cb = NULL;
  int nsets = 1, rc = -1, l2 = 0, dev = 0;
  tg_status st;
  char why[256];
  memset(sets, 0, sizeof sets);
  memset(res, 0, sizeof *res);
  err[0] = '\0';

  if ((st = tg_check(h, g)) != TG_OK) {
    snprintf(err, err_len, "%s", tg_last_error(h));
    return -1;
  }
  const spans sp = spans_of(g);
  const int64_t set_bytes = sp.a + sp.b + sp.c + sp.d;
  CUDA_TRY(cudaGetDevice(&dev));
  CUDA_TRY(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  if (o->cold_l2 && set_bytes > 0) {
    int64_t want = (COLD_L2_FACTOR * (int64_t)l2 + set_bytes - 1) / set_bytes;
    nsets = (int)(want < 1 ? 1 : (want > MAX_SETS ? MAX_SETS : want));
  }
  res->sets = nsets;
  for (int s = 0; s < nsets; ++s) {
    CUDA_TRY(cudaMalloc(&sets[s].a, sp.a ? (size_t)sp.a : 1));
    CUDA_TRY(cudaMalloc(&sets[s].b, sp.b ? (size_t)sp.b : 1));
    if (sp.c) CUDA_TRY(cudaMalloc(&sets[s].c, (size_t)sp.c));
    CUDA_TRY(cudaMalloc(&sets[s].d, sp.d ? (size_t)sp.d : 1));
    uint64_t seed = o->seed * 1000003ull + (uint64_t)s * 8u;
    CUDA_TRY(tg_fill_random_device(sets[s].a, sp.a / (int64_t)tg_dtype_size(g->a_type), g->a_type,
                                   seed + 1, o->exact, 0));
    CUDA_TRY(tg_fill_random_device(sets[s].b, sp.b / (int64_t)tg_dtype_size(g->b_type), g->b_type,
                                   seed + 2, o->exact, 0));
    if (sp.c)
      CUDA_TRY(tg_fill_random_device(sets[s].c, sp.c / (int64_t)tg_dtype_size(g->c_type), g->c_type,
                                     seed + 3, o->exact, 0));
  }
  tg_gemm gb = *g; /* with the bias and scale pointers filled in */
  if (g->epilogue == TG_EPI_BIAS || g->epilogue == TG_EPI_BIAS_RELU ||
      g->epilogue == TG_EPI_BIAS_GELU) {
    CUDA_TRY(cudaMalloc(&bias, (size_t)(g->n ? g->n : 1) * tg_dtype_size(g->bias_type)));
    CUDA_TRY(
        tg_fill_random_device(bias, g->n, g->bias_type, o->seed * 1000003ull + 7u, o->exact, 0));
    gb.bias = bias;
  }
  if (tg_scales_alloc(g, o->seed, o->exact, &scales, err, err_len) != 0) goto done;
  gb.scale_a = scales.a; /* NULL without scales */
  gb.scale_b = scales.b;
  if (o->vs_cublas) {
    cb = tg_cublas_create(&gb, res->cublas_note, sizeof res->cublas_note);
  }

  /* Verification on set 0: ours, then cuBLAS, each into a poisoned D. */
  if (!o->skip_ref_check) {
    size_t n_out = (size_t)(g->m * g->n * g->batch);
    if (cudaMalloc((void **)&ref, n_out * sizeof(double) + 1) != cudaSuccess ||
        cudaMalloc((void **)&mag, n_out * sizeof(double) + 1) != cudaSuccess) {
      (void)cudaGetLastError();
      snprintf(res->check.note, sizeof res->check.note, "skipped: the oracle needs %.1f GB",
               2.0 * n_out * sizeof(double) / 1e9);
    } else {
      if ((st = tg_reference(h, &gb, sets[0].a, sets[0].b, sets[0].c, ref, mag, 0)) != TG_OK) {
        snprintf(err, err_len, "%s", tg_last_error(h));
        goto done;
      }
      CUDA_TRY(cudaMemset(sets[0].d, POISON_BYTE, sp.d ? (size_t)sp.d : 1));
      if ((st = tg_matmul(h, &gb, sets[0].a, sets[0].b, sets[0].c, sets[0].d, 0)) != TG_OK) {
        snprintf(err, err_len, "%s", tg_last_error(h));
        goto done;
      }
      verify(g, sets[0].d, ref, mag, o->exact, &res->check);
      if (cb) {
        CUDA_TRY(cudaMemset(sets[0].d, POISON_BYTE, sp.d ? (size_t)sp.d : 1));
        if (tg_cublas_run(cb, sets[0].a, sets[0].b, sets[0].c, sets[0].d, 0, why, sizeof why) == 0)
          verify(g, sets[0].d, ref, mag, o->exact, &res->cublas_check);
      }
    }
    cudaFree(ref);
    cudaFree(mag);
    ref = mag = NULL;
  } else {
    snprintf(res->check.note, sizeof res->check.note, "skipped (--skip-ref-check)");
  }

  /* Timing: warm-up, then alternate ours / cuBLAS, one event pair each; cuBLAS runs half a
   * rotation behind (header). */
  const int total = o->warmup + o->iterations;
  ev = (cudaEvent_t *)calloc((size_t)4 * o->iterations, sizeof *ev);
  t_ours = (float *)calloc((size_t)o->iterations, sizeof *t_ours);
  t_cublas = (float *)calloc((size_t)o->iterations, sizeof *t_cublas);
  if (!ev || !t_ours || !t_cublas) {
    snprintf(err, err_len, "host allocation failed");
    goto done;
  }
  for (int i = 0; i < 4 * o->iterations; ++i) CUDA_TRY(cudaEventCreate(&ev[i]));
  for (int it = 0; it < total; ++it) {
    const operand_set *s = &sets[it % nsets];
    const int timed = it >= o->warmup;
    cudaEvent_t *e = timed ? &ev[4 * (it - o->warmup)] : NULL;
    if (timed) CUDA_TRY(cudaEventRecord(e[0], 0));
    if ((st = tg_matmul(h, &gb, s->a, s->b, s->c, s->d, 0)) != TG_OK) {
      snprintf(err, err_len, "%s", tg_last_error(h));
      goto done;
    }
    if (timed) CUDA_TRY(cudaEventRecord(e[1], 0));
    if (cb) {
      if (timed) CUDA_TRY(cudaEventRecord(e[2], 0));
      const operand_set *sc = &sets[(it + nsets / 2) % nsets];
      if (tg_cublas_run(cb, sc->a, sc->b, sc->c, sc->d, 0, why, sizeof why) != 0) {
        snprintf(res->cublas_note, sizeof res->cublas_note, "%.150s", why);
        tg_cublas_destroy(cb);
        cb = NULL;
      }
      if (timed) CUDA_TRY(cudaEventRecord(e[3], 0));
    }
  }
  CUDA_TRY(cudaDeviceSynchronize());
  for (int i = 0; i < o->iterations; ++i) {
    CUDA_TRY(cudaEventElapsedTime(&t_ours[i], ev[4 * i], ev[4 * i + 1]));
    if (cb) CUDA_TRY(cudaEventElapsedTime(&t_cublas[i], ev[4 * i + 2], ev[4 * i + 3]));
  }
  snprintf(res->kernel, sizeof res->kernel, "%s", tg_last_kernel(h));
  res->ms = median_ms(t_ours, o->iterations);
  res->tflops = res->ms > 0 ? tg_request_flops(g) / (res->ms * 1e-3) / 1e12 : 0.0;
  res->gbps = res->ms > 0 ? tg_request_bytes(g) / (res->ms * 1e-3) / 1e9 : 0.0;
  res->floor = tg_request_floor(g, dev);
  if (cb) {
    res->cublas_ran = 1;
    res->cublas_ms = median_ms(t_cublas, o->iterations);
    res->cublas_tflops =
        res->cublas_ms > 0 ? tg_request_flops(g) / (res->cublas_ms * 1e-3) / 1e12 : 0.0;
  }
  rc = 0;
done:
  if (ev)
    for (int i = 0; i < 4 * o->iterations; ++i)
      if (ev[i]) cudaEventDestroy(ev[i]);
  free(ev);
  free(t_ours);
  free(t_cublas);
  tg_cublas_destroy(cb);
  for (int s = 0; s < nsets; ++s) free_set(&sets[s]);
  cudaFree(bias);
  tg_scales_free(&scales);
  cudaFree(ref);
  cudaFree(mag);
  return rc;
}
