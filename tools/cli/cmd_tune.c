/*
 * cmd_tune.c — `tilegemm tune`: tg_tune over a list of shapes. Per shape, every candidate's
 * time and the verified winner; at the end, the planner's untuned choice against the tuned
 * winner for every shape (the before/after table), and the cache written back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_run.h"
#include "commands.h"
#include "operands.h"
#include "report.h"
#include "run_options.h"
#include "tilegemm.h"

#define SHAPE_TEXT_BYTES 64
#define US_PER_MS 1000.0
#define TFLOPS_PER_FLOP_PER_US 1e-6

static const char k_help[] =
    "usage: tilegemm tune (--mnkl SPEC | --shapes FILE)... [options]\n"
    "\n"
    "For each shape, times every registered kernel that can serve it (all but `ref` and the\n"
    "teaching rungs 1-12): warm-up, then the median of the timed runs, L2 flushed before each.\n"
    "The fastest is verified against the fp64 GPU oracle and stored in the tuning cache, which\n"
    "the planner reads first from then on (docs/tuning.md). Prints every candidate's time, the\n"
    "winner, and at the end the planner's untuned choice against the tuned winner per shape.\n"
    "\n"
    "shapes (repeatable, tuned in order):\n"
    "  --mnkl M,N,K[,L]      each field a value, a range start:stop:step (1024:8192:1024) or\n"
    "                        start:stop:xF (128:16384:x2); every combination is tuned\n"
    "  --shapes FILE         one 'M N K [L] [type]' per line, '#' comments (bench/shapes/*.txt);\n"
    "                        a type on a line (f32 tf32 3xtf32 f16 bf16 e4m3 e5m2 s8)\n"
    "                        overrides the problem's types for that shape\n"
    "problem (as `tilegemm bench`; default bf16, A k-major, B k-major, D n-major):\n"
    "  --ab-dtype, --a-dtype, --b-dtype, --c-dtype, --d-dtype, --acc-dtype, --a-major,\n"
    "  --b-major, --c-major, --lda, --ldb, --ldc, --ldd, --alpha, --beta, --epilogue,\n"
    "  --bias-dtype, --seed\n"
    "  --scale none|tensor|rowcol|block, --fast-accum   fp8 scales (random in [0.5, 2)) and\n"
    "                        accumulation, as bench (a shape file's line of a type other than\n"
    "                        fp8 runs without)\n"
    "measurement:\n"
    "  --warmup N            untimed runs per candidate                (default 5)\n"
    "  --iterations N        timed runs per candidate; the median is kept (default 30)\n"
    "  --cold-l2             flush L2 before every timed run           (default)\n"
    "  --warm-l2             no flush: back-to-back runs\n"
    "cache and output:\n"
    "  --cache FILE          the cache file to read and update (default: $TILEGEMM_CACHE, else\n"
    "                        $XDG_CACHE_HOME/tilegemm/tune.txt, else ~/.cache/tilegemm/tune.txt)\n"
    "  --no-save             measure and report, but leave the cache file as it is\n"
    "  --csv FILE            also write every candidate's time as CSV (refitting the heuristic)\n"
    "\n"
    "exit codes: 0 ok, 1 error (some shape could not be tuned, or the cache not written),\n"
    "2 no CUDA device\n";

/* One line of the before/after table. */
typedef struct tune_row {
  char shape[SHAPE_TEXT_BYTES];
  char type[SHAPE_TEXT_BYTES];
  double flops;
  int ok;
  const char *heuristic, *winner;
  double heuristic_us, winner_us;
  char error[TG_CLI_ERROR_BYTES];
} tune_row;

static void shape_text(char *buf, size_t n, const tg_gemm *g) {
  if (g->batch > 1)
    snprintf(buf, n, "%lldx%lldx%lldx%lld", (long long)g->m, (long long)g->n, (long long)g->k,
             (long long)g->batch);
  else snprintf(buf, n, "%lldx%lldx%lld", (long long)g->m, (long long)g->n, (long long)g->k);
}

static void type_text(char *buf, size_t n, const tg_gemm *g) {
  if (g->compute == TG_COMPUTE_TF32 || g->compute == TG_COMPUTE_3XTF32)
    snprintf(buf, n, "%s", tg_compute_name(g->compute));
  else if (g->a_type != g->b_type)
    snprintf(buf, n, "%s/%s", tg_dtype_name(g->a_type), tg_dtype_name(g->b_type));
  else snprintf(buf, n, "%s", tg_dtype_name(g->a_type));
}

static double tflops(double flops, double us) {
  return us > 0 ? flops / us * TFLOPS_PER_FLOP_PER_US : 0.0;
}

