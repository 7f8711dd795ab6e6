/*
 * api.c — the public entry points: handles, tg_check, tg_matmul, tg_reference.
 *
 * Every call runs validate → quick return → build the canonical problem → plan → launch, and
 * turns every CUDA failure into a tg_status with a message. Nothing is launched or written
 * before all checks pass.
 */
#include <cuda_runtime_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "handle.h"
#include "plan.h"
#include "problem_build.h"
#include "ref.h"
#include "registry.h"
#include "repack.h"
#include "tf32x3.h"
#include "tilegemm.h"
#include "validate.h"

/* The smallest workspace allocated: small requests then share one allocation. */
#define TG_WORKSPACE_MIN_BYTES ((size_t)1 << 20)

/* cudaMalloc that may run while a stream is being captured into a CUDA graph: the thread's
 * capture mode is relaxed for the call (the allocation is the handle's, not the graph's, and
 * outlives any graph that uses it; handle.h). */
static cudaError_t device_malloc(void **ptr, size_t bytes) {
  enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  cudaError_t e = cudaThreadExchangeStreamCaptureMode(&mode);
  if (e != cudaSuccess) return e;
  e = cudaMalloc(ptr, bytes);
  const cudaError_t restore = cudaThreadExchangeStreamCaptureMode(&mode);
  if (e != cudaSuccess) *ptr = NULL;
  return e != cudaSuccess ? e : restore;
}

/* Oldest architecture the library's kernels are built for. */
#define TG_MIN_SM 80
/* Name reported when the product vanishes (k == 0 or alpha == 0) and only the epilogue runs. */
static const char k_epilogue_only[] = TG_EPILOGUE_ONLY_NAME;

void tg_gemm_init(tg_gemm *g, int64_t m, int64_t n, int64_t k, tg_dtype ab_type, tg_dtype cd_type) {
  if (!g) return;
  memset(g, 0, sizeof *g);
  g->m = m;
  g->n = n;
  g->k = k;
  g->batch = 1;
  g->a_type = g->b_type = ab_type;
  g->c_type = g->d_type = cd_type;
  g->compute = ab_type == TG_S8 ? TG_COMPUTE_S32 : TG_COMPUTE_F32;
  g->a_order = g->b_order = g->c_order = TG_ROW_MAJOR;
  g->alpha = 1.0;
  g->beta = 0.0;
  g->epilogue = TG_EPI_NONE;
  g->bias_type = TG_F32;
}

tg_status tg_create(tg_handle **out) {
  static const char fn[] = "tg_create";
  if (!out) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  *out = NULL;
  int count = 0, dev = 0, major = 0, minor = 0, sms = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return tg_fail(NULL, TG_ERR_NO_DEVICE, "%s: no CUDA device is available (%s)", fn,
                   e != cudaSuccess ? cudaGetErrorString(e) : "device count is 0");
  }
  if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev)) != cudaSuccess ||
      (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess)
    return tg_cuda_fail(NULL, fn, "querying the current device", e);
  tg_cache_device identity;
  if ((e = tg_device_identity(dev, sms, &identity)) != cudaSuccess)
    return tg_cuda_fail(NULL, fn, "querying the current device's name", e);
  if (major * 10 + minor < TG_MIN_SM)
    return tg_fail(NULL, TG_ERR_NOT_SUPPORTED, "%s: device %d is sm_%d%d; tilegemm needs sm_80+",
                   fn, dev, major, minor);
  tg_handle *h = (tg_handle *)calloc(1, sizeof *h);
  if (!h) return tg_fail(NULL, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  h->device = dev;
  h->sm = major * 10 + minor;
  h->sm_count = sms;
  h->last_kernel = "";
  /* The readiness flags start zeroed, and every launch leaves them so (problem.h). */
  const size_t flag_bytes = (size_t)sms * TG_SYNC_FLAGS_PER_SM * sizeof(unsigned);
  if ((e = device_malloc((void **)&h->sync_flags, flag_bytes)) != cudaSuccess ||
      (e = cudaMemset(h->sync_flags, 0, flag_bytes)) != cudaSuccess) {
    if (h->sync_flags) cudaFree(h->sync_flags);
    free(h);
    (void)cudaGetLastError();
    return tg_cuda_fail(NULL, fn, "allocating the readiness flags", e);
  }
  tg_cache_init(&h->cache, &identity);
  /* The default tuning cache: its problems are warnings (tg_cache_warnings), never failures. */
  (void)tg_cache_load(h, NULL);
  h->error[0] = '\0';
  *out = h;
  return tg_succeed(NULL);
}

