/* launch.c — see launch.h. */
#include "launch.h"

#include <cuda_runtime_api.h>
#include <string.h>

#include "device.h"
#include "problem_build.h"
#include "ref.h"
#include "repack.h"
#include "tf32x3.h"

/* The smallest workspace allocated: small requests then share one allocation. */
#define TG_WORKSPACE_MIN_BYTES ((size_t)1 << 20)

static size_t align_up(size_t x) {
  return (x + TG_WORKSPACE_ALIGN - 1) / TG_WORKSPACE_ALIGN * TG_WORKSPACE_ALIGN;
}

void tg_launch_layout(tg_launch *x, const tg_plan *plan, const tg_problem *p) {
  memset(x, 0, sizeof *x);
  x->plan = *plan;
  x->q = *p;
  const tg_kernel *k = plan->kernel;
  if (!k) return;
  tg_plan_apply(plan, &x->q);
  x->kernel_bytes = align_up(k->workspace ? k->workspace(&x->q) : 0);
  /* x->q.k: the depth the kernel runs (3·k after a 3xTF32 split). */
  x->ra = tg_plan_repack_geometry(p->m, x->q.k, x->q.a_order, p->batch_stride_a, p->batch,
                                  tg_dtype_size(p->a_type));
  x->rb = tg_plan_repack_geometry(x->q.k, p->n, x->q.b_order, p->batch_stride_b, p->batch,
                                  tg_dtype_size(p->b_type));
  x->a_at = x->kernel_bytes;
  x->b_at = x->a_at + (tg_plan_copies_a(plan) ? align_up(x->ra.bytes) : 0);
  x->total = x->b_at + (tg_plan_copies_b(plan) ? align_up(x->rb.bytes) : 0);
}

void tg_launch_bind(const tg_launch *x, const tg_problem *p, void *workspace, unsigned *sync_flags,
                    tg_problem *q) {
  *q = x->q;
  q->a = tg_plan_copies_a(&x->plan) ? (const void *)((char *)workspace + x->a_at) : p->a;
  q->b = tg_plan_copies_b(&x->plan) ? (const void *)((char *)workspace + x->b_at) : p->b;
  q->c = p->c;
  q->d = p->d;
  q->workspace = workspace;
  q->workspace_bytes = x->kernel_bytes;
  q->sync_flags = sync_flags;
}

int tg_launch_prepare(tg_handle *h, const tg_launch *x, const tg_problem *p, tg_prepared *prep) {
  const tg_kernel *k = x->plan.kernel;
  if (!k || !k->prepare || h->device < 0) return 0;
  tg_problem q;
  tg_launch_bind(x, p, h->workspace, h->sync_flags, &q);
  if (k->prepare(&q, prep) == TG_OK) return 1;
  (void)cudaGetLastError(); /* a failed query; the row's launch meets it again and reports it */
  return 0;
}

/* At least doubling from TG_WORKSPACE_MIN_BYTES, and keeping the outgrown one (handle.h), so
 * that no call frees memory. */
tg_status tg_workspace_ensure(tg_handle *h, const char *fn, size_t bytes) {
  if (bytes <= h->workspace_bytes) return TG_OK;
  if (h->workspace && h->retired_count == TG_RETIRED_WORKSPACES)
    return tg_fail(h, TG_ERR_INTERNAL, "%s: the workspace grew more than %d times", fn,
                   TG_RETIRED_WORKSPACES);
  size_t grown = h->workspace_bytes ? 2 * h->workspace_bytes : TG_WORKSPACE_MIN_BYTES;
  if (grown < bytes) grown = bytes;
  void *fresh = NULL;
  cudaError_t e = tg_device_malloc(&fresh, grown);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return tg_cuda_fail(h, fn, "allocating the workspace", e);
  }
  if (h->workspace) h->retired[h->retired_count++] = h->workspace;
  h->workspace = fresh;
  h->workspace_bytes = grown;
  return TG_OK;
}

tg_status tg_after_launch(tg_handle *h, const char *fn, const char *name, tg_status s) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return tg_cuda_fail(h, fn, name, e);
  if (s != TG_OK) return tg_fail(h, s, "%s: launching '%s' failed", fn, name);
  return TG_OK;
}

/* Enqueues the copy of operand B (is_b) or A of p into the workspace where q, the problem the
 * kernel runs, reads it: a repack, or the 3xTF32 split with the operand's remainder part. */
static tg_status copy_operand(tg_handle *h, const char *fn, const tg_launch *x, const tg_problem *p,
                              const tg_problem *q, int is_b, tg_stream stream) {
  const tg_matrix_ref src = is_b ? (tg_matrix_ref){p->b, p->b_order, p->ldb, p->batch_stride_b}
                                 : (tg_matrix_ref){p->a, p->a_order, p->lda, p->batch_stride_a};
  const tg_matrix_ref dst = is_b ? (tg_matrix_ref){q->b, q->b_order, q->ldb, q->batch_stride_b}
                                 : (tg_matrix_ref){q->a, q->a_order, q->lda, q->batch_stride_a};
  const int64_t rows = is_b ? p->k : p->m, cols = is_b ? p->n : p->k;
  const int64_t batches = is_b ? x->rb.batches : x->ra.batches;
  if (x->plan.tf32x3)
    return tg_after_launch(
        h, fn, is_b ? "split B" : "split A",
        tg_repack_tf32x3_launch(src, dst, rows, cols, batches,
                                is_b ? TG_TF32X3_LO_PART_B : TG_TF32X3_LO_PART_A, stream));
  const tg_dtype type = is_b ? p->b_type : p->a_type;
  return tg_after_launch(
      h, fn, is_b ? "repack B" : "repack A",
      tg_repack_launch(src, dst, rows, cols, batches, (int)tg_dtype_size(type), stream));
}

/* Enqueues x's repacks or splits and its kernel (or the epilogue alone) for p. */
static tg_status enqueue(tg_handle *h, const char *fn, const tg_launch *x, const tg_problem *p,
                         tg_prepared *prep, tg_stream stream) {
  const tg_kernel *k = x->plan.kernel;
  if (!k) return tg_after_launch(h, fn, TG_EPILOGUE_ONLY_NAME, tg_ref_launch(p, stream));
  tg_status s = tg_workspace_ensure(h, fn, x->total);
  if (s != TG_OK) return s;
  tg_problem q;
  tg_launch_bind(x, p, h->workspace, h->sync_flags, &q);
  if (tg_plan_copies_a(&x->plan) && (s = copy_operand(h, fn, x, p, &q, 0, stream)) != TG_OK)
    return s;
  if (tg_plan_copies_b(&x->plan) && (s = copy_operand(h, fn, x, p, &q, 1, stream)) != TG_OK)
    return s;
  return tg_after_launch(h, fn, k->name,
                         prep ? prep->run(prep, &q, stream) : k->launch(&q, stream));
}

tg_status tg_launch_on_device(tg_handle *h, const char *fn, const tg_launch *x, const tg_problem *p,
                              tg_prepared *prep, tg_stream stream) {
  int prev = 0;
  if (h->device < 0)
    return tg_fail(h, TG_ERR_NO_DEVICE, "%s: the handle is virtual (no device to run on)", fn);
  tg_status s = tg_device_enter(h, fn, &prev);
  if (s != TG_OK) return s;
  s = enqueue(h, fn, x, p, prep, stream);
  if (s == TG_OK) h->last_kernel = x->plan.kernel ? x->plan.kernel->name : TG_EPILOGUE_ONLY_NAME;
  tg_device_leave(h, prev);
  return s == TG_OK ? tg_succeed(h) : s;
}
