/*
 * test_gpu_plan.c — planned requests on the GPU: a plan's runs give tg_matmul's bits (aligned
 * operands, run after run on other operands, and operands less aligned than the plan assumed,
 * which are planned anew; C read, D column-major, batches, tiles with a column tail, fp8), a run
 * captured into a CUDA graph gives them too and keeps its operands when later runs take others,
 * and the host time a call takes is measured for tg_matmul and tg_plan_run side by side
 * (printed: a measurement, not a pass/fail test; `tilegemm bench --host-time` does more).
 *
 *   test_gpu_plan [--calls N]
 */
#define _POSIX_C_SOURCE 200809L
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "host_stats.h"
#include "tilegemm.h"

#define DEFAULT_CALLS 2000
#define BATCHES 9 /* the median of these batches of calls is reported */

typedef struct buffers {
  void *a, *b, *c, *d1, *d2;
  size_t a_bytes, b_bytes, c_bytes, d_bytes; /* of the operands, from their first element */
} buffers;

/* Bytes of a packed operand of g: rows × cols elements of `type` per batch. */
static size_t packed_bytes(const tg_gemm *g, int64_t rows, int64_t cols, tg_dtype type) {
  return (size_t)(rows * cols * g->batch) * tg_dtype_size(type);
}

/* Buffers for g (packed operands; C when beta != 0) with `offset` extra elements in front of
 * each operand (0: 256-byte aligned); `seed` varies the inputs. */
