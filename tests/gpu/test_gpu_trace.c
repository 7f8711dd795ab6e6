/*
 * test_gpu_trace.c — `tilegemm trace` against the kernels themselves. This program links a
 * recording build of every traced kernel (compiled with -DTG_TRACE_RECORD: the hooks of
 * kernels/common/trace_record.cuh append a record for each element a thread touches) and, for
 * several problems per kernel (whole tiles, edges in m, n and k, a single element, padded
 * leading dimensions with batches, aligned and unaligned operands, every operand order a kernel
 * reads, split-K), runs it on inputs whose every element holds its own offset + 1. Then, for
 * every thread of every CTA and every k-tile, what the thread loaded (global element ->
 * shared-memory offset, or zero), what it read back into registers (operands, mma.sync
 * fragments) and which elements of D (or of the split-K partial sums) it wrote must equal what
 * tools/trace computes for it. Exit 77 (skipped) without a GPU.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "f32.h"
#include "ladder.h"
#include "simt.h"
#include "sm80.h"
#include "trace.h"
#include "trace_record.h"

#define SKIP_CODE 77
/* Mismatches reported per case before the rest are only counted. */
#define REPORT_LIMIT 8
/* Records of slack past the longest list a thread should write. */
#define CAPACITY_SLACK 16
/* 16-bit tags: an operand may hold at most this many elements. */
#define MAX_16BIT_TAGS 65535

cudaError_t tg_trace_sink_install(const tg_trace_sink *s); /* trace_sink.cu */

typedef tg_status (*launch_fn)(const tg_problem *p, struct CUstream_st *stream);
typedef int (*splits_fn)(const tg_problem *p);
typedef size_t (*workspace_fn)(const tg_problem *p);

/* Each traced kernel's launcher, and for the rows that may split k their split count and
 * workspace (the registry row's hooks). */