tg_status tg_create_virtual(tg_handle **out, int sm, int sm_count) {
  static const char fn[] = "tg_create_virtual";
  if (!out) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  *out = NULL;
  if (sm < TG_MIN_SM)
    return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'sm' = %d is below %d", fn, sm,
                   TG_MIN_SM);
  if (sm_count <= 0)
    return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'sm_count' = %d is not positive", fn,
                   sm_count);
  tg_handle *h = (tg_handle *)calloc(1, sizeof *h);
  if (!h) return tg_fail(NULL, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  h->device = -1;
  h->sm = sm;
  h->sm_count = sm_count;
  h->last_kernel = "";
  tg_cache_device identity;
  tg_device_virtual_identity(sm, sm_count, &identity);
  tg_cache_init(&h->cache, &identity); /* empty: a virtual device has no default cache */
  *out = h;
  return tg_succeed(NULL);
}

void tg_destroy(tg_handle *h) {
  if (!h) return;
  tg_cache_clear(&h->cache);
  if (h->workspace || h->sync_flags || h->retired_count) {
    /* tg_destroy returns nothing: a failure here (the device or its context already gone, whose
     * memory went with it) is taken off the runtime's last-error slot and the rest still runs. */
    int prev = -1, ok = cudaGetDevice(&prev) == cudaSuccess;
    if (prev != h->device && cudaSetDevice(h->device) != cudaSuccess) ok = 0;
    if (h->workspace && cudaFree(h->workspace) != cudaSuccess) ok = 0;
    for (int i = 0; i < h->retired_count; ++i)
      if (cudaFree(h->retired[i]) != cudaSuccess) ok = 0;
    if (h->sync_flags && cudaFree(h->sync_flags) != cudaSuccess) ok = 0;
    if (prev >= 0 && prev != h->device && cudaSetDevice(prev) != cudaSuccess) ok = 0;
    if (!ok) (void)cudaGetLastError();
  }
  free(h);
}

/* Validation shared by the entry points; *empty is set when there is nothing to compute. */
static tg_status begin(tg_handle *h, const char *fn, const tg_gemm *g, tg_layout *L, int *empty) {
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  h->last_kernel = "";
  tg_status s = tg_validate_gemm(h, fn, g, L);
  if (s != TG_OK) return s;
  *empty = g->m == 0 || g->n == 0 || g->batch == 0;
  return TG_OK;
}

/* The plan for a built problem; plan->kernel is NULL when the product vanishes and the
 * epilogue runs alone. */
static tg_status choose(tg_handle *h, const char *fn, const tg_gemm *g, const tg_problem *p,
                        tg_plan *plan) {
  char why[256];
  memset(plan, 0, sizeof *plan);
  if (p->k == 0) return TG_OK;
  if (tg_plan_memo_find(&h->memo, p, g->kernel, h->cache.generation, plan)) return TG_OK;
  tg_status s = tg_plan_choose(p, g->kernel, &h->cache, plan, why, sizeof why);
  if (s != TG_OK) return tg_fail(h, s, "%s: %s", fn, why);
  tg_plan_memo_store(&h->memo, p, g->kernel, h->cache.generation, plan);
  return TG_OK;
}

