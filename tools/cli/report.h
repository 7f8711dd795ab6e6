/*
 * report.h — how benchmark results are printed: a table for people, CSV rows (with device,
 * clocks, CUDA version and date) for bench/results/.
 */
#ifndef TG_REPORT_H
#define TG_REPORT_H

#include <stdio.h>
#include "bench_run.h"
#include "options.h"

typedef struct tg_report_context {
  char device[256];
  int sm_clock_mhz, mem_clock_mhz;
  char cuda[16]; /* runtime version */
  char driver[16];
  char date[32]; /* UTC, ISO 8601 */
} tg_report_context;

void tg_report_context_read(tg_report_context *c);

/* "bf16(k)" style operand descriptions and the full problem line. */
void tg_report_problem(char *buf, size_t n, const tg_gemm *g);

void tg_report_table(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                     const tg_bench_result *r);

void tg_report_csv_header(FILE *f);

/* One row; label is a free-form first column (rung name for the ladder, "" otherwise). */
void tg_report_csv_row(FILE *f, const tg_report_context *c, const tg_bench_options *o,
                       const tg_bench_result *r, const char *label);

#endif /* TG_REPORT_H */
