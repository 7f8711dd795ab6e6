/*
 * tune.c — tg_tune: time every tunable kernel that can serve a request, verify the fastest,
 * remember it in the handle's cache.
 *
 * Method (docs/performance.md): each candidate runs `warmup` times untimed, then `iterations` times,
 * each run between its own pair of CUDA events; the median is kept. With flush_l2, a memset of
 * a buffer twice the L2 size precedes every timed run (outside its events), so every run reads
 * its operands from DRAM, as in a model where each GEMM's inputs were produced long before.
 * The memset also keeps the GPU busy while the host enqueues the next run, so the host's own
 * overhead does not leak into the timings of small problems.
 */
#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "tune_verify.h"
#include "validate.h"

#define TG_TUNE_DEFAULT_WARMUP 3
#define TG_TUNE_DEFAULT_ITERATIONS 20
#define TG_TUNE_MAX_RUNS 1000000
/* The flush buffer is this many times the L2 size. */
#define TG_TUNE_FLUSH_L2_FACTOR 2
#define TG_US_PER_MS 1000.0
/* Largest error/bound a verified kernel may show. */
#define TG_TUNE_MAX_RATIO 1.0

void tg_tune_options_init(tg_tune_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->warmup = TG_TUNE_DEFAULT_WARMUP;
  o->iterations = TG_TUNE_DEFAULT_ITERATIONS;
  o->flush_l2 = 1;
}

/* What every measurement shares: the operands, events, and the flush buffer. */
typedef struct tune_run {
  tg_handle *h;
  tg_gemm g; /* the request; .kernel set per candidate */
  const void *a, *b, *c;
  void *d;
  tg_stream stream;
  tg_tune_options opt;
  cudaEvent_t *events; /* 2 per timed run */
  float *ms;
  void *flush;
  size_t flush_bytes;
} tune_run;

static int cmp_float(const void *x, const void *y) {
  const float a = *(const float *)x, b = *(const float *)y;
  return (a > b) - (a < b);
}

/* After a failed candidate: clears a launch error; TG_OK when the context still works. */
static tg_status recover(tune_run *r) {
  (void)cudaGetLastError();
  const cudaError_t e = cudaStreamSynchronize(r->stream);
  return e == cudaSuccess ? TG_OK : tg_cuda_fail(r->h, "tg_tune", "running a candidate", e);
}

/* Median time of one kernel in microseconds. A failure of the kernel is its status; a CUDA
 * failure outside it (events, flush) is TG_ERR_CUDA with the message. */
static tg_status time_kernel(tune_run *r, const char *kernel, double *us) {
  tg_gemm g = r->g;
  g.kernel = kernel;
  tg_status s;
  cudaError_t e;
  for (int i = 0; i < r->opt.warmup; ++i)
    if ((s = tg_matmul(r->h, &g, r->a, r->b, r->c, r->d, r->stream)) != TG_OK) return s;
  for (int i = 0; i < r->opt.iterations; ++i) {
    if (r->flush &&
        (e = cudaMemsetAsync(r->flush, i & 0xff, r->flush_bytes, r->stream)) != cudaSuccess)
      return tg_cuda_fail(r->h, "tg_tune", "flushing L2", e);
    if ((e = cudaEventRecord(r->events[2 * i], r->stream)) != cudaSuccess)
      return tg_cuda_fail(r->h, "tg_tune", "recording an event", e);
    if ((s = tg_matmul(r->h, &g, r->a, r->b, r->c, r->d, r->stream)) != TG_OK) return s;
    if ((e = cudaEventRecord(r->events[2 * i + 1], r->stream)) != cudaSuccess)
      return tg_cuda_fail(r->h, "tg_tune", "recording an event", e);
  }
  if ((e = cudaEventSynchronize(r->events[2 * r->opt.iterations - 1])) != cudaSuccess)
    return tg_cuda_fail(r->h, "tg_tune", "running a candidate", e);
  for (int i = 0; i < r->opt.iterations; ++i)
    if ((e = cudaEventElapsedTime(&r->ms[i], r->events[2 * i], r->events[2 * i + 1])) !=
        cudaSuccess)
      return tg_cuda_fail(r->h, "tg_tune", "reading an event", e);
  qsort(r->ms, (size_t)r->opt.iterations, sizeof *r->ms, cmp_float);
  const int n = r->opt.iterations;
  const double median = n % 2 ? r->ms[n / 2] : 0.5 * ((double)r->ms[n / 2 - 1] + r->ms[n / 2]);
  *us = median * TG_US_PER_MS;
  return TG_OK;
}

