/*
 * commands.h — the subcommands of `tilegemm`. Each returns the process exit code:
 * 0 success, 1 usage or run-time error, 2 no usable CUDA device, 3 a result failed its check.
 */
#ifndef TG_CLI_COMMANDS_H
#define TG_CLI_COMMANDS_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

enum { TG_EXIT_OK = 0, TG_EXIT_ERROR = 1, TG_EXIT_NO_DEVICE = 2, TG_EXIT_CHECK_FAILED = 3 };

int tg_cmd_info(int argc, char **argv);
int tg_cmd_list(int argc, char **argv);
int tg_cmd_bench(int argc, char **argv);
int tg_cmd_ladder(int argc, char **argv);
int tg_cmd_tune(int argc, char **argv);    /* cmd_tune.c; options in run_options.h */
int tg_cmd_sweep(int argc, char **argv);   /* cmd_sweep.c; options in run_options.h */
int tg_cmd_explain(int argc, char **argv); /* cmd_explain.c */
int tg_cmd_verify(int argc, char **argv);  /* cmd_verify.c */
int tg_cmd_trace(int argc, char **argv);   /* cmd_trace.c: no GPU */

/* Prints the reason and returns TG_EXIT_NO_DEVICE when there is no CUDA device, else 0. */
int tg_cli_require_device(void);

struct tg_handle;
/* The handle of a device command: 0 and *h, or the exit code (no device, creation failed) after
 * printing why, prefixed with "tilegemm <cmd>:". */
int tg_cli_open_handle(const char *cmd, struct tg_handle **h);

/* ---- `tilegemm ladder` (cmd_ladder.c): parsing and rung selection, exposed for tests ---- */

#define TG_LADDER_DEFAULT_MNK 4096
#define TG_LADDER_MAX_RUNGS 64

/* Options of `tilegemm ladder`. iterations/warmup 0 = automatic (per rung, by its speed). */
typedef struct tg_ladder_options {
  int64_t m, n, k;
  tg_dtype dtype; /* f32 (rungs on CUDA cores), f16 or bf16 (tensor-core rungs) */
  int all_types;  /* 1 (the default, --dtype all): every rung, each part in its own type */
  int iterations; /* timed runs per rung; 0 = auto */
  int warmup;     /* untimed runs per rung; -1 = auto */
  int csv;
  int cold_l2;
  uint64_t seed;
} tg_ladder_options;

/* Parses argv[first..argc) of `ladder`. Returns 0, or -1 with a one-line message naming the
 * option in err. `--help` sets *wants_help. */
int tg_parse_ladder(int argc, char **argv, int first, tg_ladder_options *o, int *wants_help,
                    char *err, size_t err_len);

/* The parts of a ladder, in order: the element type each runs (one part unless all_types: then
 * f32 for the CUDA-core rungs and bf16 for the tensor-core rungs). Returns how many (≤ max). */
#define TG_LADDER_MAX_PARTS 2
int tg_ladder_parts(const tg_ladder_options *o, tg_dtype *types, int max);

/* The request every rung of a ladder runs: m×n×k of dtype, D of the same type; A row-major,
 * B row-major for f32 (C = A·B) and column-major for 16-bit types (C = A·Bᵀ, both K-major). */
void tg_ladder_request(const tg_ladder_options *o, tg_gemm *g);

/* The registered kernels with a nonzero rung that accept *g on h's device (tg_check with the
 * kernel forced), sorted by rung: their registry indices go to idx (at most max). Returns how
 * many; *skipped counts the rungs that refused. */
int tg_ladder_select(tg_handle *h, const tg_gemm *g, int *idx, int max, int *skipped);

#endif /* TG_CLI_COMMANDS_H */