static const struct {
  const char *name;
  launch_fn launch;
  splits_fn splits;
  workspace_fn workspace;
} k_launchers[] = {
    {"simt_01_naive", tg_simt_01_naive_launch, NULL, NULL},
    {"simt_02_coalesced", tg_simt_02_coalesced_launch, NULL, NULL},
    {"simt_03_smem", tg_simt_03_smem_launch, NULL, NULL},
    {"simt_04_1d_blocktile", tg_simt_04_1d_blocktile_launch, NULL, NULL},
    {"simt_05_2d_blocktile", tg_simt_05_2d_blocktile_launch, NULL, NULL},
    {"simt_06_vectorized", tg_simt_06_vectorized_launch, NULL, NULL},
    {"simt_07_warptile", tg_simt_07_warptile_launch, NULL, NULL},
    {"simt_08_double_buffer", tg_simt_08_double_buffer_launch, NULL, NULL},
    {"ladder_09_wmma", tg_ladder_09_wmma_launch, NULL, NULL},
    {"ladder_10_wmma_double_buffer", tg_ladder_10_wmma_double_buffer_launch, NULL, NULL},
    {"ladder_11_mma_swizzle", tg_ladder_11_mma_swizzle_launch, NULL, NULL},
    {"ladder_12_mma_multistage", tg_ladder_12_mma_multistage_launch, NULL, NULL},
#define SM80(row, name) \
  { row, tg_sm80_launch_##name, tg_sm80_splits_##name, tg_sm80_workspace_##name }
    SM80("sm80_128x256x64", h_128x256),
    SM80("sm80_256x128x64", h_256x128),
    SM80("sm80_128x128x64", h_128x128),
    SM80("sm80_64x128x64", h_64x128),
    SM80("sm80_64x64x64", h_64x64),
    SM80("sm80_128x128x64_splitk", h_128x128_splitk),
    SM80("sm80_64x64x64_splitk", h_64x64_splitk),
    SM80("sm80_tf32_256x128x32", tf32_256x128),
    SM80("sm80_tf32_128x128x32", tf32_128x128),
    SM80("sm80_tf32_64x64x32", tf32_64x64),
    SM80("sm80_tf32_64x64x32_splitk", tf32_64x64_splitk),
    SM80("sm80_s8_128x256x128", s8_128x256),
    SM80("sm80_s8_128x128x128", s8_128x128),
    SM80("sm80_s8_64x64x128", s8_64x64),
    SM80("sm80_s8_64x64x128_splitk", s8_64x64_splitk),
#undef SM80
#define F32(row, name) \
  { row, tg_f32_launch_##name, tg_f32_splits_##name, tg_f32_workspace_##name }
    F32("f32_128x128x16", 128x128),
    F32("f32_64x64x16", 64x64),
    F32("f32_64x64x16_splitk", 64x64_splitk),
#undef F32
};

static int g_checks, g_failures;

/* The largest power of two up to 16 dividing the bytes of ld and batch stride (device pointers
 * are 256-byte aligned). */
static int alignment(int64_t ld, int64_t stride, int elem_bytes) {
  int a = 16;
  while (a > elem_bytes && ((ld * elem_bytes) % a || (stride * elem_bytes) % a)) a /= 2;
  return a;
}

/* Bytes every leading dimension of the sm80 family's operands is a multiple of (the registry
 * rows' alignment; the planner repacks others). */
#define SM80_ALIGN_BYTES 16

/* The canonical problem of a case: A (m×k) and B (k×n) in the given orders, D row-major, the
 * kernel's input type; leading dimensions padded by pad (for sm80, both rounded up to whole 16
 * bytes), batches one after the other. */
static tg_problem problem(const tg_trace_kernel *k, const int64_t s[5], tg_order a_order,
                          tg_order b_order) {
  const int sm80 = strcmp(k->family, "sm80") == 0, eb = k->elem_bytes;
  const int64_t round = sm80 ? SM80_ALIGN_BYTES / eb : 1;
  tg_problem p;
  memset(&p, 0, sizeof p);
  p.m = s[0], p.n = s[1], p.k = s[2], p.batch = s[3];
  if (strcmp(k->ab_dtype, "s8") == 0) {
    p.input = TG_IN_S8;
    p.a_type = p.b_type = TG_S8;
    p.c_type = p.d_type = TG_S32;
    p.exact_int = 1;
  } else if (eb == 4) {
    p.input = k->acc_dtype ? TG_IN_TF32 : TG_IN_F32;
    p.a_type = p.b_type = TG_F32;
    p.c_type = p.d_type = TG_F32;
  } else {
    p.input = TG_IN_F16;
    p.a_type = p.b_type = TG_F16;
    p.c_type = p.d_type = TG_F32;
  }
  p.bias_type = TG_F32;
  p.a_order = a_order, p.b_order = b_order;
  const int64_t a_inner = a_order == TG_ROW_MAJOR ? p.k : p.m;
  const int64_t b_inner = b_order == TG_ROW_MAJOR ? p.n : p.k;
  p.lda = (a_inner + s[4] + round - 1) / round * round;
  p.ldb = (b_inner + s[4] + round - 1) / round * round;
  p.ldc = p.ldd = p.n + s[4];
  p.batch_stride_a = p.lda * (a_order == TG_ROW_MAJOR ? p.m : p.k);
  p.batch_stride_b = p.ldb * (b_order == TG_ROW_MAJOR ? p.k : p.n);
  p.batch_stride_c = p.batch_stride_d = p.ldd * p.m;
  p.alpha = 1.0, p.alpha_f = 1.0f;
  p.align_a = alignment(p.lda, p.batch_stride_a, eb);
  p.align_b = alignment(p.ldb, p.batch_stride_b, eb);
  p.align_c = p.align_d = alignment(p.ldd, p.batch_stride_d, (int)sizeof(float));
  p.align_bias = 16;
  p.sm = 90, p.sm_count = 132;
  return p;
}

/* Device memory filled with tags: element i holds i + 1, as a float value (`value`: the simt
 * rungs, whose hooks read values) or as its bits, truncated to the element's size. */
static void *tagged(int64_t elems, int elem_bytes, int value) {
  void *host = malloc((size_t)(elems * elem_bytes)), *dev = NULL;
  if (!host) return NULL;
  for (int64_t i = 0; i < elems; ++i) {
    if (value) ((float *)host)[i] = (float)(i + 1);
    else if (elem_bytes == 4) ((uint32_t *)host)[i] = (uint32_t)(i + 1);
    else if (elem_bytes == 2) ((uint16_t *)host)[i] = (uint16_t)(i + 1);
    else ((uint8_t *)host)[i] = (uint8_t)(i + 1);
  }
  if (cudaMalloc(&dev, (size_t)(elems * elem_bytes)) != cudaSuccess ||
      cudaMemcpy(dev, host, (size_t)(elems * elem_bytes), cudaMemcpyHostToDevice) != cudaSuccess)
    dev = NULL;
  free(host);
  return dev;
}

/* One element as the comparison sees it: operand, shared-memory offset (-1: none), tag. */
typedef struct seen {
  int operand;
  int64_t smem, tag;
} seen;

static int cmp_seen(const void *x, const void *y) {
  const seen *a = (const seen *)x, *b = (const seen *)y;
  if (a->operand != b->operand) return a->operand < b->operand ? -1 : 1;
  if (a->smem != b->smem) return a->smem < b->smem ? -1 : 1;
  return a->tag < b->tag ? -1 : a->tag > b->tag;
}

/* The context of a mismatch, for its message. */
typedef struct where {
  const char *kernel;
  const tg_problem *p;
  unsigned bx, by, bz;
  int tid, reported;
} where;

#define MISMATCH(w, ...)                                                                       \
  do {                                                                                         \
    ++g_failures;                                                                              \
    if ((w)->reported++ < REPORT_LIMIT) {                                                      \
      fprintf(stderr, "%s %lldx%lldx%lld batch %lld: CTA (%u,%u,%u) thread %d: ", (w)->kernel, \
              (long long)(w)->p->m, (long long)(w)->p->n, (long long)(w)->p->k,                \
              (long long)(w)->p->batch, (w)->bx, (w)->by, (w)->bz, (w)->tid);                  \
      fprintf(stderr, __VA_ARGS__);                                                            \
      fputc('\n', stderr);                                                                     \
    }                                                                                          \
  } while (0)

/* The next n records of `kind` from *at on, as seen elements (smem relative to the block's
 * bases). Returns how many there were. */
static int take(const tg_trace_record *r, int count, int *at, int kind, int n, seen *out,
                const uint32_t *base) {
  int got = 0;
  for (; *at < count && got < n; ++*at) {
    if (r[*at].what / TG_REC_OPERANDS != kind) continue;
    const int operand = r[*at].what % TG_REC_OPERANDS;
    out[got].operand = operand;
    out[got].smem = r[*at].smem < 0 ? -1 : (int64_t)(uint32_t)r[*at].smem - base[operand];
    out[got].tag = r[*at].tag;
    ++got;
  }
  return got;
}

/* What the trace says the elements of `kind` in l are; fragment tags are the registers' bits,
 * so they keep tag_mask of the element's offset + 1. */
static int expect(const tg_trace_list *l, int kind, int64_t tag_mask, seen *out) {
  int n = 0;
  for (int i = 0; i < l->count; ++i) {
    const tg_trace_elem *e = &l->v[i];
    if (e->kind != kind) continue;
    out[n].operand = e->operand;
    out[n].smem = kind == TG_TRACE_LOAD ? e->smem : -1;
    out[n].tag = kind == TG_TRACE_STORE ? e->offset : e->offset + 1; /* -1 + 1: a zero */
    if (kind == TG_TRACE_FRAGMENT) out[n].tag &= tag_mask;
    ++n;
  }
  return n;
}

/* Compares kind's elements of one k-tile (or the stores): as sets for loads and stores, in
 * order for fragments. */
static void compare(where *w, const char *what, int kt, seen *want, int n_want, seen *got,
                    int n_got, int ordered) {
  ++g_checks;
  if (n_got != n_want) {
    MISMATCH(w, "k-tile %d: %d %s recorded, the trace has %d", kt, n_got, what, n_want);
    return;
  }
  if (!ordered) {
    qsort(want, (size_t)n_want, sizeof *want, cmp_seen);
    qsort(got, (size_t)n_got, sizeof *got, cmp_seen);
  }
  for (int i = 0; i < n_want; ++i)
    if (cmp_seen(&want[i], &got[i]) != 0) {
      MISMATCH(w,
               "k-tile %d, %s %d: recorded %c smem %lld tag %lld, the trace has %c smem %lld "
               "tag %lld",
               kt, what, i, "ABD"[got[i].operand], (long long)got[i].smem, (long long)got[i].tag,
               "ABD"[want[i].operand], (long long)want[i].smem, (long long)want[i].tag);
      return;
    }
}

/* Runs kernel k (its recording build, launcher row r) on p and compares every thread with the
 * trace. */
static void run_case(const tg_trace_kernel *k, int r, const tg_problem *p0) {
  const int failures_before = g_failures;
  /* The simt and f32 hooks read fp32 operand values; the others, elements' bits. */
  const int value_tags = strcmp(k->family, "simt") == 0 || strcmp(k->family, "f32") == 0;
  const int64_t tag_mask = value_tags ? -1 : (int64_t)((1ull << (8 * k->elem_bytes)) - 1);
  tg_problem p = *p0;
  const int splits = k_launchers[r].splits ? k_launchers[r].splits(&p) : 1;
  tg_trace t;
  tg_trace_init(&t, k, &p, splits);
  const int threads = tg_trace_threads(&t);
  const int64_t blocks = (int64_t)t.grid[0] * t.grid[1] * t.grid[2];
  const int64_t a_elems = p.batch_stride_a * p.batch, b_elems = p.batch_stride_b * p.batch;
  if (k->elem_bytes == 2 && (a_elems > MAX_16BIT_TAGS || b_elems > MAX_16BIT_TAGS)) {
    fprintf(stderr, "%s: case too large for 16-bit tags\n", k->name);
    ++g_failures;
    return;
  }
  /* The trace of every thread: a list per k-tile (of the CTA with the most), then one of its
   * stores. */
  int parts = 1;
  for (int64_t b = 0; b < blocks; ++b) {
    tg_trace_cta c;
    tg_trace_cta_at(&t, (unsigned)(b % t.grid[0]), (unsigned)(b / t.grid[0] % t.grid[1]),
                    (unsigned)(b / t.grid[0] / t.grid[1]), &c);
    if (c.k_tiles + 1 > parts) parts = c.k_tiles + 1;
  }
  tg_trace_list *lists = (tg_trace_list *)calloc((size_t)(blocks * threads * parts), sizeof *lists);
  int capacity = 0;
  for (int64_t b = 0; lists && b < blocks; ++b) {
    tg_trace_cta c;
    tg_trace_cta_at(&t, (unsigned)(b % t.grid[0]), (unsigned)(b / t.grid[0] % t.grid[1]),
                    (unsigned)(b / t.grid[0] / t.grid[1]), &c);
    tg_trace_list *own = lists + b * threads * parts;
    for (int kt = 0; kt < c.k_tiles; ++kt) {
      tg_trace_list staged = {0};
      tg_trace_staged(&t, &c, kt, &staged);
      for (int tid = 0; tid < threads; ++tid)
        tg_trace_thread_staged(&t, &c, tid, kt, 0, &staged, &own[tid * parts + kt]);
      tg_trace_list_free(&staged);
    }
    for (int tid = 0; tid < threads; ++tid) {
      tg_trace_thread(&t, &c, tid, -1, 1, &own[tid * parts + parts - 1]);
      int total = 0;
      for (int q = 0; q < parts; ++q) total += own[tid * parts + q].count;
      if (total > capacity) capacity = total;
    }
  }
  capacity += CAPACITY_SLACK;
  /* Inputs, D and the sink. */
  tg_trace_sink sink;
  memset(&sink, 0, sizeof sink);
  sink.capacity = capacity;
  sink.blocks = (int32_t)blocks;
  sink.threads = threads;
  const size_t slots = (size_t)(blocks * threads);
  void *a = tagged(a_elems, k->elem_bytes, value_tags);
  void *bm = tagged(b_elems, k->elem_bytes, value_tags), *d = NULL, *work = NULL;
  const size_t work_bytes = k_launchers[r].workspace ? k_launchers[r].workspace(&p) : 0;
  int ok = lists && a && bm && (!work_bytes || cudaMalloc(&work, work_bytes) == cudaSuccess) &&
           cudaMalloc(&d, (size_t)(p.batch_stride_d * p.batch) * sizeof(float)) == cudaSuccess &&
           cudaMalloc((void **)&sink.records, slots * capacity * sizeof(tg_trace_record)) ==
               cudaSuccess &&
           cudaMalloc((void **)&sink.counts, (slots + 1) * sizeof(int32_t)) == cudaSuccess &&
           cudaMalloc((void **)&sink.smem_base,
                      (size_t)blocks * TG_REC_OPERANDS * sizeof(uint32_t)) == cudaSuccess &&
           cudaMemset(sink.counts, 0, (slots + 1) * sizeof(int32_t)) == cudaSuccess &&
           /* every slot initialized: the whole buffer is copied back, written or not */
           cudaMemset(sink.records, 0, slots * capacity * sizeof(tg_trace_record)) == cudaSuccess &&
           cudaMemset(sink.smem_base, 0, (size_t)blocks * TG_REC_OPERANDS * sizeof(uint32_t)) ==
               cudaSuccess &&
           tg_trace_sink_install(&sink) == cudaSuccess;
  p.a = a, p.b = bm, p.d = d, p.workspace = work, p.workspace_bytes = work_bytes;
  if (ok)
    ok = k_launchers[r].launch(&p, NULL) == TG_OK && cudaDeviceSynchronize() == cudaSuccess &&
         cudaGetLastError() == cudaSuccess;
  tg_trace_record *rec = ok ? (tg_trace_record *)malloc(slots * capacity * sizeof *rec) : NULL;
  int32_t *counts = ok ? (int32_t *)malloc((slots + 1) * sizeof *counts) : NULL;
  uint32_t *bases =
      ok ? (uint32_t *)malloc((size_t)blocks * TG_REC_OPERANDS * sizeof *bases) : NULL;
  ok = ok && rec && counts && bases &&
       cudaMemcpy(rec, sink.records, slots * capacity * sizeof *rec, cudaMemcpyDeviceToHost) ==
           cudaSuccess &&
       cudaMemcpy(counts, sink.counts, (slots + 1) * sizeof *counts, cudaMemcpyDeviceToHost) ==
           cudaSuccess &&
       cudaMemcpy(bases, sink.smem_base, (size_t)blocks * TG_REC_OPERANDS * sizeof *bases,
                  cudaMemcpyDeviceToHost) == cudaSuccess;
  ++g_checks;
  if (!ok) {
    fprintf(stderr, "%s: the recording run failed: %s\n", k->name,
            cudaGetErrorString(cudaGetLastError()));
    ++g_failures;
  } else if (counts[slots] != 0) {
    fprintf(stderr, "%s: %d hooks ran in blocks or threads the trace's launch does not have\n",
            k->name, counts[slots]);
    ++g_failures;
  }
  seen *want = (seen *)malloc((size_t)capacity * sizeof *want);
  seen *got = (seen *)malloc((size_t)capacity * sizeof *got);
  where w = {k->name, &p, 0, 0, 0, 0, 0};
  for (int64_t b = 0; ok && want && got && b < blocks; ++b) {
    w.bx = (unsigned)(b % t.grid[0]), w.by = (unsigned)(b / t.grid[0] % t.grid[1]);
    w.bz = (unsigned)(b / t.grid[0] / t.grid[1]);
    for (int tid = 0; tid < threads; ++tid) {
      const tg_trace_list *l = lists + (b * threads + tid) * parts;
      const tg_trace_record *mine = rec + (b * threads + tid) * capacity;
      const int count = counts[b * threads + tid];
      int total = 0;
      for (int q = 0; q < parts; ++q) total += l[q].count;
      w.tid = tid;
      ++g_checks;
      if (count != total) {
        MISMATCH(&w, "%d records, the trace has %d elements", count, total);
        continue;
      }
      /* Each kind's records come k-tile after k-tile, as the trace's lists do. */
      int at[TG_TRACE_KINDS] = {0};
      static const char *names[] = {"loads", "fragment elements", "stores"};
      for (int q = 0; q < parts; ++q)
        for (int kind = TG_TRACE_LOAD; kind <= TG_TRACE_STORE; ++kind) {
          const int n = expect(&l[q], kind, tag_mask, want);
          const int m = take(mine, count, &at[kind], kind, n, got, bases + b * TG_REC_OPERANDS);
          if (n || m) compare(&w, names[kind], q, want, n, got, m, kind == TG_TRACE_FRAGMENT);
        }
    }
  }
  free(want);
  free(got);
  free(rec);
  free(counts);
  free(bases);
  for (int64_t i = 0; lists && i < blocks * threads * parts; ++i) tg_trace_list_free(&lists[i]);
  free(lists);
  cudaFree(a);
  cudaFree(bm);
  cudaFree(d);
  cudaFree(work);
  cudaFree(sink.records);
  cudaFree(sink.counts);
  cudaFree(sink.smem_base);
  printf("%-28s A %c B %c %4lldx%-4lldx%-4lld batch %lld split %d: %s\n", k->name,
         "km"[p.a_order == TG_COL_MAJOR], "nk"[p.b_order == TG_COL_MAJOR], (long long)p.m,
         (long long)p.n, (long long)p.k, (long long)p.batch, splits,
         g_failures > failures_before ? "FAILED" : "equal to the trace");
}

int main(void) {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    printf("SKIP test_gpu_trace: no CUDA device (%s); GPU tests need an NVIDIA GPU\n",
           e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return SKIP_CODE;
  }
  for (int r = 0; r < (int)(sizeof k_launchers / sizeof k_launchers[0]); ++r) {
    const tg_trace_kernel *k = tg_trace_kernel_find(k_launchers[r].name);
    ++g_checks;
    if (!k) {
      fprintf(stderr, "%s has no trace\n", k_launchers[r].name);
      ++g_failures;
      continue;
    }
    const int64_t tm = k->tile_m, tn = k->tile_n, tk = k->tile_k == 1 ? 4 : k->tile_k;
    /* m, n, k, batch, pad. The rungs: whole tiles (aligned); every edge (unaligned); one
     * element; batches with padded leading dimensions; edges with aligned operands. The sm80
     * and f32 rows (sm80's leading dimensions rounded to 16 bytes, operands within 16-bit
     * tags): whole tiles, every edge, one element, batches, and k long enough for the split-K
     * rows to split. */
    const int64_t rungs[][5] = {
        {tm, tn, 2 * tk, 1, 0},
        {tm + 3, tn - 5, tk + 7, 1, 0},
        {1, 1, 1, 1, 0},
        {2 * tm - 1, tn + 1, 3 * tk - 1, 2, 3},
        {tm + 5, tn + 8, 2 * tk + 8, 1, 0},
    };
    const int64_t rows[][5] = {
        {tm, tn, 2 * tk, 1, 0},    {tm + 3, tn - 5, tk + 7, 1, 0}, {1, 1, 1, 1, 0},
        {tm + 1, 9, tk + 1, 2, 8}, {100, 100, 8 * tk, 1, 0},
    };
    const int rows_list = strcmp(k->family, "sm80") == 0 || strcmp(k->family, "f32") == 0;
    for (int a = TG_ROW_MAJOR; a <= TG_COL_MAJOR; ++a)
      for (int b = TG_ROW_MAJOR; b <= TG_COL_MAJOR; ++b) {
        if (!(k->a_orders >> a & 1u) || !(k->b_orders >> b & 1u)) continue;
        for (size_t c = 0; c < sizeof rungs / sizeof rungs[0]; ++c) {
          const tg_problem p = problem(k, rows_list ? rows[c] : rungs[c], (tg_order)a, (tg_order)b);
          run_case(k, r, &p);
        }
      }
  }
  printf("test_gpu_trace: %d checks, %d failed\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}
