/*
 * test_run_options.c — the command lines of `tilegemm tune` and `tilegemm sweep` and their
 * shape lists: --mnkl ranges, shape files, types, bench's forwarded options (fp8 scales among
 * them), and a one-line error naming the option for every bad value.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "run_options.h"
#include "shape_list.h"

#define MAX_ARGS 32

static void make_argv(char **argv, const char *cmd, const char *const *args, int n) {
  argv[0] = (char *)"tilegemm";
  argv[1] = (char *)cmd;
  for (int i = 0; i < n; ++i) argv[2 + i] = (char *)args[i];
}

static int parse_tune(tg_tune_cli *o, char *err, const char *const *args, int n) {
  char *argv[MAX_ARGS];
  int help = 0;
  make_argv(argv, "tune", args, n);
  tg_tune_cli_free(o);
  return tg_parse_tune(2 + n, argv, 2, o, &help, err, TG_CLI_ERROR_BYTES);
}

static int parse_sweep(tg_sweep_cli *o, char *err, const char *const *args, int n) {
  char *argv[MAX_ARGS];
  int help = 0;
  make_argv(argv, "sweep", args, n);
  tg_sweep_cli_free(o);
  return tg_parse_sweep(2 + n, argv, 2, o, &help, err, TG_CLI_ERROR_BYTES);
}

#define COUNT(a) ((int)(sizeof a / sizeof a[0]))
#define OK(fn, o, ...)                          \
  do {                                          \
    const char *const args_[] = {__VA_ARGS__};  \
    int rc_ = fn(&o, err, args_, COUNT(args_)); \
    CHECK_MSG(rc_ == 0, "%s", err);             \
  } while (0)
#define FAILS(fn, o, option, ...)                                                        \
  do {                                                                                   \
    const char *const args_[] = {__VA_ARGS__};                                           \
    int rc_ = fn(&o, err, args_, COUNT(args_));                                          \
    CHECK_MSG(rc_ != 0, "accepted: %s", #__VA_ARGS__);                                   \
    CHECK_MSG(strstr(err, option) != NULL, "message does not name %s: %s", option, err); \
    CHECK_MSG(strchr(err, '\n') == NULL, "message is not one line: %s", err);            \
  } while (0)

static void test_ranges(void) {
  tg_shape_list l = {0};
  char err[TG_CLI_ERROR_BYTES];
  CHECK(tg_shape_list_add_mnkl(&l, "1024:8192:1024,1024:8192:1024,4096", err, sizeof err) == 0);
  CHECK(l.count == 64);
  CHECK(l.items[0].m == 1024 && l.items[0].n == 1024 && l.items[0].k == 4096 &&
        l.items[0].batch == 1);
  CHECK(l.items[1].m == 1024 && l.items[1].n == 2048); /* m varies slowest */
  CHECK(l.items[63].m == 8192 && l.items[63].n == 8192 && strcmp(l.items[63].label, "mnkl") == 0);
  tg_shape_list_free(&l);
  CHECK(tg_shape_list_add_mnkl(&l, "128:1024:x2,64,32,2", err, sizeof err) == 0);
  CHECK(l.count == 4 && l.items[3].m == 1024 && l.items[3].batch == 2 && !l.items[0].has_type);
  /* A step that overshoots stops at the last value below stop. */
  CHECK(tg_shape_list_add_mnkl(&l, "100:250:100,1,1", err, sizeof err) == 0 && l.count == 6);
  CHECK(l.items[5].m == 200);
  tg_shape_list_free(&l);
  static const char *const bad[] = {"0,1,1",
                                    "8:1:1,1,1",
                                    "1:8:0,1,1",
                                    "1:8,1,1",
                                    "1:8:x1,1,1",
                                    "a,b,c",
                                    "1,2,3,4,5",
                                    "1,2",
                                    "1,,2",
                                    "1:2:3:4,1,1",
                                    "1:1000000:1,1:1000:1,1,1"};
  for (int i = 0; i < COUNT(bad); ++i) {
    err[0] = '\0';
    CHECK_MSG(tg_shape_list_add_mnkl(&l, bad[i], err, sizeof err) != 0, "accepted '%s'", bad[i]);
    CHECK_MSG(err[0] && strchr(err, '\n') == NULL, "'%s': bad message '%s'", bad[i], err);
  }
  tg_shape_list_free(&l);
}