static void csv_header(FILE *f) {
  fputs(
      "date,device,sm_clock_mhz,mem_clock_mhz,cuda,m,n,k,batch,type,a_major,b_major,c_major,kernel,"
      "status,us,tflops,"
      "estimate,heuristic,winner\n",
      f);
}

static void csv_rows(FILE *f, const tg_report_context *ctx, const tg_gemm *g, const tune_row *row,
                     const tg_tune_result *r) {
  for (int i = 0; i < r->candidate_count; ++i) {
    const tg_tune_candidate *c = &r->candidates[i];
    fprintf(f, "%s,%s,%d,%d,%s,%lld,%lld,%lld,%lld,%s,%c,%c,%c,%s,%s,%.3f,%.3f,%.6g,%d,%d\n",
            ctx->date, ctx->device, ctx->sm_clock_mhz, ctx->mem_clock_mhz, ctx->cuda,
            (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch, row->type,
            tg_major_letter('a', g->a_order), tg_major_letter('b', g->b_order),
            tg_major_letter('c', g->c_order), c->kernel,
            c->status == TG_OK ? "ok" : tg_status_string(c->status), c->us,
            tflops(row->flops, c->us), c->estimate, strcmp(c->kernel, r->heuristic_kernel) == 0,
            c->kernel == r->kernel);
  }
  fflush(f);
}

static void print_candidates(const tune_row *row, const tg_tune_result *r) {
  printf("    %-28s %10s %9s\n", "kernel", "ms", "TFLOP/s");
  for (int i = 0; i < r->candidate_count; ++i) {
    const tg_tune_candidate *c = &r->candidates[i];
    const int winner = c->kernel == r->kernel,
              untuned = strcmp(c->kernel, r->heuristic_kernel) == 0;
    if (c->status == TG_OK || c->status == TG_ERR_INTERNAL)
      printf("    %-28s %10.4f %9.2f%s%s%s\n", c->kernel, c->us / US_PER_MS,
             tflops(row->flops, c->us), c->status == TG_ERR_INTERNAL ? "  FAILED its check" : "",
             winner ? "  <- tuned" : "", untuned ? "  <- untuned planner" : "");
    else
      printf("    %-28s %10s %9s  %s%s\n", c->kernel, "-", "-", tg_status_string(c->status),
             untuned ? "  <- untuned planner" : "");
  }
  printf("  winner %s, verified (worst error/bound %.3g); %.2fx the untuned choice (%s)\n",
         r->kernel, r->worst_ratio,
         r->us > 0 && r->heuristic_us > 0 ? r->heuristic_us / r->us : 0.0, r->heuristic_kernel);
}

static void print_table(const tune_row *rows, int count) {
  printf("\nbefore/after: the planner's untuned choice (heuristic) and the tuned winner\n");
  printf("%-22s %-6s %-26s %10s %9s  %-26s %10s %9s %8s\n", "shape", "type", "untuned kernel", "ms",
         "TFLOP/s", "tuned kernel", "ms", "TFLOP/s", "speedup");
  for (int i = 0; i < count; ++i) {
    const tune_row *r = &rows[i];
    if (!r->ok) {
      printf("%-22s %-6s ERROR: %s\n", r->shape, r->type, r->error);
      continue;
    }
    printf("%-22s %-6s %-26s %10.4f %9.2f  %-26s %10.4f %9.2f %7.2fx\n", r->shape, r->type,
           r->heuristic, r->heuristic_us / US_PER_MS, tflops(r->flops, r->heuristic_us), r->winner,
           r->winner_us / US_PER_MS, tflops(r->flops, r->winner_us),
           r->winner_us > 0 && r->heuristic_us > 0 ? r->heuristic_us / r->winner_us : 0.0);
  }
}

/* Tunes one shape; fills *row. */
static void tune_one(tg_handle *h, const tg_tune_cli *o, const tg_tune_options *topt,
                     const tg_shape *s, FILE *csv, const tg_report_context *ctx, tune_row *row) {
  tg_gemm g;
  tg_operands op;
  tg_tune_result res;
  tg_shape_request(&o->base.g, s, NULL, &g);
  shape_text(row->shape, sizeof row->shape, &g);
  type_text(row->type, sizeof row->type, &g);
  row->flops = tg_request_flops(&g);
  if (tg_operands_alloc(&g, o->base.seed, &op, row->error, sizeof row->error) != 0) return;
  g.bias = op.bias;
  g.scale_a = op.scales.a;
  g.scale_b = op.scales.b;
  if (tg_tune(h, &g, op.a, op.b, op.c, op.d, 0, topt, &res) != TG_OK) {
    snprintf(row->error, sizeof row->error, "%s", tg_last_error(h));
  } else {
    row->ok = 1;
    row->heuristic = res.heuristic_kernel;
    row->heuristic_us = res.heuristic_us;
    row->winner = res.kernel;
    row->winner_us = res.us;
    print_candidates(row, &res);
    if (csv) csv_rows(csv, ctx, &g, row, &res);
  }
  tg_operands_free(&op);
}

/* Loads the cache tune reads and updates; prints what was ignored. */
static int load_cache(tg_handle *h, const char *path) {
  if (path && tg_cache_load(h, path) != TG_OK) {
    fprintf(stderr, "tilegemm tune: %s\n", tg_last_error(h));
    return -1;
  }
  const char *w = tg_cache_warnings(h);
  if (*w) fprintf(stderr, "tilegemm tune: lines of the cache file were ignored:\n%s", w);
  return 0;
}

static int save_cache(tg_handle *h, const char *path) {
  char where[4096];
  if (tg_cache_save(h, path) != TG_OK) {
    fprintf(stderr, "tilegemm tune: %s\n", tg_last_error(h));
    return -1;
  }
  if (!path && tg_cache_default_path(where, sizeof where) == TG_OK) path = where;
  printf("\ncache: %d entr%s for this device in %s\n", tg_cache_count(h),
         tg_cache_count(h) == 1 ? "y" : "ies", path ? path : "?");
  return 0;
}

int tg_cmd_tune(int argc, char **argv) {
  tg_tune_cli o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  if (tg_parse_tune(argc, argv, 2, &o, &help, err, sizeof err) != 0) {
    fprintf(stderr, "tilegemm tune: %s\n", err);
    tg_tune_cli_free(&o);
    return TG_EXIT_ERROR;
  }
  if (help) {
    fputs(k_help, stdout);
    tg_tune_cli_free(&o);
    return TG_EXIT_OK;
  }
  tg_handle *h = NULL;
  int rc = tg_cli_open_handle("tune", &h);
  FILE *csv = NULL;
  tune_row *rows = NULL;
  if (rc == 0 && load_cache(h, o.cache_path) != 0) rc = TG_EXIT_ERROR;
  if (rc == 0 && o.csv_path && !(csv = fopen(o.csv_path, "w"))) {
    fprintf(stderr, "tilegemm tune: option --csv: cannot write '%s'\n", o.csv_path);
    rc = TG_EXIT_ERROR;
  }
  if (rc == 0 && !(rows = (tune_row *)calloc((size_t)o.shapes.count, sizeof *rows))) {
    fprintf(stderr, "tilegemm tune: out of host memory\n");
    rc = TG_EXIT_ERROR;
  }
  if (rc == 0) {
    tg_report_context ctx;
    tg_report_context_read(&ctx);
    tg_tune_options topt;
    tg_tune_options_init(&topt);
    topt.warmup = o.base.warmup;
    topt.iterations = o.base.iterations;
    topt.flush_l2 = o.flush_l2;
    if (csv) csv_header(csv);
    printf("device    %s (SM %d MHz, CUDA %s)\n", ctx.device, ctx.sm_clock_mhz, ctx.cuda);
    printf("timing    median of %d after %d warm-up per candidate%s\n", topt.iterations,
           topt.warmup, topt.flush_l2 ? ", L2 flushed before each run" : ", warm L2");
    int failed = 0;
    for (int i = 0; i < o.shapes.count; ++i) {
      tg_gemm g;
      char shape[SHAPE_TEXT_BYTES], type[SHAPE_TEXT_BYTES];
      tg_shape_request(&o.base.g, &o.shapes.items[i], NULL, &g);
      shape_text(shape, sizeof shape, &g);
      type_text(type, sizeof type, &g);
      printf("\n[%d/%d] %s %s\n", i + 1, o.shapes.count, shape, type);
      fflush(stdout);
      tune_one(h, &o, &topt, &o.shapes.items[i], csv, &ctx, &rows[i]);
      if (!rows[i].ok) {
        printf("  ERROR: %s\n", rows[i].error);
        ++failed;
      }
    }
    print_table(rows, o.shapes.count);
    if (o.save && save_cache(h, o.cache_path) != 0) rc = TG_EXIT_ERROR;
    if (failed) rc = TG_EXIT_ERROR;
  }
  if (csv) fclose(csv);
  free(rows);
  tg_destroy(h);
  tg_tune_cli_free(&o);
  return rc;
}
