/*
 * test_gpu_repack.c — the operand copies the planner runs before a kernel (interface/repack.h),
 * called directly: every element size (1, 2, 4 bytes) and pair of orders, sizes around the
 * copy kernels' tiles, padded and odd leading dimensions, pointers off 16-byte alignment,
 * batches with strides and broadcast; and the 3xTF32 split in every pair of orders. Each source
 * is allocated at exactly its extent (so compute-sanitizer memcheck sees any read past it) and
 * each destination is checked element by element, its padding included (zeros up to ld).
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "repack.h"
#include "tf32x3.h"

/* Destination lines start on this many bytes (the workspace's layout, plan.h). */
#define LINE_ALIGN 16

typedef struct layout {
  int64_t rows, cols, ld, batch_stride, batches;
  tg_order order;
} layout;

static int64_t line_count(const layout *x) { return x->order == TG_ROW_MAJOR ? x->rows : x->cols; }
static int64_t line_extent(const layout *x) { return x->order == TG_ROW_MAJOR ? x->cols : x->rows; }
/* Elements from the first to one past the last, over every batch. */
static int64_t span(const layout *x) {
  return (x->batches - 1) * x->batch_stride + (line_count(x) - 1) * x->ld + line_extent(x);
}
static int64_t at(const layout *x, int64_t b, int64_t r, int64_t c) {
  return b * x->batch_stride + (x->order == TG_ROW_MAJOR ? r * x->ld + c : c * x->ld + r);
}

/* A distinct bit pattern per element, of elem bytes. */
static uint32_t pattern(int64_t i, int elem) {
  const uint32_t v = (uint32_t)(i * 2654435761u) ^ 0x5a5a5a5au;
  return elem == 4 ? v : elem == 2 ? (v & 0xffffu) : (v & 0xffu);
}

static void put(void *p, int64_t i, int elem, uint32_t v) {
  memcpy((char *)p + i * elem, &v, (size_t)elem);
}
static uint32_t get(const void *p, int64_t i, int elem) {
  uint32_t v = 0;
  memcpy(&v, (const char *)p + i * elem, (size_t)elem);
  return v;
}

/* Copies src (rows × cols, src_order, ld padded by pad_ld, `offset` elements into its
 * allocation) into dst_order and checks every element and the padding. split: the 3xTF32 layout
 * (elem 4) with the remainder in part lo_part. */
