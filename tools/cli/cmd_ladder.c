/*
 * cmd_ladder.c — `tilegemm ladder`: every rung of the kernel ladder (docs/ladder.md) on one
 * problem, each verified against the fp64 GPU oracle and timed side by side with cuBLASLt by
 * tg_bench_run, in one table: rung, kernel, ms, TFLOP/s, % of cuBLAS, speedup over the first
 * rung shown, check. By default the table holds every rung: the CUDA-core rungs on an f32
 * problem, then the tensor-core rungs on a bf16 one, each against cuBLAS for its type.
 *
 * The rungs are not a fixed list: any registered kernel with a nonzero `rung` that accepts the
 * request (tg_check with the kernel forced) takes part, so kernels that later families register
 * as rungs 13, 14, ... appear on top automatically.
 *
 * Timing: with no --iterations, each rung first runs once with the check (a rough time), then
 * is timed with kSlow* runs if it took longer than TG_LADDER_SLOW_MS (so rung 1 at 4096³ stays
 * affordable) and kFast* runs otherwise.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench_run.h"
#include "commands.h"
#include "host_stats.h"
#include "options.h"
#include "report.h"
#include "tilegemm.h"

/* Automatic timing: a rung whose checked run took longer than this many ms is slow. */
#define TG_LADDER_SLOW_MS 20.0
#define TG_LADDER_SLOW_WARMUP 1
#define TG_LADDER_SLOW_ITERATIONS 3
#define TG_LADDER_FAST_WARMUP 5
#define TG_LADDER_FAST_ITERATIONS 20
/* Warm-up runs when --iterations is given without --warmup. */
#define TG_LADDER_DEFAULT_WARMUP 2
#define TG_LADDER_MAX_RUNS 1000000

static const char k_help[] =
    "usage: tilegemm ladder [options]\n"
    "\n"
    "Runs every rung of the kernel ladder that takes the dtype (f32: rungs 1-8 on the CUDA\n"
    "cores; f16/bf16: rungs 9 and up on the tensor cores; all: both, f32 then bf16, in one\n"
    "table), checks each against the fp64 GPU oracle and times it side by side with cuBLASLt\n"
    "for its type on the same input sets. Layouts: D row-major; f32 computes C = A*B with A and\n"
    "B row-major, f16/bf16 C = A*B^T with both K-major.\n"
    "\n"
    "  --mnk M,N,K           problem size                              (default 4096,4096,4096)\n"
    "  --dtype T             all, f32, f16 or bf16 (inputs and output) (default all)\n"
    "  --iterations N        timed runs per rung (median reported)     (default: auto, 3 for\n"
    "                        rungs slower than 20 ms per run, 20 for the others)\n"
    "  --warmup N            untimed runs per rung before timing       (default: auto, 1 or 5)\n"
    "  --cold-l2             rotate input sets totalling > 3x L2 between runs\n"
    "  --seed N              data seed                                 (default 1)\n"
    "  --csv                 CSV rows (bench's columns, label = rung) instead of the table\n"
    "\n"
    "% of cuBLAS is each rung's speed over cuBLASLt's, timed alternately in the same run.\n"
    "exit codes: 0 ok, 1 error, 2 no CUDA device, 3 a rung failed its check\n";

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

static int parse_count(const char *s, long long min, long long *out) {
  char *end;
  errno = 0;
  const long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < min || v > TG_LADDER_MAX_RUNS) return -1;
  *out = v;
  return 0;
}

