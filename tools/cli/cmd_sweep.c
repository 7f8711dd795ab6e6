/*
 * cmd_sweep.c — `tilegemm sweep`: shapes × types, each run by tg_bench_run (verified against
 * the fp64 GPU oracle, timed side by side with cuBLASLt), one CSV row each through the report
 * code (device, clocks, CUDA version, date; label = the shape file's name), and a progress line
 * per run on stderr. bench/plot.py draws the CSV.
 */
#include <stdio.h>
#include <string.h>

#include "bench_run.h"
#include "commands.h"
#include "report.h"
#include "run_options.h"
#include "tilegemm.h"

static const char k_help[] =
    "usage: tilegemm sweep (--shapes FILE | --mnkl SPEC)... [options]\n"
    "\n"
    "Runs every shape in every type like `tilegemm bench --vs-cublas`: verified against the\n"
    "fp64 GPU oracle, timed side by side with cuBLASLt on the same input sets. Writes one CSV row\n"
    "per run (bench's columns; label = the shape file's name) and a progress line per run on\n"
    "stderr. `python3 bench/plot.py FILE.csv --out DIR` draws the results.\n"
    "\n"
    "shapes (repeatable):\n"
    "  --shapes FILE         one 'M N K [L] [type]' per line, '#' comments (bench/shapes/*.txt);\n"
    "                        a line with a type runs in that type only\n"
    "  --mnkl M,N,K[,L]      each field a value, a range start:stop:step or start:stop:xF\n"
    "types and problem:\n"
    "  --dtype T[,T...]      f32 tf32 3xtf32 f16 bf16 e4m3 e5m2 s8 (repeatable)\n"
    "                        (default bf16); C and D as bench defaults them (A's type; bf16\n"
    "                        for fp8; s32 for s8)\n"
    "  --a-major, --b-major, --c-major, --alpha, --beta, --epilogue, --kernel   as bench\n"
    "                        (default: A k-major, B k-major, D n-major, alpha 1, beta 0)\n"
    "  --scale none|tensor|rowcol|block, --fast-accum   fp8 scales (random in [0.5, 2)) and\n"
    "                        accumulation, as bench: the fp8 types' runs take them, the others\n"
    "                        run without (CSV columns scale, fast_accum)\n"
    "measurement:\n"
    "  --warmup N            untimed runs first                        (default 5)\n"
    "  --iterations N        timed runs; the median is reported        (default 30)\n"
    "  --cold-l2             rotate input sets totalling > 3x L2 so no run hits a warm L2\n"
    "  --check-max N         verify only shapes of at most N^3 multiply-adds (default 8192;\n"
    "                        0 = no check); larger ones report check 'skipped'\n"
    "  --exact               small-integer data: the check becomes a bitwise comparison\n"
    "                        with the oracle rounded to D's type (GELU keeps the bound)\n"
    "  --seed N              data seed                                 (default 1)\n"
    "output:\n"
    "  --out FILE            the CSV file (default: standard output)\n"
    "\n"
    "The kernel choice is the library's: with a tuning cache (tilegemm tune) the tuned one;\n"
    "TILEGEMM_CACHE= (empty) runs the untuned planner.\n"
    "exit codes: 0 ok, 1 error (some runs failed), 2 no CUDA device, 3 a check failed\n";

static void progress_head(int i, int total, const tg_gemm *g, const char *type) {
  if (g->batch > 1)
    fprintf(stderr, "[%d/%d] %lldx%lldx%lldx%lld %s ... ", i, total, (long long)g->m,
            (long long)g->n, (long long)g->k, (long long)g->batch, type);
  else
    fprintf(stderr, "[%d/%d] %lldx%lldx%lld %s ... ", i, total, (long long)g->m, (long long)g->n,
            (long long)g->k, type);
  fflush(stderr);
}

static void progress_tail(const tg_bench_result *r) {
  fprintf(stderr, "%.0f TF/s", r->tflops);
  if (r->cublas_ran && r->ms > 0) fprintf(stderr, " (%.2fx cuBLAS)", r->cublas_ms / r->ms);
  else fprintf(stderr, " (cuBLAS not run: %s)", r->cublas_note);
  if (r->check.done && !r->check.pass) fprintf(stderr, "  CHECK FAILED");
  fprintf(stderr, "  %s\n", r->kernel);
}

/* Runs of a shape: its own type, or every --dtype. */
static int runs_of(const tg_sweep_cli *o, const tg_shape *s) {
  return s->has_type ? 1 : o->type_count;
}

/* Multiply-adds of a request. */
static double macs(const tg_gemm *g) {
  return (double)g->m * (double)g->n * (double)g->k * (double)g->batch;
}

int tg_cmd_sweep(int argc, char **argv) {
  tg_sweep_cli o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  if (tg_parse_sweep(argc, argv, 2, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm sweep: %s\n", err);
    tg_sweep_cli_free(&o);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    tg_sweep_cli_free(&o);
    return TG_EXIT_OK;
  }
  tg_handle *h = NULL;
  FILE *out = stdout;
  int rc = tg_cli_open_handle("sweep", &h);
  if (rc == 0 && o.out_path && !(out = fopen(o.out_path, "w"))) {
    fprintf(stderr, "tilegemm sweep: option --out: cannot write '%s'\n", o.out_path);
    out = stdout;
    rc = TG_EXIT_ERROR;
  }
  if (rc == 0) {
    tg_report_context ctx;
    tg_report_context_read(&ctx);
    tg_report_csv_header(out);
    fflush(out);
    int total = 0, done = 0, errors = 0, failed = 0;
    for (int i = 0; i < o.shapes.count; ++i) total += runs_of(&o, &o.shapes.items[i]);
    const double check_max = (double)o.check_max * (double)o.check_max * (double)o.check_max;
    for (int i = 0; i < o.shapes.count; ++i) {
      const tg_shape *s = &o.shapes.items[i];
      for (int t = 0; t < runs_of(&o, s); ++t) {
        tg_bench_options bo = o.base;
        tg_bench_result r;
        char msg[TG_CLI_ERROR_BYTES * 2];
        const tg_type_choice type = s->has_type ? s->type : o.types[t];
        tg_shape_request(&o.base.g, s, &type, &bo.g);
        bo.vs_cublas = 1;
        bo.csv = 1;
        bo.skip_ref_check = macs(&bo.g) > check_max;
        progress_head(++done, total, &bo.g, tg_type_choice_name(type));
        if (tg_bench_run(h, &bo, &r, msg, sizeof msg) != 0) {
          fprintf(stderr, "ERROR: %s\n", msg);
          ++errors;
          continue;
        }
        if (bo.skip_ref_check) snprintf(r.check.note, sizeof r.check.note, "skipped (--check-max)");
        failed += r.check.done && !r.check.pass;
        tg_report_csv_row(out, &ctx, &bo, &r, s->label);
        fflush(out);
        progress_tail(&r);
      }
    }
    fprintf(stderr, "%d run%s, %d error%s, %d failed check%s\n", total, total == 1 ? "" : "s",
            errors, errors == 1 ? "" : "s", failed, failed == 1 ? "" : "s");
    rc = errors ? TG_EXIT_ERROR : failed ? TG_EXIT_CHECK_FAILED : TG_EXIT_OK;
  }
  if (out != stdout) fclose(out);
  tg_destroy(h);
  tg_sweep_cli_free(&o);
  return rc;
}