static void run_case(int elem, tg_order src_order, tg_order dst_order, int64_t rows, int64_t cols,
                     int64_t batches, int broadcast, int pad_ld, int offset, int split,
                     int lo_part) {
  layout s = {rows, cols, 0, 0, batches, src_order};
  s.ld = line_extent(&s) + pad_ld;
  s.batch_stride = broadcast ? 0 : line_count(&s) * s.ld + 1;
  const int parts = split ? TG_TF32X3_PRODUCTS : 1;
  layout d = {rows, cols, 0, 0, broadcast ? 1 : batches, dst_order};
  const int64_t per_line = LINE_ALIGN / elem;
  d.ld = (parts * line_extent(&d) + per_line - 1) / per_line * per_line;
  d.batch_stride = line_count(&d) * d.ld;
  if (broadcast) s.batches = 1;
  const int64_t s_elems = offset + span(&s), d_elems = d.batches * d.batch_stride;
  void *hs = malloc((size_t)(s_elems * elem)), *hd = malloc((size_t)(d_elems * elem));
  void *ds = NULL, *dd = NULL;
  char what[160];
  snprintf(what, sizeof what, "%dB %s->%s %lldx%lld x%lld%s ld+%d off %d%s", elem,
           src_order == TG_ROW_MAJOR ? "row" : "col", dst_order == TG_ROW_MAJOR ? "row" : "col",
           (long long)rows, (long long)cols, (long long)batches, broadcast ? " broadcast" : "",
           pad_ld, offset, split ? " split" : "");
  int ok = hs && hd && cudaMalloc(&ds, (size_t)(s_elems * elem)) == cudaSuccess &&
           cudaMalloc(&dd, (size_t)(d_elems * elem)) == cudaSuccess;
  CHECK_MSG(ok, "%s: allocation failed", what);
  if (ok) {
    for (int64_t i = 0; i < s_elems; ++i) put(hs, i, elem, pattern(i, elem));
    cudaMemcpy(ds, hs, (size_t)(s_elems * elem), cudaMemcpyHostToDevice);
    cudaMemset(dd, 0xab, (size_t)(d_elems * elem)); /* so that unwritten padding shows */
    tg_matrix_ref src = {(char *)ds + offset * elem, src_order, s.ld, s.batch_stride};
    tg_matrix_ref dst = {dd, dst_order, d.ld, d.batch_stride};
    const tg_status st =
        split ? tg_repack_tf32x3_launch(src, dst, rows, cols, d.batches, lo_part, NULL)
              : tg_repack_launch(src, dst, rows, cols, d.batches, elem, NULL);
    ok = st == TG_OK && cudaDeviceSynchronize() == cudaSuccess &&
         cudaMemcpy(hd, dd, (size_t)(d_elems * elem), cudaMemcpyDeviceToHost) == cudaSuccess;
    CHECK_MSG(ok, "%s: the copy failed (%s)", what, cudaGetErrorString(cudaGetLastError()));
  }
  long bad = 0;
  for (int64_t b = 0; ok && b < d.batches; ++b)
    for (int64_t line = 0; line < line_count(&d); ++line)
      for (int64_t e = 0; e < d.ld; ++e) {
        const int64_t extent = line_extent(&d), part = e / extent, inner = e % extent;
        const uint32_t got = get(hd, b * d.batch_stride + line * d.ld + e, elem);
        uint32_t want = 0;
        if (part < parts) {
          const int64_t r = dst_order == TG_ROW_MAJOR ? line : inner;
          const int64_t c = dst_order == TG_ROW_MAJOR ? inner : line;
          want = get(hs, offset + at(&s, broadcast ? 0 : b, r, c), elem);
          if (split) {
            float x, hi, lo;
            memcpy(&x, &want, sizeof x);
            tg_tf32x3_split(x, &hi, &lo);
            memcpy(&want, part == lo_part ? &lo : &hi, sizeof want);
          }
        }
        if (got != want && bad++ < 3)
          fprintf(stderr, "%s: batch %lld line %lld element %lld: %08x, want %08x\n", what,
                  (long long)b, (long long)line, (long long)e, got, want);
      }
  CHECK_MSG(bad == 0, "%s: %ld wrong elements", what, bad);
  cudaFree(ds);
  cudaFree(dd);
  free(hs);
  free(hd);
}

int main(void) {
  tg_test_require_gpu("test_gpu_repack");
  static const int64_t sizes[][2] = {{1, 1}, {3, 70}, {64, 64}, {65, 129}, {200, 33}, {17, 300}};
  static const int elems[] = {1, 2, 4};
  for (int e = 0; e < 3; ++e)
    for (int so = 0; so < 2; ++so)
      for (int dor = 0; dor < 2; ++dor)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z)
          for (int variant = 0; variant < 3; ++variant) {
            /* packed and aligned; odd ld, one element off, 3 batches; broadcast, padded ld */
            const int pad = variant == 0 ? 0 : variant == 1 ? 3 : 16;
            const int offset = variant == 1;
            const int64_t batches = variant == 0 ? 1 : 3;
            run_case(elems[e], (tg_order)so, (tg_order)dor, sizes[z][0], sizes[z][1], batches,
                     variant == 2, pad, offset, 0, 0);
          }
  /* The 3xTF32 split: A's layout (remainder second) row-major, B's (remainder third)
   * column-major, from either order. */
  for (int so = 0; so < 2; ++so)
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; ++z) {
      run_case(4, (tg_order)so, TG_ROW_MAJOR, sizes[z][0], sizes[z][1], 2, 0, 1, 1, 1,
               TG_TF32X3_LO_PART_A);
      run_case(4, (tg_order)so, TG_COL_MAJOR, sizes[z][0], sizes[z][1], 2, 1, 0, 0, 1,
               TG_TF32X3_LO_PART_B);
    }
  return tg_test_finish("test_gpu_repack");
}
