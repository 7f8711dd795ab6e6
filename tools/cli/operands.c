/* operands.c — random device operands of one request, and fp8 scales (see operands.h). */
#include "operands.h"

#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ref.h"
#include "device_tools.h"
#include "problem.h"
#include "random_values.h"

/* Seeds of the operands within one data seed (tg_bench_run's input set 0 uses the same). */
enum { SEED_A = 1, SEED_B = 2, SEED_C = 3, SEED_SCALES_A = 4, SEED_SCALES_B = 5, SEED_BIAS = 7 };
#define SEED_SCALE 1000003ull

static int has_bias(tg_epilogue e) {
  return e == TG_EPI_BIAS || e == TG_EPI_BIAS_RELU || e == TG_EPI_BIAS_GELU;
}

/* Allocates count elements of t (at least one byte) and fills them when seeded. */
static cudaError_t make(void **p, int64_t count, tg_dtype t, int fill, uint64_t seed) {
  const size_t bytes = (size_t)count * tg_dtype_size(t);
  cudaError_t e = cudaMalloc(p, bytes ? bytes : 1);
  if (e != cudaSuccess) {
    *p = NULL;
    return e;
  }
  return fill ? tg_fill_random_device(*p, count, t, seed, 0, 0) : cudaSuccess;
}

/* One operand's scales: count values of tg_scale_value(seed, ...) copied into a new device
 * buffer (at least one float). */
static cudaError_t make_scales(float **p, int64_t count, uint64_t seed, int exact) {
  float *host = (float *)malloc((size_t)(count ? count : 1) * sizeof *host);
  if (!host) return cudaErrorMemoryAllocation;
  for (int64_t i = 0; i < count; ++i) host[i] = tg_scale_value(seed, i, exact);
  cudaError_t e = cudaMalloc((void **)p, (size_t)(count ? count : 1) * sizeof **p);
  if (e == cudaSuccess)
    e = cudaMemcpy(*p, host, (size_t)count * sizeof *host, cudaMemcpyHostToDevice);
  else *p = NULL;
  free(host);
  return e;
}

int tg_scales_alloc(const tg_gemm *g, uint64_t seed, int exact, tg_scales *s, char *err, size_t n) {
  memset(s, 0, sizeof *s);
  if (g->scale_mode == TG_SCALE_NONE) return 0;
  const uint64_t base = seed * SEED_SCALE;
  cudaError_t e;
  if ((e = make_scales(&s->a, tg_scale_count(g, 'a'), base + SEED_SCALES_A, exact)) !=
          cudaSuccess ||
      (e = make_scales(&s->b, tg_scale_count(g, 'b'), base + SEED_SCALES_B, exact)) !=
          cudaSuccess) {
    snprintf(err, n, "allocating and filling the fp8 scales: %s", cudaGetErrorString(e));
    (void)cudaGetLastError();
    tg_scales_free(s);
    return -1;
  }
  return 0;
}

void tg_scales_free(tg_scales *s) {
  cudaFree(s->a);
  cudaFree(s->b);
  memset(s, 0, sizeof *s);
}

int tg_operands_alloc(const tg_gemm *g, uint64_t seed, tg_operands *op, char *err, size_t n) {
  memset(op, 0, sizeof *op);
  const uint64_t base = seed * SEED_SCALE;
  cudaError_t e;
  const int64_t sa = tg_operand_span(g->m, g->k, g->a_order, g->lda, g->batch_stride_a, g->batch);
  const int64_t sb = tg_operand_span(g->k, g->n, g->b_order, g->ldb, g->batch_stride_b, g->batch);
  const int64_t sc = tg_operand_span(g->m, g->n, g->c_order, g->ldc, g->batch_stride_c, g->batch);
  const int64_t sd = tg_operand_span(g->m, g->n, g->c_order, g->ldd, g->batch_stride_d, g->batch);
  if ((e = make(&op->a, sa, g->a_type, 1, base + SEED_A)) != cudaSuccess ||
      (e = make(&op->b, sb, g->b_type, 1, base + SEED_B)) != cudaSuccess ||
      (g->beta != 0.0 && (e = make(&op->c, sc, g->c_type, 1, base + SEED_C)) != cudaSuccess) ||
      (e = make(&op->d, sd, g->d_type, 0, 0)) != cudaSuccess ||
      (has_bias(g->epilogue) &&
       (e = make(&op->bias, g->n, g->bias_type, 1, base + SEED_BIAS)) != cudaSuccess) ||
      (e = cudaDeviceSynchronize()) != cudaSuccess) {
    snprintf(err, n, "allocating and filling the operands: %s", cudaGetErrorString(e));
    (void)cudaGetLastError();
    tg_operands_free(op);
    return -1;
  }
  if (tg_scales_alloc(g, seed, 0, &op->scales, err, n) != 0) {
    tg_operands_free(op);
    return -1;
  }
  return 0;
}

void tg_operands_free(tg_operands *op) {
  cudaFree(op->a);
  cudaFree(op->b);
  cudaFree(op->c);
  cudaFree(op->d);
  cudaFree(op->bias);
  tg_scales_free(&op->scales);
  memset(op, 0, sizeof *op);
}