tg_status tg_check(tg_handle *h, const tg_gemm *g) {
  static const char fn[] = "tg_check";
  tg_layout L;
  int empty = 0;
  tg_status s = begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
  tg_problem p;
  tg_problem_build(&p, g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  tg_plan plan;
  if ((s = choose(h, fn, g, &p, &plan)) != TG_OK) return s;
  h->last_kernel = plan.kernel ? plan.kernel->name : k_epilogue_only;
  return tg_succeed(h);
}

/* Grows the workspace to at least `bytes`: at least doubling it, from TG_WORKSPACE_MIN_BYTES,
 * and keeping the outgrown one (handle.h), so that no call frees memory. */
static tg_status ensure_workspace(tg_handle *h, const char *fn, size_t bytes) {
  if (bytes <= h->workspace_bytes) return TG_OK;
  if (h->workspace && h->retired_count == TG_RETIRED_WORKSPACES)
    return tg_fail(h, TG_ERR_INTERNAL, "%s: the workspace grew more than %d times", fn,
                   TG_RETIRED_WORKSPACES);
  size_t grown = h->workspace_bytes ? 2 * h->workspace_bytes : TG_WORKSPACE_MIN_BYTES;
  if (grown < bytes) grown = bytes;
  void *fresh = NULL;
  cudaError_t e = device_malloc(&fresh, grown);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return tg_cuda_fail(h, fn, "allocating the workspace", e);
  }
  if (h->workspace) h->retired[h->retired_count++] = h->workspace;
  h->workspace = fresh;
  h->workspace_bytes = grown;
  return TG_OK;
}

/* Collects the launch error, if any, of the kernel just enqueued. */
static tg_status after_launch(tg_handle *h, const char *fn, const char *name, tg_status s) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return tg_cuda_fail(h, fn, name, e);
  if (s != TG_OK) return tg_fail(h, s, "%s: launching '%s' failed", fn, name);
  return TG_OK;
}

/* Workspace layout of a plan: [kernel scratch][repacked or split A][... B], each part aligned. */
#define TG_WORKSPACE_ALIGN 256

static size_t align_up(size_t x) {
  return (x + TG_WORKSPACE_ALIGN - 1) / TG_WORKSPACE_ALIGN * TG_WORKSPACE_ALIGN;
}

/* Where a plan's parts go in the workspace: the kernel's scratch, then the repacked operands. */
typedef struct workspace_layout {
  tg_problem q; /* the problem as the kernel sees it (tg_plan_apply) */
  size_t kernel_bytes, a_at, b_at, total;
  tg_repack_geometry ra, rb;
} workspace_layout;

static workspace_layout layout_workspace(const tg_plan *plan, const tg_problem *p) {
  workspace_layout w;
  const tg_kernel *k = plan->kernel;
  w.q = *p;
  tg_plan_apply(plan, &w.q);
  w.kernel_bytes = align_up(k->workspace ? k->workspace(&w.q) : 0);
  /* w.q.k: the depth the kernel runs (3·k after a 3xTF32 split). */
  w.ra = tg_plan_repack_geometry(p->m, w.q.k, w.q.a_order, p->batch_stride_a, p->batch,
                                 tg_dtype_size(p->a_type));
  w.rb = tg_plan_repack_geometry(w.q.k, p->n, w.q.b_order, p->batch_stride_b, p->batch,
                                 tg_dtype_size(p->b_type));
  w.a_at = w.kernel_bytes;
  w.b_at = w.a_at + (tg_plan_copies_a(plan) ? align_up(w.ra.bytes) : 0);
  w.total = w.b_at + (tg_plan_copies_b(plan) ? align_up(w.rb.bytes) : 0);
  return w;
}

/* Enqueues the copy of one operand (rows × cols) into the workspace: a repack, or the 3xTF32
 * split with its remainder in part lo_part. */
static tg_status copy_operand(tg_handle *h, const char *fn, const tg_plan *plan, const char *what,
                              tg_matrix_ref src, tg_matrix_ref dst, int64_t rows, int64_t cols,
                              int64_t batches, tg_dtype type, int lo_part, tg_stream stream) {
  return after_launch(
      h, fn, what,
      plan->tf32x3
          ? tg_repack_tf32x3_launch(src, dst, rows, cols, batches, lo_part, stream)
          : tg_repack_launch(src, dst, rows, cols, batches, (int)tg_dtype_size(type), stream));
}