static void test_shape_text(void) {
  tg_shape_list l = {0};
  char err[TG_CLI_ERROR_BYTES];
  const char *text =
      "# squares\n"
      "\n"
      "128 128 128\n"
      "  4096 14336 4096   # FFN up\n"
      "4096 4096 4096 8\n"
      "1 4096 4096 bf16\n"
      "1024 1024 1024 2 tf32\n"
      "7 8 9 e4m3";
  CHECK_MSG(tg_shape_list_add_text(&l, text, "bench/shapes/llm.txt", err, sizeof err) == 0, "%s",
            err);
  CHECK(l.count == 6 && l.items[5].m == 7 && l.items[5].type.ab == TG_E4M3);
  CHECK(l.items[0].m == 128 && l.items[0].batch == 1 && !l.items[0].has_type);
  CHECK(strcmp(l.items[0].label, "llm") == 0);
  CHECK(l.items[1].n == 14336 && l.items[2].batch == 8);
  CHECK(l.items[3].has_type && l.items[3].type.ab == TG_BF16 &&
        l.items[3].type.tensor_f32 == TG_COMPUTE_F32);
  CHECK(l.items[4].batch == 2 && l.items[4].type.ab == TG_F32 &&
        l.items[4].type.tensor_f32 == TG_COMPUTE_TF32);
  tg_shape_list_free(&l);
  CHECK(tg_shape_list_add_text(&l, "7 8 9 e4m3\n", "x", err, sizeof err) == 0 &&
        l.items[0].type.ab == TG_E4M3);
  tg_shape_list_free(&l);
  static const char *const bad[] = {"1 2\n",       "1 2 3 4 5\n",    "1 2 0\n",
                                    "1 2 3 f64\n", "1 2 3 bf16 4\n", "1 2 3 4 bf16 x\n",
                                    "1 2 3 s32\n", "x 2 3\n"};
  for (int i = 0; i < COUNT(bad); ++i) {
    err[0] = '\0';
    CHECK_MSG(tg_shape_list_add_text(&l, bad[i], "f.txt", err, sizeof err) != 0, "accepted '%s'",
              bad[i]);
    CHECK_MSG(strstr(err, "f.txt:1:") && strchr(err, '\n') == NULL, "'%s': bad message '%s'",
              bad[i], err);
  }
  CHECK(tg_shape_list_add_text(&l, "1 1 1\n\n1 2 x\n", "g.txt", err, sizeof err) != 0 &&
        strstr(err, "g.txt:3:"));
  tg_shape_list_free(&l);
}

