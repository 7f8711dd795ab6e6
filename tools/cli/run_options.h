/*
 * run_options.h — the command lines of `tilegemm tune` and `tilegemm sweep`: their own options
 * (shapes, types, files) plus the problem and measurement options of `bench`, which are handed
 * to bench's parser so both commands describe a problem exactly as bench does. No GPU needed.
 */
#ifndef TG_CLI_RUN_OPTIONS_H
#define TG_CLI_RUN_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "options.h"
#include "shape_list.h"

#define TG_SWEEP_MAX_TYPES 8
/* Default of --check-max: shapes of more multiply-adds than this cubed are not verified. */
#define TG_SWEEP_DEFAULT_CHECK_MAX 8192

/* `tilegemm tune`. */
typedef struct tg_tune_cli {
  tg_bench_options base;  /* problem template (types, majors, alpha, beta, epilogue, fp8
                              scales and accumulation), warmup, iterations, seed: bench's
                              options and defaults */
  tg_shape_list shapes;   /* --mnkl and --shapes, in order */
  const char *cache_path; /* --cache FILE; NULL = the default file */
  const char *csv_path;   /* --csv FILE: every candidate's time; NULL = none */
  int flush_l2;           /* 1 (cold L2, default), 0 with --warm-l2 */
  int save;               /* 1 (default), 0 with --no-save */
} tg_tune_cli;

/* `tilegemm sweep`. */
typedef struct tg_sweep_cli {
  tg_bench_options base; /* problem template (majors, alpha, beta, epilogue, kernel, fp8
                              scales and accumulation), warmup, iterations, seed, --cold-l2,
                              --exact */
  tg_shape_list shapes;
  tg_type_choice types[TG_SWEEP_MAX_TYPES]; /* --dtype; bf16 when none is given */
  int type_count;
  const char *out_path; /* --out FILE; NULL = standard output */
  int64_t check_max;    /* verify shapes of at most check_max³ multiply-adds */
} tg_sweep_cli;

/* Parse argv[first..argc). 0, or -1 with a one-line message naming the option in err.
 * `--help` sets *wants_help. Free with tg_*_cli_free (also after a failure). */
int tg_parse_tune(int argc, char **argv, int first, tg_tune_cli *o, int *wants_help, char *err,
                  size_t err_len);
int tg_parse_sweep(int argc, char **argv, int first, tg_sweep_cli *o, int *wants_help, char *err,
                   size_t err_len);
void tg_tune_cli_free(tg_tune_cli *o);
void tg_sweep_cli_free(tg_sweep_cli *o);

/* The request of one shape: the template with the shape's sizes and, when the shape names
 * a type (or `type` is not NULL), that type's A/B/C/D types (a type other than fp8 runs
 * without the template's fp8 scales and fast accumulation: tg_type_choice_apply). */
void tg_shape_request(const tg_gemm *base, const tg_shape *s, const tg_type_choice *type,
                      tg_gemm *g);

#endif /* TG_CLI_RUN_OPTIONS_H */