static tg_status check_arguments(tg_handle *h, const char *fn, const tg_gemm *g,
                                 const tg_tune_options *o, const tg_tune_result *out) {
  if (!out) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'result' is NULL", fn);
  if (o->warmup < 0 || o->warmup > TG_TUNE_MAX_RUNS)
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter 'options->warmup' = %d is outside [0, %d]", fn, o->warmup,
                   TG_TUNE_MAX_RUNS);
  if (o->iterations < 1 || o->iterations > TG_TUNE_MAX_RUNS)
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter 'options->iterations' = %d is outside [1, %d]", fn, o->iterations,
                   TG_TUNE_MAX_RUNS);
  if (o->flush_l2 != 0 && o->flush_l2 != 1)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'options->flush_l2' = %d is not 0 or 1",
                   fn, o->flush_l2);
  if (g->m == 0 || g->n == 0 || g->k == 0 || g->batch == 0 || g->alpha == 0.0)
    return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                   "%s: nothing to tune: the product vanishes (m, n, k, batch or alpha is 0)", fn);
  return TG_OK;
}

/* The candidates: tunable rows that serve p, in registry order. */
static int list_candidates(const tg_problem *p, tg_tune_result *out) {
  char why[256];
  for (int i = 0, n = tg_registry_count(); i < n && out->candidate_count < TG_TUNE_MAX_CANDIDATES;
       ++i) {
    const tg_kernel *k = tg_registry_at(i);
    tg_plan plan;
    if (!tg_plan_tunable(k) || tg_plan_for_kernel(k, p, &plan, why, sizeof why) != TG_OK) continue;
    tg_tune_candidate *c = &out->candidates[out->candidate_count++];
    c->kernel = k->name;
    c->estimate = tg_plan_cost(&plan, p);
  }
  return out->candidate_count;
}

static tg_status prepare(tune_run *r, const char *fn) {
  const int n = 2 * r->opt.iterations;
  r->events = (cudaEvent_t *)calloc((size_t)n, sizeof *r->events);
  r->ms = (float *)calloc((size_t)r->opt.iterations, sizeof *r->ms);
  if (!r->events || !r->ms)
    return tg_fail(r->h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  cudaError_t e;
  for (int i = 0; i < n; ++i)
    if ((e = cudaEventCreate(&r->events[i])) != cudaSuccess)
      return tg_cuda_fail(r->h, fn, "creating events", e);
  if (r->opt.flush_l2) {
    int l2 = 0;
    if ((e = cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, r->h->device)) != cudaSuccess)
      return tg_cuda_fail(r->h, fn, "querying the L2 size", e);
    r->flush_bytes = (size_t)TG_TUNE_FLUSH_L2_FACTOR * (size_t)(l2 > 0 ? l2 : 1);
    if ((e = cudaMalloc(&r->flush, r->flush_bytes)) != cudaSuccess) {
      r->flush = NULL;
      return tg_cuda_fail(r->h, fn, "allocating the L2 flush buffer", e);
    }
  }
  return TG_OK;
}

static void release(tune_run *r) {
  if (r->events)
    for (int i = 0; i < 2 * r->opt.iterations; ++i)
      if (r->events[i]) cudaEventDestroy(r->events[i]);
  free(r->events);
  free(r->ms);
  cudaFree(r->flush);
}

/* Times every candidate, and the heuristic's choice when it is not one of them. */
static tg_status measure(tune_run *r, tg_tune_result *out) {
  tg_status s;
  int heuristic_seen = 0;
  for (int i = 0; i < out->candidate_count; ++i) {
    tg_tune_candidate *c = &out->candidates[i];
    c->status = time_kernel(r, c->kernel, &c->us);
    if (c->status != TG_OK) {
      c->us = 0.0;
      if ((s = recover(r)) != TG_OK) return s;
    }
    if (strcmp(c->kernel, out->heuristic_kernel) == 0) {
      heuristic_seen = 1;
      out->heuristic_us = c->us;
    }
  }
  if (!heuristic_seen && time_kernel(r, out->heuristic_kernel, &out->heuristic_us) != TG_OK) {
    out->heuristic_us = 0.0;
    if ((s = recover(r)) != TG_OK) return s;
  }
  return TG_OK;
}