static void test_types(void) {
  tg_type_choice t;
  tg_gemm g;
  tg_gemm_init(&g, 8, 8, 8, TG_BF16, TG_BF16);
  CHECK(tg_parse_type_choice("3xtf32", &t) == 0 && t.ab == TG_F32 &&
        t.tensor_f32 == TG_COMPUTE_3XTF32 && strcmp(tg_type_choice_name(t), "3xtf32") == 0);
  tg_type_choice_apply(t, &g);
  CHECK(g.a_type == TG_F32 && g.compute == TG_COMPUTE_3XTF32 && g.d_type == TG_F32);
  CHECK(tg_parse_type_choice("tf32", &t) == 0 && t.tensor_f32 == TG_COMPUTE_TF32 &&
        strcmp(tg_type_choice_name(t), "tf32") == 0);
  tg_type_choice_apply(t, &g);
  CHECK(g.a_type == TG_F32 && g.compute == TG_COMPUTE_TF32 && g.d_type == TG_F32);
  CHECK(tg_parse_type_choice("e4m3", &t) == 0);
  tg_type_choice_apply(t, &g);
  CHECK(g.a_type == TG_E4M3 && g.b_type == TG_E4M3 && g.c_type == TG_BF16 &&
        g.compute == TG_COMPUTE_F32);
  g.scale_mode = TG_SCALE_BLOCK; /* fp8 keeps its scales and accumulation ... */
  g.fp8_fast_accum = 1;
  CHECK(tg_parse_type_choice("e5m2", &t) == 0);
  tg_type_choice_apply(t, &g);
  CHECK(g.a_type == TG_E5M2 && g.scale_mode == TG_SCALE_BLOCK && g.fp8_fast_accum == 1);
  CHECK(tg_parse_type_choice("int8", &t) == 0); /* ... other types go without */
  tg_type_choice_apply(t, &g);
  CHECK(g.compute == TG_COMPUTE_S32 && g.d_type == TG_S32 && g.bias_type == TG_F32);
  CHECK(g.scale_mode == TG_SCALE_NONE && g.fp8_fast_accum == 0);
  CHECK(tg_parse_type_choice("s32", &t) != 0 && tg_parse_type_choice("f64", &t) != 0);
}

static void test_tune(void) {
  tg_tune_cli o;
  char err[TG_CLI_ERROR_BYTES];
  memset(&o, 0, sizeof o);
  OK(parse_tune, o, "--mnkl", "256,512,384");
  CHECK(o.shapes.count == 1 && o.flush_l2 == 1 && o.save == 1 && !o.cache_path && !o.csv_path);
  CHECK(o.base.g.a_type == TG_BF16 && o.base.g.b_order == TG_COL_MAJOR);
  CHECK(o.base.iterations == TG_CLI_DEFAULT_ITERATIONS && o.base.warmup == TG_CLI_DEFAULT_WARMUP);
  OK(parse_tune, o, "--mnkl=1024:8192:1024,1024:8192:1024,4096", "--mnkl", "1,4096,4096",
     "--ab-dtype", "f16", "--iterations", "7", "--warmup=2", "--alpha", "2", "--a-major", "m",
     "--cache", "/tmp/c.txt", "--csv=/tmp/x.csv", "--no-save", "--warm-l2", "--seed", "3",
     "--beta=1", "--epilogue", "relu");
  CHECK(o.shapes.count == 65 && o.shapes.items[64].m == 1);
  CHECK(o.base.g.a_type == TG_F16 && o.base.g.c_type == TG_F16 && o.base.iterations == 7 &&
        o.base.warmup == 2);
  CHECK(o.base.g.alpha == 2.0 && o.base.g.beta == 1.0 && o.base.g.a_order == TG_COL_MAJOR &&
        o.base.seed == 3);
  CHECK(o.base.g.epilogue == TG_EPI_RELU);
  CHECK(strcmp(o.cache_path, "/tmp/c.txt") == 0 && strcmp(o.csv_path, "/tmp/x.csv") == 0);
  CHECK(!o.save && !o.flush_l2);
  OK(parse_tune, o, "--mnkl", "64,64,64", "--cold-l2");
  CHECK(o.flush_l2 == 1);
  CHECK(o.base.g.scale_mode == TG_SCALE_NONE && !o.base.g.fp8_fast_accum);
  /* fp8 scales and accumulation are bench's options, forwarded. */
  OK(parse_tune, o, "--mnkl", "64,64,64", "--ab-dtype", "e4m3", "--scale", "rowcol",
     "--fast-accum");
  CHECK(o.base.g.scale_mode == TG_SCALE_ROW_COL && o.base.g.fp8_fast_accum == 1);
  OK(parse_tune, o, "--mnkl", "64,64,64", "--scale=block");
  CHECK(o.base.g.scale_mode == TG_SCALE_BLOCK && !o.base.g.fp8_fast_accum);
  /* The shape's type overrides the problem's for that shape only. */
  tg_gemm g;
  tg_shape s = {0};
  s.m = 2, s.n = 3, s.k = 4, s.batch = 5;
  tg_shape_request(&o.base.g, &s, NULL, &g);
  CHECK(g.m == 2 && g.batch == 5 && g.a_type == TG_BF16);
  s.has_type = 1;
  s.type.ab = TG_E5M2;
  tg_shape_request(&o.base.g, &s, NULL, &g);
  CHECK(g.a_type == TG_E5M2 && g.c_type == TG_BF16);

  int help = 0;
  char *hv[] = {(char *)"tilegemm", (char *)"tune", (char *)"--help"};
  tg_tune_cli_free(&o);
  CHECK(tg_parse_tune(3, hv, 2, &o, &help, err, sizeof err) == 0 && help);

  FAILS(parse_tune, o, "--mnkl", "--mnkl", "1:8:0,1,1");
  FAILS(parse_tune, o, "--mnkl", "--mnkl");
  FAILS(parse_tune, o, "--shapes", "--shapes", "/nonexistent/shapes.txt");
  FAILS(parse_tune, o, "--iterations", "--mnkl", "8,8,8", "--iterations", "0");
  FAILS(parse_tune, o, "--ab-dtype", "--mnkl", "8,8,8", "--ab-dtype", "f64");
  FAILS(parse_tune, o, "--cache", "--mnkl", "8,8,8", "--cache");
  FAILS(parse_tune, o, "--kernel", "--mnkl", "8,8,8", "--kernel", "ref");
  FAILS(parse_tune, o, "--vs-cublas", "--mnkl", "8,8,8", "--vs-cublas");
  FAILS(parse_tune, o, "--no-save", "--mnkl", "8,8,8", "--no-save=1");
  FAILS(parse_tune, o, "--mnkl", "--ab-dtype", "f16");
  FAILS(parse_tune, o, "--scale", "--mnkl", "8,8,8", "--scale", "blocks");
  FAILS(parse_tune, o, "--scale", "--mnkl", "8,8,8", "--scale");
  FAILS(parse_tune, o, "--fast-accum", "--mnkl", "8,8,8", "--fast-accum=0");
  tg_tune_cli_free(&o);
}

