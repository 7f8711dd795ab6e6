/*
 * bench_run.h — one measured, verified run of a request: ours and (optionally) cuBLASLt on
 * the same buffers, alternating, each timed with CUDA events, median reported.
 */
#ifndef TG_BENCH_RUN_H
#define TG_BENCH_RUN_H

#include <stddef.h>
#include <stdint.h>
#include "device_peak.h"
#include "measure.h" /* tg_request_flops, tg_request_bytes */
#include "options.h"
#include "tilegemm.h"

typedef struct tg_check_outcome {
  int done; /* the check ran */
  int pass;
  double worst_ratio; /* largest error / bound */
  int64_t failures, checked;
  char note[96]; /* why it did not run, if it did not */
} tg_check_outcome;

typedef struct tg_bench_result {
  char kernel[64];         /* kernel tilegemm chose */
  double ms, tflops, gbps; /* median */
  tg_check_outcome check;
  int cublas_ran;
  char cublas_note[160]; /* why cuBLAS did not run */
  double cublas_ms, cublas_tflops;
  tg_check_outcome cublas_check;
  int sets;       /* input sets rotated */
  tg_floor floor; /* docs/performance.md's floor of the request on this device */
} tg_bench_result;

/* Runs the benchmark of *o on the handle's device. Returns 0, or -1 with a message in err
 * (library refusal, CUDA failure, out of memory). A failed check is a result, not an error. */
int tg_bench_run(tg_handle *h, const tg_bench_options *o, tg_bench_result *res, char *err,
                 size_t err_len);

#endif /* TG_BENCH_RUN_H */
