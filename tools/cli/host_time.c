/* host_time.c — `tilegemm bench --host-time` (see host_time.h). */
#define _POSIX_C_SOURCE 200809L
#include "host_time.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

#include "cublas_runner.h"
#include "device_tools.h"
#include "host_stats.h"
#include "operands.h"

static const char *const k_kind_names[TG_HOST_KINDS] = {"tg_matmul", "tg_plan_run", "cuBLASLt",
                                                        "empty kernel launch"};

/* What one timed batch calls. */
typedef struct host_time_setup {
  tg_handle *h;
  const tg_gemm *g;
  tg_operands op;
  tg_matmul_plan *plan;
  tg_cublas_runner *cublas;
  cudaStream_t stream;
} host_time_setup;

/* One call of `kind`; 0, or -1 with the reason in err. */
static int call(host_time_setup *s, int kind, char *err, size_t err_len) {
  tg_status st = TG_OK;
  switch (kind) {
    case TG_HOST_MATMUL:
      st = tg_matmul(s->h, s->g, s->op.a, s->op.b, s->op.c, s->op.d, s->stream);
      break;
    case TG_HOST_PLAN_RUN:
      st = tg_plan_run(s->plan, s->op.a, s->op.b, s->op.c, s->op.d, s->stream);
      break;
    case TG_HOST_CUBLAS:
      return tg_cublas_run(s->cublas, s->op.a, s->op.b, s->op.c, s->op.d, s->stream, err, err_len);
    default: {
      const cudaError_t e = tg_launch_empty(s->stream);
      if (e == cudaSuccess) return 0;
      snprintf(err, err_len, "launching an empty kernel: %s", cudaGetErrorString(e));
      return -1;
    }
  }
  if (st == TG_OK) return 0;
  snprintf(err, err_len, "%s", tg_last_error(s->h));
  return -1;
}

/* Host µs per call of a batch of TG_HOST_TIME_CALLS calls, after the queue has drained. */
static int batch(host_time_setup *s, int kind, double *us, char *err, size_t err_len) {
  cudaError_t e = cudaStreamSynchronize(s->stream);
  if (e != cudaSuccess) {
    snprintf(err, err_len, "synchronizing: %s", cudaGetErrorString(e));
    return -1;
  }
  const double t0 = tg_wall_us();
  for (int i = 0; i < TG_HOST_TIME_CALLS; ++i)
    if (call(s, kind, err, err_len) != 0) return -1;
  *us = (tg_wall_us() - t0) / TG_HOST_TIME_CALLS;
  return 0;
}

static int measure(host_time_setup *s, const tg_bench_options *o, tg_host_time_result *r, char *err,
                   size_t err_len) {
  double *times = (double *)malloc(sizeof(double) * (size_t)o->iterations * TG_HOST_KINDS);
  if (!times) {
    snprintf(err, err_len, "out of host memory");
    return -1;
  }
  int rc = 0;
  double us;
  for (int w = 0; w < o->warmup && rc == 0; ++w)
    for (int kind = 0; kind < TG_HOST_KINDS && rc == 0; ++kind)
      if (r->ran[kind]) rc = batch(s, kind, &us, err, err_len);
  for (int i = 0; i < o->iterations && rc == 0; ++i)
    for (int kind = 0; kind < TG_HOST_KINDS && rc == 0; ++kind)
      if (r->ran[kind]) rc = batch(s, kind, &times[kind * o->iterations + i], err, err_len);
  const cudaError_t e = cudaStreamSynchronize(s->stream);
  if (rc == 0 && e != cudaSuccess) {
    snprintf(err, err_len, "running the calls: %s", cudaGetErrorString(e));
    rc = -1;
  }
  for (int kind = 0; kind < TG_HOST_KINDS && rc == 0; ++kind) {
    if (!r->ran[kind]) continue;
    double *t = &times[kind * o->iterations];
    r->us[kind] = tg_median_sorted(t, o->iterations);
    r->min_us[kind] = t[0];
  }
  free(times);
  return rc;
}

int tg_host_time_run(tg_handle *h, const tg_bench_options *o, tg_host_time_result *r, char *err,
                     size_t err_len) {
  memset(r, 0, sizeof *r);
  host_time_setup s;
  memset(&s, 0, sizeof s);
  s.h = h;
  s.g = &o->g;
  if (tg_plan_create(h, &o->g, &s.plan) != TG_OK) {
    snprintf(err, err_len, "%s", tg_last_error(h));
    return -1;
  }
  snprintf(r->kernel, sizeof r->kernel, "%s", tg_plan_kernel(s.plan));
  if (tg_operands_alloc(&o->g, o->seed, &s.op, err, err_len) != 0) {
    tg_plan_destroy(s.plan);
    return -1;
  }
  r->ran[TG_HOST_MATMUL] = r->ran[TG_HOST_PLAN_RUN] = r->ran[TG_HOST_EMPTY_LAUNCH] = 1;
  if (o->vs_cublas) {
    s.cublas = tg_cublas_create(&o->g, r->cublas_note, sizeof r->cublas_note);
    r->ran[TG_HOST_CUBLAS] = s.cublas != NULL;
  }
  int rc = 0;
  const cudaError_t e = cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking);
  if (e != cudaSuccess) {
    snprintf(err, err_len, "creating a stream: %s", cudaGetErrorString(e));
    rc = -1;
  } else {
    rc = measure(&s, o, r, err, err_len);
    cudaStreamDestroy(s.stream);
  }
  if (s.cublas) tg_cublas_destroy(s.cublas);
  tg_plan_destroy(s.plan);
  tg_operands_free(&s.op);
  return rc;
}

void tg_host_time_report(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                         const tg_host_time_result *r) {
  char prob[256];
  tg_report_problem(prob, sizeof prob, &o->g);
  fprintf(f, "device    %s (SM %d MHz, CUDA %s, driver %s)\n", c->device, c->sm_clock_mhz, c->cuda,
          c->driver);
  fprintf(f, "problem   %s\n", prob);
  fprintf(f, "kernel    %s (planned)\n", r->kernel);
  fprintf(f,
          "host time per call, back to back, %d batches of %d calls (stream synchronized "
          "between batches, untimed):\n",
          o->iterations, TG_HOST_TIME_CALLS);
  for (int kind = 0; kind < TG_HOST_KINDS; ++kind) {
    if (r->ran[kind])
      fprintf(f, "  %-20s median %7.2f us   fastest batch %7.2f us\n", k_kind_names[kind],
              r->us[kind], r->min_us[kind]);
    else if (kind == TG_HOST_CUBLAS && o->vs_cublas)
      fprintf(f, "  %-20s not timed: %s\n", k_kind_names[kind], r->cublas_note);
  }
}