static void test_sweep(void) {
  tg_sweep_cli o;
  char err[TG_CLI_ERROR_BYTES], path[] = "/tmp/tg_shapes_XXXXXX";
  memset(&o, 0, sizeof o);
  const int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd >= 0) {
    const char text[] = "# test shapes\n512 512 512\n64 64 64 2 e4m3\n";
    CHECK(write(fd, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
    close(fd);
  }
  OK(parse_sweep, o, "--shapes", path);
  CHECK(o.shapes.count == 2 && o.type_count == 1 && o.types[0].ab == TG_BF16 &&
        o.types[0].tensor_f32 == TG_COMPUTE_F32);
  CHECK(o.check_max == TG_SWEEP_DEFAULT_CHECK_MAX && !o.out_path && !o.base.cold_l2);
  CHECK(o.shapes.items[1].has_type && o.shapes.items[1].type.ab == TG_E4M3 &&
        o.shapes.items[1].batch == 2);
  OK(parse_sweep, o, "--shapes", path, "--mnkl", "128:16384:x2,128,128", "--dtype", "bf16,f16",
     "--dtype=tf32", "--out", "/tmp/s.csv", "--iterations", "9", "--cold-l2", "--check-max", "4096",
     "--kernel", "ref", "--b-major", "n", "--exact");
  CHECK(o.shapes.count == 2 + 8 && o.type_count == 3 && o.types[2].tensor_f32 == TG_COMPUTE_TF32);
  CHECK(strcmp(o.out_path, "/tmp/s.csv") == 0 && o.base.iterations == 9 && o.base.cold_l2);
  CHECK(o.check_max == 4096 && strcmp(o.base.g.kernel, "ref") == 0 &&
        o.base.g.b_order == TG_ROW_MAJOR);
  CHECK(o.base.exact);
  /* --scale and --fast-accum reach the fp8 types' runs; the others run without. */
  OK(parse_sweep, o, "--mnkl", "64,64,64", "--dtype", "e4m3,bf16", "--scale", "tensor",
     "--fast-accum");
  CHECK(o.base.g.scale_mode == TG_SCALE_TENSOR && o.base.g.fp8_fast_accum == 1);
  tg_gemm g;
  tg_shape_request(&o.base.g, &o.shapes.items[0], &o.types[0], &g);
  CHECK(g.a_type == TG_E4M3 && g.scale_mode == TG_SCALE_TENSOR && g.fp8_fast_accum == 1);
  tg_shape_request(&o.base.g, &o.shapes.items[0], &o.types[1], &g);
  CHECK(g.a_type == TG_BF16 && g.scale_mode == TG_SCALE_NONE && g.fp8_fast_accum == 0);
  FAILS(parse_sweep, o, "--dtype", "--mnkl", "8,8,8", "--dtype", "bf16,x");
  FAILS(parse_sweep, o, "--dtype", "--mnkl", "8,8,8", "--dtype");
  FAILS(parse_sweep, o, "--dtype", "--mnkl", "8,8,8", "--dtype",
        "bf16,f16,f32,tf32,e4m3,e5m2,s8,f16,bf16");
  FAILS(parse_sweep, o, "--check-max", "--mnkl", "8,8,8", "--check-max", "-1");
  FAILS(parse_sweep, o, "--check-max", "--mnkl", "8,8,8", "--check-max", "lots");
  FAILS(parse_sweep, o, "--out", "--mnkl", "8,8,8", "--out");
  FAILS(parse_sweep, o, "--ab-dtype", "--mnkl", "8,8,8", "--ab-dtype", "f16");
  FAILS(parse_sweep, o, "--cold-l2", "--mnkl", "8,8,8", "--cold-l2=yes");
  FAILS(parse_sweep, o, "--shapes", "--shapes", "/nonexistent.txt");
  FAILS(parse_sweep, o, "--shapes", "--dtype", "bf16");
  FAILS(parse_sweep, o, "--scale", "--mnkl", "8,8,8", "--scale", "per-row");
  FAILS(parse_sweep, o, "--fast-accum", "--mnkl", "8,8,8", "--fast-accum=yes");
  tg_sweep_cli_free(&o);
  unlink(path);
}

/* The shape files of bench/shapes parse, and the squares are squares. */
static void test_bench_shape_files(void) {
  static const char *const names[] = {"squares", "llm", "odd", "decode"};
  for (int i = 0; i < COUNT(names); ++i) {
    tg_shape_list l = {0};
    char path[512], err[TG_CLI_ERROR_BYTES];
    snprintf(path, sizeof path, "%s/bench/shapes/%s.txt", TG_SOURCE_DIR, names[i]);
    CHECK_MSG(tg_shape_list_add_file(&l, path, err, sizeof err) == 0, "%s", err);
    CHECK_MSG(l.count > 0 && strcmp(l.items[0].label, names[i]) == 0, "%s: %d shapes", path,
              l.count);
    for (int s = 0; i == 0 && s < l.count; ++s)
      CHECK(l.items[s].m == l.items[s].n && l.items[s].n == l.items[s].k && l.items[s].batch == 1);
    /* The decode set: M of 1 to 128 by powers of two against six weight shapes. */
    for (int s = 0; i == 3 && s < l.count; ++s)
      CHECK(l.items[s].m == (int64_t)1 << (s % 8) && l.items[s].batch == 1);
    CHECK(i != 3 || l.count == 48);
    tg_shape_list_free(&l);
  }
}

int main(void) {
  test_bench_shape_files();
  test_ranges();
  test_shape_text();
  test_types();
  test_tune();
  test_sweep();
  return tg_test_finish("test_run_options");
}
