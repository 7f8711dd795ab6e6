/*
 * test_cli_options.c — `tilegemm bench` option parsing: defaults, every option in both spellings
 * (fp8 scales and accumulation included), and a one-line error naming the option for every bad
 * value.
 */
#include <string.h>

#include "check.h"
#include "options.h"

static int parse(tg_bench_options *o, char *err, const char *const *args, int n) {
  char *argv[32];
  int help = 0;
  argv[0] = (char *)"tilegemm";
  argv[1] = (char *)"bench";
  for (int i = 0; i < n; ++i) argv[2 + i] = (char *)args[i];
  return tg_parse_bench(2 + n, argv, 2, o, &help, err, TG_CLI_ERROR_BYTES);
}

#define PARSE_OK(...)                                                       \
  do {                                                                      \
    const char *const args_[] = {__VA_ARGS__};                              \
    int rc_ = parse(&o, err, args_, (int)(sizeof args_ / sizeof args_[0])); \
    CHECK_MSG(rc_ == 0, "%s", err);                                         \
  } while (0)

#define PARSE_FAILS(option, ...)                                                         \
  do {                                                                                   \
    const char *const args_[] = {__VA_ARGS__};                                           \
    int rc_ = parse(&o, err, args_, (int)(sizeof args_ / sizeof args_[0]));              \
    CHECK_MSG(rc_ != 0, "accepted: %s", #__VA_ARGS__);                                   \
    CHECK_MSG(strstr(err, option) != NULL, "message does not name %s: %s", option, err); \
    CHECK_MSG(strchr(err, '\n') == NULL, "message is not one line: %s", err);            \
  } while (0)

int main(void) {
  tg_bench_options o;
  char err[TG_CLI_ERROR_BYTES];

  /* Defaults: 1024³ bf16, C = A·B^T layouts, 5 warm-up, 30 timed. */
  PARSE_OK("--csv");
  CHECK(o.g.m == 1024 && o.g.n == 1024 && o.g.k == 1024 && o.g.batch == 1);
  CHECK(o.g.a_type == TG_BF16 && o.g.b_type == TG_BF16 && o.g.c_type == TG_BF16 &&
        o.g.d_type == TG_BF16);
  CHECK(o.g.a_order == TG_ROW_MAJOR && o.g.b_order == TG_COL_MAJOR && o.g.c_order == TG_ROW_MAJOR);
  CHECK(o.g.compute == TG_COMPUTE_F32 && o.g.alpha == 1.0 && o.g.beta == 0.0 && !o.g.kernel);
  CHECK(o.warmup == TG_CLI_DEFAULT_WARMUP && o.iterations == TG_CLI_DEFAULT_ITERATIONS && o.csv);
  CHECK(o.g.scale_mode == TG_SCALE_NONE && !o.g.scale_a && !o.g.scale_b && !o.g.fp8_fast_accum);

  /* The example line. */
  PARSE_OK("--mnkl", "8192,8192,8192,2", "--ab-dtype", "Float16", "--c-dtype", "f16", "--acc-dtype",
           "Float32", "--a-major", "m", "--b-major", "n", "--c-major", "m", "--skip-ref-check",
           "--iterations", "2", "--vs-cublas", "--cold-l2");
  CHECK(o.g.m == 8192 && o.g.batch == 2 && o.g.a_type == TG_F16 && o.g.c_type == TG_F16);
  CHECK(o.g.a_order == TG_COL_MAJOR && o.g.b_order == TG_ROW_MAJOR && o.g.c_order == TG_COL_MAJOR);
  CHECK(o.skip_ref_check && o.iterations == 2 && o.vs_cublas && o.cold_l2);

  /* "=value" spelling, mixed fp8, d differing from c, epilogue, kernel, ld. */
  PARSE_OK("--mnkl=16,32,64", "--a-dtype=e4m3", "--b-dtype=e5m2", "--c-dtype=f32", "--d-dtype=bf16",
           "--epilogue=bias-gelu", "--bias-dtype=f16", "--kernel=ref", "--alpha=0.5",
           "--beta=-1.25", "--lda=70", "--ldd=40", "--seed=9", "--exact", "--warmup=0");
  CHECK(o.g.a_type == TG_E4M3 && o.g.b_type == TG_E5M2 && o.g.c_type == TG_F32 &&
        o.g.d_type == TG_BF16);
  CHECK(o.g.epilogue == TG_EPI_BIAS_GELU && o.g.bias_type == TG_F16 &&
        strcmp(o.g.kernel, "ref") == 0);
  CHECK(o.g.alpha == 0.5 && o.g.beta == -1.25 && o.g.lda == 70 && o.g.ldd == 40 && o.g.ldb == 0);
  CHECK(o.seed == 9 && o.exact && o.warmup == 0 && o.g.batch == 1);

  /* Integer inputs default to s32 accumulate and output; tf32 keeps f32 data. */
  PARSE_OK("--ab-dtype", "int8");
  CHECK(o.g.compute == TG_COMPUTE_S32 && o.g.c_type == TG_S32 && o.g.bias_type == TG_F32);
  PARSE_OK("--ab-dtype", "f32", "--acc-dtype", "tf32", "--kernel", "auto");
  CHECK(o.g.compute == TG_COMPUTE_TF32 && o.g.c_type == TG_F32 && o.g.kernel == NULL);
  PARSE_OK("--ab-dtype", "e4m3");
  CHECK(o.g.c_type == TG_BF16);

  /* fp8 scales and accumulation, in both spellings and any case. */
  PARSE_OK("--ab-dtype", "e4m3", "--scale", "block", "--fast-accum");
  CHECK(o.g.scale_mode == TG_SCALE_BLOCK && o.g.fp8_fast_accum == 1);
  PARSE_OK("--ab-dtype=e5m2", "--scale=RowCol");
  CHECK(o.g.scale_mode == TG_SCALE_ROW_COL && o.g.fp8_fast_accum == 0);
  PARSE_OK("--scale", "tensor", "--scale", "none");
  CHECK(o.g.scale_mode == TG_SCALE_NONE); /* the last one counts */
  PARSE_OK("--scale", "TENSOR");
  CHECK(o.g.scale_mode == TG_SCALE_TENSOR);

  int help = 0;
  char *hv[] = {(char *)"tilegemm", (char *)"bench", (char *)"--help"};
  CHECK(tg_parse_bench(3, hv, 2, &o, &help, err, sizeof err) == 0 && help);

  /* Bad options and values: one line naming the option. */
  PARSE_FAILS("--mnkl", "--mnkl", "4,4");
  PARSE_FAILS("--mnkl", "--mnkl", "4,4,4,4,4");
  PARSE_FAILS("--mnkl", "--mnkl", "4,-4,4");
  PARSE_FAILS("--mnkl", "--mnkl", "4,,4");
  PARSE_FAILS("--mnkl", "--mnkl", "4,x,4");
  PARSE_FAILS("--mnkl", "--mnkl");
  PARSE_FAILS("--ab-dtype", "--ab-dtype", "f64");
  PARSE_FAILS("--a-dtype", "--a-dtype=int4");
  PARSE_FAILS("--c-dtype", "--c-dtype", "q8");
  PARSE_FAILS("--acc-dtype", "--acc-dtype", "f16");
  PARSE_FAILS("--a-major", "--a-major", "n");
  PARSE_FAILS("--b-major", "--b-major", "m");
  PARSE_FAILS("--c-major", "--c-major", "k");
  PARSE_FAILS("--alpha", "--alpha", "one");
  PARSE_FAILS("--beta", "--beta", "inf");
  PARSE_FAILS("--epilogue", "--epilogue", "swish");
  PARSE_FAILS("--bias-dtype", "--bias-dtype", "x");
  PARSE_FAILS("--iterations", "--iterations", "0");
  PARSE_FAILS("--warmup", "--warmup", "-1");
  PARSE_FAILS("--seed", "--seed", "abc");
  PARSE_FAILS("--ldb", "--ldb", "-3");
  PARSE_FAILS("--csv", "--csv=1");
  PARSE_FAILS("--kernel", "--kernel");
  PARSE_FAILS("--scale", "--scale", "perrow");
  PARSE_FAILS("--scale", "--scale=");
  PARSE_FAILS("--scale", "--scale");
  PARSE_FAILS("--fast-accum", "--fast-accum=1");
  PARSE_FAILS("--frobnicate", "--frobnicate");

  /* Value parsers. */
  tg_dtype t;
  tg_epilogue e;
  CHECK(tg_parse_dtype("BFloat16", &t) == 0 && t == TG_BF16);
  CHECK(tg_parse_dtype("float8_e4m3", &t) == 0 && t == TG_E4M3);
  CHECK(tg_parse_dtype("", &t) != 0);
  CHECK(tg_parse_epilogue("bias_relu", &e) == 0 && e == TG_EPI_BIAS_RELU);
  CHECK(tg_parse_epilogue("none", &e) == 0 && e == TG_EPI_NONE);
  CHECK(strcmp(tg_epilogue_name(TG_EPI_BIAS_GELU), "bias-gelu") == 0);
  CHECK(strcmp(tg_epilogue_name((tg_epilogue)99), "?") == 0);
  for (int i = TG_EPI_NONE; i <= TG_EPI_BIAS_GELU;
       ++i) /* every name the library prints parses back */
    CHECK(tg_parse_epilogue(tg_epilogue_name((tg_epilogue)i), &e) == 0 && e == (tg_epilogue)i);
  /* The bad --scale value's message lists the good ones. */
  PARSE_FAILS("--scale", "--scale", "rows");
  CHECK_MSG(strstr(err, "'rows'") && strstr(err, "none tensor rowcol block"), "%s", err);
  tg_scale_mode sm;
  for (int i = TG_SCALE_NONE; i <= TG_SCALE_BLOCK; ++i) /* every name parses back */
    CHECK(tg_parse_scale_mode(tg_scale_mode_name((tg_scale_mode)i), &sm) == 0 &&
          sm == (tg_scale_mode)i);
  CHECK(strcmp(tg_scale_mode_name(TG_SCALE_ROW_COL), "rowcol") == 0);
  CHECK(strcmp(tg_scale_mode_name((tg_scale_mode)9), "?") == 0);
  CHECK(tg_parse_scale_mode("", &sm) != 0 && tg_parse_scale_mode("row_col", &sm) != 0);
  return tg_test_finish("test_cli_options");
}