/* Enqueues the plan's repacks and its kernel (or the epilogue alone). */
static tg_status run_plan(tg_handle *h, const char *fn, const tg_plan *plan, tg_problem *p,
                          tg_stream stream) {
  const tg_kernel *k = plan->kernel;
  const char *name = k ? k->name : k_epilogue_only;
  if (!k) return after_launch(h, fn, name, tg_ref_launch(p, stream));
  workspace_layout w = layout_workspace(plan, p);
  tg_problem q = w.q; /* as the kernel sees it: repacked operands in their new layout */
  tg_status s = ensure_workspace(h, fn, w.total);
  if (s != TG_OK) return s;
  q.workspace = h->workspace;
  q.workspace_bytes = w.kernel_bytes;
  if (tg_plan_copies_a(plan)) {
    tg_matrix_ref src = {p->a, p->a_order, p->lda, p->batch_stride_a};
    tg_matrix_ref dst = {(char *)h->workspace + w.a_at, q.a_order, q.lda, q.batch_stride_a};
    s = copy_operand(h, fn, plan, plan->tf32x3 ? "split A" : "repack A", src, dst, p->m, p->k,
                     w.ra.batches, p->a_type, TG_TF32X3_LO_PART_A, stream);
    if (s != TG_OK) return s;
    q.a = dst.ptr;
  }
  if (tg_plan_copies_b(plan)) {
    tg_matrix_ref src = {p->b, p->b_order, p->ldb, p->batch_stride_b};
    tg_matrix_ref dst = {(char *)h->workspace + w.b_at, q.b_order, q.ldb, q.batch_stride_b};
    s = copy_operand(h, fn, plan, plan->tf32x3 ? "split B" : "repack B", src, dst, p->k, p->n,
                     w.rb.batches, p->b_type, TG_TF32X3_LO_PART_B, stream);
    if (s != TG_OK) return s;
    q.b = dst.ptr;
  }
  q.sync_flags = h->sync_flags;
  return after_launch(h, fn, name, k->launch(&q, stream));
}

/* Runs a chosen plan for p on the handle's device. */
static tg_status run_on_device(tg_handle *h, const char *fn, const tg_plan *plan, tg_problem *p,
                               tg_stream stream) {
  int prev = 0;
  if (h->device < 0)
    return tg_fail(h, TG_ERR_NO_DEVICE, "%s: the handle is virtual (no device to run on)", fn);
  tg_status s = tg_device_enter(h, fn, &prev);
  if (s != TG_OK) return s;
  s = run_plan(h, fn, plan, p, stream);
  if (s == TG_OK) h->last_kernel = plan->kernel ? plan->kernel->name : k_epilogue_only;
  tg_device_leave(h, prev);
  return s == TG_OK ? tg_succeed(h) : s;
}

tg_status tg_matmul(tg_handle *h, const tg_gemm *g, const void *A, const void *B, const void *C,
                    void *D, tg_stream stream) {
  static const char fn[] = "tg_matmul";
  tg_layout L;
  int empty = 0;
  tg_status s = begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  if ((s = tg_validate_pointers(h, fn, g, &L, A, B, C, D)) != TG_OK) return s;
  tg_problem p;
  tg_problem_build(&p, g, &L, A, B, C, D, h->sm, h->sm_count);
  tg_plan plan;
  if ((s = choose(h, fn, g, &p, &plan)) != TG_OK) return s;
  return run_on_device(h, fn, &plan, &p, stream);
}

/* ---- Planned requests ---------------------------------------------------------------------- */

struct tg_matmul_plan {
  tg_handle *h;
  tg_gemm g; /* the request; g.kernel points at kernel_name or is NULL */
  char kernel_name[TG_PLAN_MEMO_NAME_BYTES];
  tg_layout L;
  int empty;       /* m, n or batch is 0: a run does nothing */
  tg_problem base; /* built with 16-byte-aligned placeholder operands */
  tg_plan plan;    /* the choice for base */
};