static int make_buffers(const tg_gemm *g, buffers *x, int offset, unsigned seed) {
  const size_t ea = tg_dtype_size(g->a_type), ec = tg_dtype_size(g->c_type),
               ed = tg_dtype_size(g->d_type);
  memset(x, 0, sizeof *x);
  x->a_bytes = packed_bytes(g, g->m, g->k, g->a_type);
  x->b_bytes = packed_bytes(g, g->k, g->n, g->b_type);
  x->c_bytes = g->beta != 0.0 ? packed_bytes(g, g->m, g->n, g->c_type) : 0;
  x->d_bytes = packed_bytes(g, g->m, g->n, g->d_type);
  /* C only when it is read (NULL otherwise, as free_buffers expects). */
  if (cudaMalloc(&x->a, x->a_bytes + offset * ea) || cudaMalloc(&x->b, x->b_bytes + offset * ea) ||
      (x->c_bytes && cudaMalloc(&x->c, x->c_bytes + offset * ec)) ||
      cudaMalloc(&x->d1, x->d_bytes + offset * ed) || cudaMalloc(&x->d2, x->d_bytes + offset * ed))
    return -1;
  /* Small integers in every byte pattern the type allows: inputs need only be the same for both. */
  size_t most = x->a_bytes > x->b_bytes ? x->a_bytes : x->b_bytes;
  if (x->c_bytes > most) most = x->c_bytes;
  unsigned char *host = (unsigned char *)malloc(most);
  for (size_t i = 0; i < most; ++i) host[i] = (unsigned char)((i * 7 + seed) % 61 & 0x3f);
  x->a = (char *)x->a + offset * ea;
  x->b = (char *)x->b + offset * ea;
  if (x->c) x->c = (char *)x->c + offset * ec;
  cudaMemcpy(x->a, host, x->a_bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(x->b, host, x->b_bytes, cudaMemcpyHostToDevice);
  if (x->c) cudaMemcpy(x->c, host, x->c_bytes, cudaMemcpyHostToDevice);
  free(host);
  x->d1 = (char *)x->d1 + offset * ed;
  x->d2 = (char *)x->d2 + offset * ed;
  return 0;
}

static void free_buffers(const tg_gemm *g, buffers *x, int offset) {
  const size_t ea = tg_dtype_size(g->a_type), ec = tg_dtype_size(g->c_type),
               ed = tg_dtype_size(g->d_type);
  cudaFree((char *)x->a - offset * ea);
  cudaFree((char *)x->b - offset * ea);
  if (x->c) cudaFree((char *)x->c - offset * ec);
  cudaFree((char *)x->d1 - offset * ed);
  cudaFree((char *)x->d2 - offset * ed);
}

static int same_d(const buffers *x) {
  unsigned char *p = (unsigned char *)malloc(x->d_bytes), *q = (unsigned char *)malloc(x->d_bytes);
  cudaMemcpy(p, x->d1, x->d_bytes, cudaMemcpyDeviceToHost);
  cudaMemcpy(q, x->d2, x->d_bytes, cudaMemcpyDeviceToHost);
  const int same = memcmp(p, q, x->d_bytes) == 0;
  free(p);
  free(q);
  return same;
}

/* tg_matmul into x's d1 and a run of the plan into its d2 on `stream`: 1 when both succeed and
 * agree bit for bit. */
static int run_agrees(tg_handle *h, const tg_gemm *g, tg_matmul_plan *plan, const buffers *x,
                      cudaStream_t stream, const char *what) {
  cudaMemset(x->d1, 0xff, x->d_bytes);
  cudaMemset(x->d2, 0x7f, x->d_bytes);
  CHECK_MSG(tg_matmul(h, g, x->a, x->b, x->c, x->d1, stream) == TG_OK, "%s: %s", what,
            tg_last_error(h));
  CHECK_MSG(tg_plan_run(plan, x->a, x->b, x->c, x->d2, stream) == TG_OK, "%s: %s", what,
            tg_last_error(h));
  return cudaDeviceSynchronize() == cudaSuccess && same_d(x);
}

/* A plan's runs against tg_matmul, bit for bit: on two sets of operands in turn (x, y, x: a
 * prepared launch points its tensor maps at each run's operands), and captured into a CUDA
 * graph, whose replay after eager runs on the other set still computes from the operands it was
 * captured with. */
static void check_bits(tg_handle *h, const tg_gemm *g, int offset, const char *what) {
  buffers x, y;
  if (make_buffers(g, &x, offset, 0) != 0 || make_buffers(g, &y, offset, 5) != 0) {
    CHECK_MSG(0, "%s: allocation failed", what);
    return;
  }
  tg_matmul_plan *plan = NULL;
  CHECK_MSG(tg_plan_create(h, g, &plan) == TG_OK, "%s: %s", what, tg_last_error(h));
  const buffers *order[] = {&x, &y, &x};
  for (int i = 0; i < 3; ++i)
    CHECK_MSG(run_agrees(h, g, plan, order[i], 0, what),
              "%s: planned run %d (operand set %c) differs from tg_matmul", what, i, "xyx"[i]);
  /* Captured on x, replayed after a run on y. */
  cudaStream_t s;
  cudaGraph_t graph = NULL;
  cudaGraphExec_t exec = NULL;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  CHECK_MSG(run_agrees(h, g, plan, &x, s, what), "%s: the eager run before capture differs", what);
  cudaMemset(x.d2, 0x7f, x.d_bytes);
  cudaDeviceSynchronize();
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  const tg_status st = tg_plan_run(plan, x.a, x.b, x.c, x.d2, s);
  const int captured = cudaStreamEndCapture(s, &graph) == cudaSuccess && st == TG_OK &&
                       cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
  CHECK_MSG(run_agrees(h, g, plan, &y, s, what), "%s: an eager run after capture differs", what);
  const int replayed = captured && cudaGraphLaunch(exec, s) == cudaSuccess &&
                       cudaStreamSynchronize(s) == cudaSuccess;
  CHECK_MSG(replayed && same_d(&x), "%s: a captured planned run differs from tg_matmul (%s)", what,
            tg_last_error(h));
  if (exec) cudaGraphExecDestroy(exec);
  if (graph) cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  tg_plan_destroy(plan);
  free_buffers(g, &x, offset);
  free_buffers(g, &y, offset);
}

/* Median host microseconds per call of `calls` back-to-back calls of each kind, on one stream. */
static void time_calls(tg_handle *h, const tg_gemm *g, int calls, const char *what) {
  buffers x;
  if (make_buffers(g, &x, 0, 0) != 0) return;
  tg_matmul_plan *plan = NULL;
  if (tg_plan_create(h, g, &plan) != TG_OK) return;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  double matmul[BATCHES], planned[BATCHES];
  for (int b = 0; b < BATCHES; ++b) {
    for (int kind = 0; kind < 2; ++kind) {
      cudaStreamSynchronize(s);
      const double t0 = tg_wall_us();
      for (int i = 0; i < calls; ++i) {
        if (kind == 0) tg_matmul(h, g, x.a, x.b, NULL, x.d1, s);
        else tg_plan_run(plan, x.a, x.b, NULL, x.d1, s);
      }
      const double t = (tg_wall_us() - t0) / calls;
      cudaStreamSynchronize(s);
      (kind == 0 ? matmul : planned)[b] = t;
    }
  }
  printf("host time per call, %s (%s): tg_matmul %.2f us, tg_plan_run %.2f us\n", what,
         tg_plan_kernel(plan), tg_median_sorted(matmul, BATCHES),
         tg_median_sorted(planned, BATCHES));
  cudaStreamDestroy(s);
  tg_plan_destroy(plan);
  free_buffers(g, &x, 0);
}

int main(int argc, char **argv) {
  int calls = DEFAULT_CALLS;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--calls") == 0 && i + 1 < argc) calls = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s [--calls N]\n", argv[0]);
      return 2;
    }
  }
  tg_test_require_gpu("test_gpu_plan");
  tg_handle *h;
  if (tg_create(&h) != TG_OK) {
    fprintf(stderr, "tg_create: %s\n", tg_last_error(NULL));
    return 1;
  }
  tg_gemm g;
  tg_gemm_init(&g, 33, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  check_bits(h, &g, 0, "33x4096x4096 bf16 (stream-K)");
  check_bits(h, &g, 1, "33x4096x4096 bf16, operands 2 bytes off (planned anew)");
  tg_gemm_init(&g, 300, 520, 264, TG_F16, TG_F16);
  check_bits(h, &g, 0, "300x520x264 f16, B row-major (repacked)");
  tg_gemm_init(&g, 100, 70, 30, TG_F32, TG_F32);
  check_bits(h, &g, 0, "100x70x30 f32");
  /* C read through its own tensor maps, into a column-major D (the transposed problem). */
  tg_gemm_init(&g, 520, 384, 256, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  g.c_order = TG_COL_MAJOR;
  g.beta = 0.5;
  check_bits(h, &g, 0, "520x384x256 bf16, beta 0.5, C and D column-major");
  /* Tiles with a tail of columns (their own D maps), batched. */
  tg_gemm_init(&g, 300, 400, 320, TG_F16, TG_F16);
  g.b_order = TG_COL_MAJOR;
  g.batch = 3;
  g.kernel = "sm90_128x144x64";
  if (tg_check(h, &g) == TG_OK) check_bits(h, &g, 0, "3x300x400x320 f16 on sm90_128x144x64");
  tg_gemm_init(&g, 256, 256, 512, TG_E4M3, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  check_bits(h, &g, 0, "256x256x512 e4m3");
  tg_gemm_init(&g, 64, 64, 64, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  time_calls(h, &g, calls, "64x64x64 bf16");
  tg_gemm_init(&g, 16, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  time_calls(h, &g, calls / 4, "16x4096x4096 bf16");
  tg_gemm_init(&g, 4096, 4096, 4096, TG_BF16, TG_BF16);
  g.b_order = TG_COL_MAJOR;
  time_calls(h, &g, 50, "4096x4096x4096 bf16");
  tg_destroy(h);
  return tg_test_finish("test_gpu_plan");
}
