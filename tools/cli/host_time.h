/*
 * host_time.h — `tilegemm bench --host-time`: the host time one call of a request takes when
 * calls are issued back to back (the launch overhead an inference loop pays per GEMM), for
 * tg_matmul, for a planned run (tg_plan_run), for cuBLASLt's cublasLtMatmul with --vs-cublas,
 * and for a bare launch of an empty kernel: the floor any launch costs on this machine.
 */
#ifndef TG_HOST_TIME_H
#define TG_HOST_TIME_H

#include <stddef.h>
#include <stdio.h>
#include "options.h"
#include "report.h"
#include "tilegemm.h"

/* Calls in one timed batch: the stream is synchronized between batches (untimed), so that the
 * queue of launches never fills however long the GPU work takes. */
#define TG_HOST_TIME_CALLS 100

/* What is timed, in report order. */
enum { TG_HOST_MATMUL, TG_HOST_PLAN_RUN, TG_HOST_CUBLAS, TG_HOST_EMPTY_LAUNCH, TG_HOST_KINDS };

typedef struct tg_host_time_result {
  char kernel[64];              /* the planned kernel */
  int ran[TG_HOST_KINDS];       /* 1 when that kind was timed */
  double us[TG_HOST_KINDS];     /* median over batches of the host µs per call */
  double min_us[TG_HOST_KINDS]; /* the fastest batch's µs per call */
  char cublas_note[160];        /* why cuBLASLt was not timed, with --vs-cublas */
} tg_host_time_result;

/* Times o's request (o->warmup untimed batches, then o->iterations timed ones of each kind,
 * interleaved, TG_HOST_TIME_CALLS calls each) on the handle's device. 0, or -1 with the reason
 * in err (a library refusal, a CUDA failure). */
int tg_host_time_run(tg_handle *h, const tg_bench_options *o, tg_host_time_result *r, char *err,
                     size_t err_len);

void tg_host_time_report(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                         const tg_host_time_result *r);

#endif /* TG_HOST_TIME_H */
