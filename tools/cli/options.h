/*
 * options.h — the command line of `tilegemm`, parsed into plain structs with no GPU involved,
 * so every option and every bad value is tested in CI.
 */
#ifndef TG_CLI_OPTIONS_H
#define TG_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

#define TG_CLI_ERROR_BYTES 256
#define TG_CLI_DEFAULT_WARMUP 5
#define TG_CLI_DEFAULT_ITERATIONS 30

/* Options of `tilegemm bench` (and the problem part of `ladder`). */
typedef struct tg_bench_options {
  tg_gemm g;          /* the request; g.kernel points into argv or is NULL */
  int warmup;         /* untimed runs before timing */
  int iterations;     /* timed runs (median reported) */
  int cold_l2;        /* rotate input sets larger than L2 between runs */
  int skip_ref_check; /* do not verify against the GPU oracle */
  int vs_cublas;      /* also time cuBLASLt on the same buffers */
  int csv;            /* print one CSV row (with header) instead of the table */
  int exact;          /* small-integer data: the check then compares bitwise */
  uint64_t seed;      /* data seed (operands, bias and fp8 scales) */
} tg_bench_options;

/* Parses argv[first..argc) of `bench`. Returns 0, or -1 with a one-line message naming the
 * option in err. `--help` sets *wants_help. */
int tg_parse_bench(int argc, char **argv, int first, tg_bench_options *o, int *wants_help,
                   char *err, size_t err_len);

/* An option a command takes beside bench's problem options (`explain --virtual`, `verify
 * --once`): after tg_parse_bench_plus, `seen` says whether it was given and `value` holds its
 * value (the caller checks it). */
typedef struct tg_cli_own_option {
  const char *name;
  int takes_value;
  int seen;
  const char *value;
} tg_cli_own_option;

/* tg_parse_bench of argv[2..argc) with the command's own options taken out first, as
 * "--name value" or "--name=value". Returns 0, or -1 with a one-line message in err. */
int tg_parse_bench_plus(int argc, char **argv, tg_cli_own_option *own, int own_count,
                        tg_bench_options *o, int *wants_help, char *err, size_t err_len);

/* Matches argv[*i] against option `name` as "--name" or "--name=value". For options with a
 * value, *val is set (from the '=' part or the next argument, advancing *i). Returns 1 on a
 * match, 0 if argv[*i] is another option, -1 if the value is missing or given to a flag. */
int tg_cli_match(const char *name, int takes_value, int argc, char **argv, int *i,
                 const char **val);

/* Parsers of single values (exposed for tests). Return 0 on success, -1 otherwise. */
int tg_parse_dtype(const char *s, tg_dtype *out);
int tg_parse_epilogue(const char *s, tg_epilogue *out);
/* --scale's value: none, tensor, rowcol or block (any case). */
int tg_parse_scale_mode(const char *s, tg_scale_mode *out);
int tg_parse_int64_list(const char *s, int64_t *vals, int min_count, int max_count, int *count);
/* The order of operand `operand` ('a', 'b' or 'c') for its --X-major letter, as the CuTe DSL
 * examples name them: A k (row-major) or m, B k (column-major) or n, C/D n (row-major) or m. */
int tg_parse_major(char operand, const char *s, tg_order *out);

/* Names for printing (compute modes and epilogues: the library's tg_compute_name and
 * tg_epilogue_name). */
/* A scale mode as --scale spells it ("none", "tensor", "rowcol", "block"), "?" if unknown. */
const char *tg_scale_mode_name(tg_scale_mode m);
/* The --X-major letter of operand `operand` stored in `order` (the inverse of tg_parse_major). */
char tg_major_letter(char operand, tg_order order);

#endif /* TG_CLI_OPTIONS_H */
