/* tune_verify.c — tg_tune's check of a kernel against the fp64 GPU oracle (tune_verify.h). */
#include "tune_verify.h"

#include <string.h>

#include "device.h"
#include "measure.h"
#include "ref_compare.h"

/* The bound of docs/testing.md (measure.h), the one the tools and tests check against. */
void tg_tune_tolerance(const tg_gemm *g, double *rel, double *abs, double *lo, double *hi) {
  const tg_bound b = tg_request_bound(g);
  *rel = b.rel;
  *abs = b.abs;
  *lo = b.lo;
  *hi = b.hi;
}

/* Element offset of row i0 (column 0) of a matrix. */
static int64_t row_offset(int64_t i0, tg_order order, int64_t ld) {
  return order == TG_ROW_MAJOR ? i0 * ld : i0;
}

static const void *advance(const void *p, int64_t elements, size_t elem_bytes) {
  return p ? (const char *)p + elements * (int64_t)elem_bytes : NULL;
}

/* The stride field that reproduces a resolved stride (0 = shared by all batches). */
static int64_t stride_field(int64_t resolved) {
  return resolved == 0 ? TG_BATCH_BROADCAST : resolved;
}

/* Rows [i0, i0 + rows) of *g, every stride explicit so that the band keeps g's storage. */
static tg_gemm band_of(const tg_gemm *g, const tg_layout *L, int64_t rows) {
  tg_gemm b = *g;
  b.m = rows;
  b.lda = L->a.ld;
  b.ldb = L->b.ld;
  b.ldc = L->c.ld;
  b.ldd = L->d.ld;
  b.batch_stride_a = stride_field(L->a.batch_stride);
  b.batch_stride_b = stride_field(L->b.batch_stride);
  b.batch_stride_c = stride_field(L->c.batch_stride);
  b.batch_stride_d = L->d.batch_stride;
  return b;
}

static tg_compare_spec spec_of(const tg_gemm *g, const tg_layout *L, const void *D) {
  tg_compare_spec s;
  memset(&s, 0, sizeof s);
  s.d = D;
  s.d_type = g->d_type;
  s.d_order = g->c_order;
  s.ldd = L->d.ld;
  s.batch_stride_d = L->d.batch_stride;
  s.m = g->m;
  s.n = g->n;
  s.batch = g->batch;
  tg_tune_tolerance(g, &s.rel, &s.abs, &s.lo, &s.hi);
  return s;
}

#define CUDA_TRY(call, what)             \
  do {                                   \
    cudaError_t e_ = (call);             \
    if (e_ != cudaSuccess) {             \
      s = tg_cuda_fail(h, fn, what, e_); \
      goto done;                         \
    }                                    \
  } while (0)

tg_status tg_tune_verify(tg_handle *h, const tg_gemm *g, const tg_layout *L, const void *A,
                         const void *B, const void *C, void *D, tg_stream stream, double *worst,
                         int64_t *failures) {
  static const char fn[] = "tg_tune";
  tg_status s = TG_OK;
  void *c_copy = NULL;
  double *ref = NULL;
  tg_compare_counts *counts = NULL, host_counts;
  const size_t row_bytes = 2 * sizeof(double) * (size_t)(g->n * g->batch);
  int64_t band = (int64_t)(TG_TUNE_VERIFY_BYTES / (row_bytes ? row_bytes : 1));
  if (band < 1) band = 1;
  if (band > g->m) band = g->m;
  *worst = 0.0;
  *failures = 0;

  /* In place (C is D): the kernel reads C from a copy, so the oracle sees the same C. */
  if (g->beta != 0.0 && C == D) {
    CUDA_TRY(cudaMalloc(&c_copy, (size_t)L->d.span_bytes), "allocating a copy of C");
    CUDA_TRY(cudaMemcpyAsync(c_copy, D, (size_t)L->d.span_bytes, cudaMemcpyDeviceToDevice, stream),
             "copying C");
    C = c_copy;
  }
  tg_compare_spec whole = spec_of(g, L, D);
  if ((s = tg_ref_poison_launch(&whole, stream)) != TG_OK ||
      (s = tg_matmul(h, g, A, B, C, D, stream)) != TG_OK)
    goto done;
  CUDA_TRY(cudaGetLastError(), "filling D with NaN");
  CUDA_TRY(cudaMalloc((void **)&ref, (size_t)band * row_bytes), "allocating the oracle's output");
  CUDA_TRY(cudaMalloc((void **)&counts, sizeof *counts), "allocating the comparison's counters");
  CUDA_TRY(cudaMemsetAsync(counts, 0, sizeof *counts, stream), "clearing the counters");
  for (int64_t i0 = 0; i0 < g->m; i0 += band) {
    const int64_t rows = g->m - i0 < band ? g->m - i0 : band;
    tg_gemm sub = band_of(g, L, rows);
    const void *a = advance(A, row_offset(i0, g->a_order, L->a.ld), L->a.elem_bytes);
    const void *c =
        g->beta != 0.0 ? advance(C, row_offset(i0, g->c_order, L->c.ld), L->c.elem_bytes) : NULL;
    double *mag = ref + rows * g->n * g->batch;
    if ((s = tg_reference(h, &sub, a, B, c, ref, mag, stream)) != TG_OK) goto done;
    tg_compare_spec band_spec =
        spec_of(&sub, L, advance(D, row_offset(i0, g->c_order, L->d.ld), L->d.elem_bytes));
    band_spec.ref = ref;
    band_spec.mag = mag;
    if ((s = tg_ref_compare_launch(&band_spec, counts, stream)) != TG_OK) goto done;
    CUDA_TRY(cudaGetLastError(), "comparing with the oracle");
  }
  CUDA_TRY(
      cudaMemcpyAsync(&host_counts, counts, sizeof host_counts, cudaMemcpyDeviceToHost, stream),
      "reading the comparison");
  CUDA_TRY(cudaStreamSynchronize(stream), "comparing with the oracle");
  memcpy(worst, &host_counts.worst_bits, sizeof *worst);
  *failures = (int64_t)host_counts.failures;
done:
  cudaFree(counts);
  cudaFree(ref);
  cudaFree(c_copy);
  return s;
}