int tg_parse_ladder(int argc, char **argv, int first, tg_ladder_options *o, int *wants_help,
                    char *err, size_t n) {
  memset(o, 0, sizeof *o);
  o->m = o->n = o->k = TG_LADDER_DEFAULT_MNK;
  o->dtype = TG_F32;
  o->all_types = 1;
  o->warmup = -1;
  o->seed = 1;
  *wants_help = 0;
  for (int i = first; i < argc; ++i) {
    const char *v = NULL;
    char opt[32];
    snprintf(opt, sizeof opt, "%.*s", (int)strcspn(argv[i], "="), argv[i]);
    int r;
    if ((r = tg_cli_match("--help", 0, argc, argv, &i, &v)) != 0 ||
        (r = tg_cli_match("-h", 0, argc, argv, &i, &v)) != 0) {
      if (r < 0) return fail(err, n, "option %s: takes no value", opt);
      *wants_help = 1;
    } else if ((r = tg_cli_match("--mnk", 1, argc, argv, &i, &v)) != 0) {
      int64_t x[3];
      int cnt = 0;
      if (r < 0) return fail(err, n, "option --mnk: missing value");
      if (tg_parse_int64_list(v, x, 3, 3, &cnt) != 0 || x[0] < 1 || x[1] < 1 || x[2] < 1)
        return fail(err, n, "option --mnk: expected M,N,K (positive integers), got '%s'", v);
      o->m = x[0], o->n = x[1], o->k = x[2];
    } else if ((r = tg_cli_match("--dtype", 1, argc, argv, &i, &v)) != 0) {
      tg_dtype t;
      if (r < 0) return fail(err, n, "option --dtype: missing value");
      o->all_types = strcasecmp(v, "all") == 0;
      if (o->all_types) continue;
      if (tg_parse_dtype(v, &t) != 0 || (t != TG_F32 && t != TG_F16 && t != TG_BF16))
        return fail(err, n, "option --dtype: expected all, f32, f16 or bf16, got '%s'", v);
      o->dtype = t;
    } else if ((r = tg_cli_match("--iterations", 1, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--warmup", 1, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--seed", 1, argc, argv, &i, &v)) != 0) {
      long long x;
      if (r < 0) return fail(err, n, "option %s: missing value", opt);
      if (strcmp(opt, "--seed") == 0) {
        char *end;
        errno = 0;
        x = strtoll(v, &end, 10);
        if (errno || end == v || *end || x < 0)
          return fail(err, n, "option --seed: expected a non-negative integer, got '%s'", v);
        o->seed = (uint64_t)x;
      } else {
        const int iters = strcmp(opt, "--iterations") == 0;
        if (parse_count(v, iters ? 1 : 0, &x) != 0)
          return fail(err, n, "option %s: expected an integer in [%d, %d], got '%s'", opt,
                      iters ? 1 : 0, TG_LADDER_MAX_RUNS, v);
        if (iters) o->iterations = (int)x;
        else o->warmup = (int)x;
      }
    } else if ((r = tg_cli_match("--csv", 0, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--cold-l2", 0, argc, argv, &i, &v)) != 0) {
      if (r < 0) return fail(err, n, "option %s: takes no value", opt);
      if (strcmp(opt, "--csv") == 0) o->csv = 1;
      else o->cold_l2 = 1;
    } else {
      return fail(err, n, "unknown option '%s' (see tilegemm ladder --help)", opt);
    }
  }
  return 0;
}

int tg_ladder_parts(const tg_ladder_options *o, tg_dtype *types, int max) {
  /* The CUDA-core rungs take f32, the tensor-core rungs 16-bit types. */
  static const tg_dtype all[TG_LADDER_MAX_PARTS] = {TG_F32, TG_BF16};
  const int count = o->all_types ? TG_LADDER_MAX_PARTS : 1;
  for (int i = 0; i < count && i < max; ++i) types[i] = o->all_types ? all[i] : o->dtype;
  return count < max ? count : max;
}

void tg_ladder_request(const tg_ladder_options *o, tg_gemm *g) {
  tg_gemm_init(g, o->m, o->n, o->k, o->dtype, o->dtype);
  g->a_order = TG_ROW_MAJOR;
  g->b_order = o->dtype == TG_F32 ? TG_ROW_MAJOR : TG_COL_MAJOR;
  g->c_order = TG_ROW_MAJOR;
  g->compute = TG_COMPUTE_F32;
}

int tg_ladder_select(tg_handle *h, const tg_gemm *g, int *idx, int max, int *skipped) {
  int count = 0;
  *skipped = 0;
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    if (tg_kernel_get(i, &k) != TG_OK || k.rung == 0) continue;
    tg_gemm forced = *g;
    forced.kernel = k.name;
    if (tg_check(h, &forced) != TG_OK || count == max) {
      ++*skipped;
      continue;
    }
    /* Insertion by rung keeps the list sorted (ties in registry order). */
    int at = count++;
    for (; at > 0; --at) {
      tg_kernel_info prev;
      tg_kernel_get(idx[at - 1], &prev);
      if (prev.rung <= k.rung) break;
      idx[at] = idx[at - 1];
    }
    idx[at] = i;
  }
  return count;
}

/* One rung's outcome. */
typedef struct rung_result {
  tg_kernel_info info;
  tg_bench_result r;
  int ok; /* measured (no error) */
  char err[256];
} rung_result;

/* Verifies and times one rung: a checked run, then the timed one with cuBLAS alongside. */
static void run_rung(tg_handle *h, const tg_ladder_options *lo, const tg_gemm *g,
                     rung_result *out) {
  tg_bench_options o;
  memset(&o, 0, sizeof o);
  o.g = *g;
  o.g.kernel = out->info.name;
  o.cold_l2 = lo->cold_l2;
  o.seed = lo->seed;
  o.csv = lo->csv;
  o.vs_cublas = 1;
  if (lo->iterations > 0) { /* one run: check and timing together */
    o.iterations = lo->iterations;
    o.warmup = lo->warmup >= 0 ? lo->warmup : TG_LADDER_DEFAULT_WARMUP;
    out->ok = tg_bench_run(h, &o, &out->r, out->err, sizeof out->err) == 0;
    return;
  }
  /* Auto: a single checked run (cuBLAS's too) gives the checks and a rough time ... */
  tg_bench_options probe = o;
  probe.warmup = 0;
  probe.iterations = 1;
  tg_bench_result first;
  if (tg_bench_run(h, &probe, &first, out->err, sizeof out->err) != 0) return;
  /* ... which picks how often to time it. */
  const int slow = first.ms > TG_LADDER_SLOW_MS;
  o.iterations = slow ? TG_LADDER_SLOW_ITERATIONS : TG_LADDER_FAST_ITERATIONS;
  o.warmup = lo->warmup >= 0 ? lo->warmup : (slow ? TG_LADDER_SLOW_WARMUP : TG_LADDER_FAST_WARMUP);
  o.skip_ref_check = 1;
  out->ok = tg_bench_run(h, &o, &out->r, out->err, sizeof out->err) == 0;
  if (out->ok) {
    out->r.check = first.check;
    out->r.cublas_check = first.cublas_check;
  }
}

static const char *check_word(const tg_check_outcome *c) {
  return !c->done ? "skipped" : c->pass ? "PASS" : "FAIL";
}

/* One part of the ladder: a request and the rungs that run it (res[first .. first+count)). */
typedef struct ladder_part {
  tg_gemm g;
  int first, count, skipped;
} ladder_part;

/* The rows of one part, then cuBLASLt's median over the part's runs; speedups are over the
 * first rung of the whole table (first_ms). */
static void print_part(const ladder_part *part, const rung_result *res, double *first_ms) {
  double cublas_ms[TG_LADDER_MAX_RUNGS];
  int n_cublas = 0;
  tg_check_outcome cublas_check = {0};
  for (int i = part->first; i < part->first + part->count; ++i) {
    const rung_result *x = &res[i];
    if (!x->ok) {
      printf("%4d  %-30s ERROR: %s\n", x->info.rung, x->info.name, x->err);
      continue;
    }
    if (*first_ms == 0.0) *first_ms = x->r.ms;
    char pct[16] = "-";
    if (x->r.cublas_ran && x->r.ms > 0) {
      snprintf(pct, sizeof pct, "%.1f%%", 100.0 * x->r.cublas_ms / x->r.ms);
      cublas_ms[n_cublas++] = x->r.cublas_ms;
      if (x->r.cublas_check.done && (!cublas_check.done || !x->r.cublas_check.pass))
        cublas_check = x->r.cublas_check;
    }
    printf("%4d  %-30s %11.4f %9.2f %9s %8.2fx  %s", x->info.rung, x->info.name, x->r.ms,
           x->r.tflops, pct, x->r.ms > 0 ? *first_ms / x->r.ms : 0.0, check_word(&x->r.check));
    if (x->r.check.done) printf(" (worst error/bound %.2g)", x->r.check.worst_ratio);
    printf("\n");
  }
  char label[48];
  snprintf(label, sizeof label, "cuBLASLt %s (median over rungs)", tg_dtype_name(part->g.a_type));
  if (n_cublas > 0) {
    const double ms = tg_median_sorted(cublas_ms, n_cublas);
    printf("%4s  %-30s %11.4f %9.2f %9s %8.2fx  %s\n", "-", label, ms,
           tg_request_flops(&part->g) / (ms * 1e-3) / 1e12, "100.0%",
           *first_ms > 0 ? *first_ms / ms : 0.0, check_word(&cublas_check));
  } else {
    const rung_result *any = part->count > 0 ? &res[part->first] : NULL;
    printf("%4s  %-30s not run%s%s\n", "-", "cuBLASLt", any && any->ok ? ": " : "",
           any && any->ok ? any->r.cublas_note : "");
  }
}

static void print_table(const tg_report_context *ctx, const tg_ladder_options *lo,
                        const ladder_part *parts, int n_parts, const rung_result *res) {
  printf("device    %s (SM %d MHz, CUDA %s)\n", ctx->device, ctx->sm_clock_mhz, ctx->cuda);
  for (int p = 0; p < n_parts; ++p) {
    char prob[256];
    tg_report_problem(prob, sizeof prob, &parts[p].g);
    printf("problem   %s\n", prob);
  }
  if (lo->iterations > 0)
    printf("timing    median of %d after %d warm-up per rung", lo->iterations,
           lo->warmup >= 0 ? lo->warmup : TG_LADDER_DEFAULT_WARMUP);
  else
    printf("timing    median of %d after %d warm-up per rung (%d after %d when slower than %g ms)",
           TG_LADDER_FAST_ITERATIONS, lo->warmup >= 0 ? lo->warmup : TG_LADDER_FAST_WARMUP,
           TG_LADDER_SLOW_ITERATIONS, lo->warmup >= 0 ? lo->warmup : TG_LADDER_SLOW_WARMUP,
           TG_LADDER_SLOW_MS);
  printf("%s; cuBLASLt timed alternately with each rung, for the rung's type\n\n",
         lo->cold_l2 ? ", cold L2" : "");
  printf("%4s  %-30s %11s %9s %9s %9s  %s\n", "rung", "kernel", "ms", "TFLOP/s", "% cuBLAS",
         "speedup", "check");
  double first_ms = 0.0;
  for (int p = 0; p < n_parts; ++p) print_part(&parts[p], res, &first_ms);
  for (int p = 0; p < n_parts; ++p)
    if (parts[p].skipped > 0)
      printf(
          "\n%d registered rung%s not run on %s: %s not take it with this layout (tilegemm "
          "list)\n",
          parts[p].skipped, parts[p].skipped == 1 ? "" : "s", tg_dtype_name(parts[p].g.a_type),
          parts[p].skipped == 1 ? "it does" : "they do");
}

/* Selects each part's rungs into idx (a rung an earlier part runs is not run again); returns
 * the number of rungs over all parts. */
static int select_parts(tg_handle *h, const tg_ladder_options *lo, ladder_part *parts, int *n_parts,
                        int *idx) {
  tg_dtype types[TG_LADDER_MAX_PARTS];
  *n_parts = tg_ladder_parts(lo, types, TG_LADDER_MAX_PARTS);
  int total = 0;
  for (int p = 0; p < *n_parts; ++p) {
    tg_ladder_options one = *lo;
    one.dtype = types[p];
    one.all_types = 0;
    tg_ladder_request(&one, &parts[p].g);
    int mine[TG_LADDER_MAX_RUNGS], count = 0;
    const int found =
        tg_ladder_select(h, &parts[p].g, mine, TG_LADDER_MAX_RUNGS - total, &parts[p].skipped);
    parts[p].first = total;
    for (int i = 0; i < found; ++i) {
      int seen = 0;
      for (int j = 0; j < total && !seen; ++j) seen = idx[j] == mine[i];
      if (!seen) idx[total + count++] = mine[i];
    }
    parts[p].count = count;
    total += count;
  }
  return total;
}

int tg_cmd_ladder(int argc, char **argv) {
  tg_ladder_options lo;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  if (tg_parse_ladder(argc, argv, 2, &lo, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm ladder: %s\n", err);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    return TG_EXIT_OK;
  }
  tg_handle *h = NULL;
  int rc = tg_cli_open_handle("ladder", &h);
  if (rc) return rc;
  ladder_part parts[TG_LADDER_MAX_PARTS];
  int idx[TG_LADDER_MAX_RUNGS], n_parts = 0;
  const int count = select_parts(h, &lo, parts, &n_parts, idx);
  if (count == 0) {
    fprintf(stderr, "tilegemm ladder: no registered rung takes %s at this size on this device\n",
            lo.all_types ? "its types" : tg_dtype_name(lo.dtype));
    tg_destroy(h);
    return TG_EXIT_ERROR;
  }
  rung_result *res = calloc((size_t)count, sizeof *res);
  if (!res) {
    fprintf(stderr, "tilegemm ladder: out of host memory\n");
    tg_destroy(h);
    return TG_EXIT_ERROR;
  }
  tg_report_context ctx;
  tg_report_context_read(&ctx);
  if (lo.csv) tg_report_csv_header(stdout);
  int failed = 0, errors = 0;
  for (int p = 0; p < n_parts; ++p)
    for (int i = parts[p].first; i < parts[p].first + parts[p].count; ++i) {
      tg_kernel_get(idx[i], &res[i].info);
      if (!lo.csv) fprintf(stderr, "rung %d: %s ...\n", res[i].info.rung, res[i].info.name);
      run_rung(h, &lo, &parts[p].g, &res[i]);
      if (!res[i].ok) {
        ++errors;
        if (lo.csv)
          fprintf(stderr, "tilegemm ladder: rung %d (%s): %s\n", res[i].info.rung, res[i].info.name,
                  res[i].err);
        continue;
      }
      if (res[i].r.check.done && !res[i].r.check.pass) ++failed;
      if (lo.csv) {
        tg_bench_options o;
        memset(&o, 0, sizeof o);
        o.g = parts[p].g;
        char label[32];
        snprintf(label, sizeof label, "rung %d", res[i].info.rung);
        tg_report_csv_row(stdout, &ctx, &o, &res[i].r, label);
        fflush(stdout);
      }
    }
  if (!lo.csv) print_table(&ctx, &lo, parts, n_parts, res);
  free(res);
  tg_destroy(h);
  if (errors) return TG_EXIT_ERROR;
  return failed ? TG_EXIT_CHECK_FAILED : TG_EXIT_OK;
}