/* Verifies timed candidates fastest first; the first that passes wins. */
static tg_status pick_winner(tune_run *r, const tg_layout *L, tg_tune_result *out) {
  for (;;) {
    tg_tune_candidate *best = NULL;
    for (int i = 0; i < out->candidate_count; ++i) {
      tg_tune_candidate *c = &out->candidates[i];
      if (c->status == TG_OK && (!best || c->us < best->us)) best = c;
    }
    if (!best) break;
    tg_gemm g = r->g;
    g.kernel = best->kernel;
    double worst = 0.0;
    int64_t failures = 0;
    tg_status s = tg_tune_verify(r->h, &g, L, r->a, r->b, r->c, r->d, r->stream, &worst, &failures);
    if (s != TG_OK && s != TG_ERR_CUDA && s != TG_ERR_OUT_OF_MEMORY) {
      best->status = s; /* the kernel refused the run it was timed with: drop it */
      continue;
    }
    if (s != TG_OK) return s;
    if (failures == 0 && worst <= TG_TUNE_MAX_RATIO) {
      out->kernel = best->kernel;
      out->us = best->us;
      out->worst_ratio = worst;
      return TG_OK;
    }
    best->status = TG_ERR_INTERNAL;
  }
  return tg_fail(r->h, TG_ERR_INTERNAL,
                 "tg_tune: every candidate failed its check against the GPU reference (a bug "
                 "in tilegemm; please report it with the request)");
}

tg_status tg_tune(tg_handle *h, const tg_gemm *g, const void *A, const void *B, const void *C,
                  void *D, tg_stream stream, const tg_tune_options *options, tg_tune_result *out) {
  static const char fn[] = "tg_tune";
  tg_layout L;
  tg_tune_options defaults;
  tg_tune_options_init(&defaults);
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  if (!g) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'g' is NULL", fn);
  if (!options) options = &defaults;
  h->last_kernel = "";
  tg_gemm request = *g; /* g->kernel is ignored: every candidate is forced in turn */
  request.kernel = NULL;
  g = &request;
  tg_status s = tg_validate_gemm(h, fn, g, &L);
  if (s != TG_OK || (s = check_arguments(h, fn, g, options, out)) != TG_OK) return s;
  if ((s = tg_validate_pointers(h, fn, g, &L, A, B, C, D)) != TG_OK) return s;
  memset(out, 0, sizeof *out);
  tg_problem p;
  tg_problem_build(&p, g, &L, A, B, C, D, h->sm, h->sm_count);
  tg_plan heuristic;
  char why[256];
  if ((s = tg_plan_choose(&p, NULL, NULL, &heuristic, why, sizeof why)) != TG_OK)
    return tg_fail(h, s, "%s: %s", fn, why);
  out->heuristic_kernel = heuristic.kernel->name;
  if (list_candidates(&p, out) == 0)
    return tg_fail(h, TG_ERR_NOT_SUPPORTED,
                   "%s: no tunable kernel serves this request on sm_%d (the planner uses '%s')", fn,
                   h->sm, out->heuristic_kernel);
  if (h->device < 0)
    return tg_fail(h, TG_ERR_NO_DEVICE, "%s: the handle is virtual (no device to run on)", fn);

  int prev = 0;
  if ((s = tg_device_enter(h, fn, &prev)) != TG_OK) return s;
  tune_run r;
  memset(&r, 0, sizeof r);
  r.h = h;
  r.g = *g;
  r.a = A, r.b = B, r.c = C, r.d = D;
  r.stream = stream;
  r.opt = *options;
  if ((s = prepare(&r, fn)) == TG_OK && (s = measure(&r, out)) == TG_OK &&
      (s = pick_winner(&r, &L, out)) == TG_OK) {
    tg_cache_entry e;
    tg_cache_entry_of(&h->cache.device, &p, out->kernel, out->us, &e);
    if (tg_cache_put(&h->cache, &e) != 0)
      s = tg_fail(h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  }
  release(&r);
  tg_device_leave(h, prev);
  if (s != TG_OK) return s;
  h->last_kernel = out->kernel;
  return tg_succeed(h);
}