tg_status tg_plan_create(tg_handle *h, const tg_gemm *g, tg_matmul_plan **out) {
  static const char fn[] = "tg_plan_create";
  if (!out) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'plan' is NULL", fn);
  *out = NULL;
  tg_layout L;
  int empty = 0;
  tg_status s = begin(h, fn, g, &L, &empty);
  if (s != TG_OK) return s;
  if (g->kernel && strlen(g->kernel) >= TG_PLAN_MEMO_NAME_BYTES)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'kernel': no kernel is named '%.40s...'",
                   fn, g->kernel);
  tg_matmul_plan *P = (tg_matmul_plan *)calloc(1, sizeof *P);
  if (!P) return tg_fail(h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  P->h = h;
  P->g = *g;
  P->L = L;
  P->empty = empty;
  if (g->kernel) {
    memcpy(P->kernel_name, g->kernel, strlen(g->kernel) + 1);
    P->g.kernel = P->kernel_name;
  }
  if (!empty) {
    const void *fake = (const void *)TG_CHECK_FAKE_ADDRESS;
    tg_problem_build(&P->base, &P->g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
    if ((s = choose(h, fn, &P->g, &P->base, &P->plan)) != TG_OK) {
      free(P);
      return s;
    }
    /* The workspace a run needs is there before the first run, so that a run under stream
     * capture allocates nothing. */
    if (P->plan.kernel && h->device >= 0) {
      int prev = 0;
      if ((s = tg_device_enter(h, fn, &prev)) == TG_OK) {
        s = ensure_workspace(h, fn, layout_workspace(&P->plan, &P->base).total);
        tg_device_leave(h, prev);
      }
      if (s != TG_OK) {
        free(P);
        return s;
      }
    }
    h->last_kernel = P->plan.kernel ? P->plan.kernel->name : k_epilogue_only;
  }
  *out = P;
  return tg_succeed(h);
}

tg_status tg_plan_run(tg_matmul_plan *P, const void *A, const void *B, const void *C, void *D,
                      tg_stream stream) {
  static const char fn[] = "tg_plan_run";
  if (!P) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'plan' is NULL", fn);
  tg_handle *h = P->h;
  h->last_kernel = "";
  if (P->empty) return tg_succeed(h);
  tg_status s = tg_validate_pointers(h, fn, &P->g, &P->L, A, B, C, D);
  if (s != TG_OK) return s;
  tg_problem p;
  tg_problem_build(&p, &P->g, &P->L, A, B, C, D, h->sm, h->sm_count);
  /* The plan holds for operands aligned as it assumed; less aligned ones are planned anew. */
  tg_plan again;
  const tg_plan *plan = &P->plan;
  if (p.align_a != P->base.align_a || p.align_b != P->base.align_b ||
      p.align_c != P->base.align_c || p.align_d != P->base.align_d ||
      p.align_bias != P->base.align_bias) {
    if ((s = choose(h, fn, &P->g, &p, &again)) != TG_OK) return s;
    plan = &again;
  }
  return run_on_device(h, fn, plan, &p, stream);
}

const char *tg_plan_kernel(const tg_matmul_plan *P) {
  if (!P) return "";
  return P->empty ? "" : P->plan.kernel ? P->plan.kernel->name : k_epilogue_only;
}

void tg_plan_destroy(tg_matmul_plan *P) { free(P); }

tg_status tg_reference(tg_handle *h, const tg_gemm *g, const void *A, const void *B, const void *C,
                       double *ref, double *mag, tg_stream stream) {
  static const char fn[] = "tg_reference";
  tg_layout L;
  int empty = 0, prev = 0;
  tg_status s = begin(h, fn, g, &L, &empty);
  if (s != TG_OK || empty) return s == TG_OK ? tg_succeed(h) : s;
  int reads_ab = g->alpha != 0.0 && g->k > 0;
  if (reads_ab && !A) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'A' is NULL", fn);
  if (reads_ab && !B) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'B' is NULL", fn);
  if (g->beta != 0.0 && !C)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'C' is NULL but beta != 0", fn);
  if (!ref) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'ref' is NULL", fn);
  if (tg_epilogue_has_bias(g->epilogue) && !g->bias)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'bias' is NULL", fn);
  if (reads_ab && g->scale_mode != TG_SCALE_NONE && (!g->scale_a || !g->scale_b))
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter '%s' is NULL but scale_mode asks for scales", fn,
                   g->scale_a ? "scale_b" : "scale_a");
  tg_problem p;
  tg_problem_build(&p, g, &L, A, B, C, NULL, h->sm, h->sm_count);
  if (h->device < 0)
    return tg_fail(h, TG_ERR_NO_DEVICE, "%s: the handle is virtual (no device to run on)", fn);
  if ((s = tg_device_enter(h, fn, &prev)) != TG_OK) return s;
  /* The oracle writes in the user's frame: row-major m×n, whatever D's order. */
  int64_t row_stride = p.transposed ? 1 : p.n, col_stride = p.transposed ? p.m : 1;
  s = after_launch(h, fn, "ref oracle",
                   tg_ref_oracle_launch(&p, ref, mag, row_stride, col_stride, stream));
  tg_device_leave(h, prev);
  return s == TG_OK ? tg_succeed(h) : s;
}
