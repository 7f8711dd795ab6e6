/*
 * test_ladder_options.c — `tilegemm ladder` without a GPU: option parsing (defaults, both
 * spellings, a one-line error naming the option for every bad value), the parts of the default
 * ladder (every rung: f32, then bf16), the request each dtype runs, and which registered rungs
 * the ladder picks on a virtual H100.
 */
#include <string.h>

#include "check.h"
#include "commands.h"
#include "options.h"
#include "tilegemm.h"

static int parse(tg_ladder_options *o, int *help, char *err, const char *const *args, int n) {
  char *argv[32];
  argv[0] = (char *)"tilegemm";
  argv[1] = (char *)"ladder";
  for (int i = 0; i < n; ++i) argv[2 + i] = (char *)args[i];
  return tg_parse_ladder(2 + n, argv, 2, o, help, err, TG_CLI_ERROR_BYTES);
}

#define PARSE_OK(...)                                                              \
  do {                                                                             \
    const char *const args_[] = {__VA_ARGS__};                                     \
    int rc_ = parse(&o, &help, err, args_, (int)(sizeof args_ / sizeof args_[0])); \
    CHECK_MSG(rc_ == 0, "%s", err);                                                \
  } while (0)

#define PARSE_FAILS(option, ...)                                                         \
  do {                                                                                   \
    const char *const args_[] = {__VA_ARGS__};                                           \
    int rc_ = parse(&o, &help, err, args_, (int)(sizeof args_ / sizeof args_[0]));       \
    CHECK_MSG(rc_ != 0, "accepted: %s", #__VA_ARGS__);                                   \
    CHECK_MSG(strstr(err, option) != NULL, "message does not name %s: %s", option, err); \
    CHECK_MSG(strchr(err, '\n') == NULL, "message is not one line: %s", err);            \
  } while (0)

static void test_parsing(void) {
  tg_ladder_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;

  /* Defaults: 4096³, every rung (f32 then bf16), automatic timing, a table. */
  CHECK(parse(&o, &help, err, NULL, 0) == 0);
  CHECK(o.m == 4096 && o.n == 4096 && o.k == 4096 && o.all_types);
  tg_dtype parts[TG_LADDER_MAX_PARTS];
  CHECK(tg_ladder_parts(&o, parts, TG_LADDER_MAX_PARTS) == 2 && parts[0] == TG_F32 &&
        parts[1] == TG_BF16);
  CHECK(tg_ladder_parts(&o, parts, 1) == 1 && parts[0] == TG_F32);
  CHECK(o.iterations == 0 && o.warmup == -1 && !o.csv && !o.cold_l2 && o.seed == 1 && !help);

  PARSE_OK("--mnk", "256,128,64", "--dtype", "bf16", "--csv", "--iterations", "3", "--warmup", "1");
  CHECK(o.m == 256 && o.n == 128 && o.k == 64 && o.dtype == TG_BF16 && !o.all_types && o.csv);
  CHECK(tg_ladder_parts(&o, parts, TG_LADDER_MAX_PARTS) == 1 && parts[0] == TG_BF16);
  CHECK(o.iterations == 3 && o.warmup == 1);
  PARSE_OK("--mnk=5,6,7", "--dtype=f16", "--warmup=0", "--seed=9", "--cold-l2");
  CHECK(o.m == 5 && o.n == 6 && o.k == 7 && o.dtype == TG_F16 && o.warmup == 0 && o.seed == 9 &&
        o.cold_l2);
  CHECK(o.iterations == 0);
  PARSE_OK("--dtype", "FP32");
  CHECK(o.dtype == TG_F32 && !o.all_types);
  PARSE_OK("--dtype", "f16", "--dtype", "all");
  CHECK(o.all_types);
  PARSE_OK("--help");
  CHECK(help == 1);

  PARSE_FAILS("--mnk", "--mnk", "1,2");
  PARSE_FAILS("--mnk", "--mnk", "1,2,3,4");
  PARSE_FAILS("--mnk", "--mnk", "0,2,3");
  PARSE_FAILS("--mnk", "--mnk", "4,x,3");
  PARSE_FAILS("--mnk", "--mnk");
  PARSE_FAILS("--dtype", "--dtype", "e4m3");
  PARSE_FAILS("--dtype", "--dtype", "s8");
  PARSE_FAILS("--dtype", "--dtype", "nonsense");
  PARSE_FAILS("--iterations", "--iterations", "0");
  PARSE_FAILS("--iterations", "--iterations", "-3");
  PARSE_FAILS("--iterations", "--iterations", "2x");
  PARSE_FAILS("--warmup", "--warmup", "-1");
  PARSE_FAILS("--warmup", "--warmup");
  PARSE_FAILS("--seed", "--seed", "-1");
  PARSE_FAILS("--csv", "--csv=1");
  PARSE_FAILS("--bogus", "--bogus");
  PARSE_FAILS("--kernel", "--kernel", "ref");
}

static void test_requests(void) {
  tg_ladder_options o;
  char err[TG_CLI_ERROR_BYTES];
  int help = 0;
  tg_gemm g;
  PARSE_OK("--mnk", "300,200,100", "--dtype", "f32");
  tg_ladder_request(&o, &g);
  CHECK(g.m == 300 && g.n == 200 && g.k == 100 && g.batch == 1);
  CHECK(g.a_type == TG_F32 && g.b_type == TG_F32 && g.c_type == TG_F32 && g.d_type == TG_F32);
  CHECK(g.a_order == TG_ROW_MAJOR && g.b_order == TG_ROW_MAJOR && g.c_order == TG_ROW_MAJOR);
  CHECK(g.compute == TG_COMPUTE_F32 && g.alpha == 1.0 && g.beta == 0.0 && g.kernel == NULL);
  PARSE_OK("--dtype", "bf16");
  tg_ladder_request(&o, &g);
  CHECK(g.a_type == TG_BF16 && g.b_type == TG_BF16 && g.d_type == TG_BF16);
  CHECK(g.a_order == TG_ROW_MAJOR && g.b_order == TG_COL_MAJOR && g.c_order == TG_ROW_MAJOR);
}

/* The rungs the ladder runs, in order, must be exactly the registered rungs that take the
 * request. */
static void test_selection(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, 90, 132) == TG_OK);
  const tg_dtype types[] = {TG_F32, TG_BF16, TG_F16};
  for (int t = 0; t < 3; ++t) {
    tg_ladder_options o;
    memset(&o, 0, sizeof o);
    o.m = o.n = o.k = 4096;
    o.dtype = types[t];
    tg_gemm g;
    tg_ladder_request(&o, &g);
    int idx[TG_LADDER_MAX_RUNGS], skipped = -1;
    const int n = tg_ladder_select(h, &g, idx, TG_LADDER_MAX_RUNGS, &skipped);
    int rungs_registered = 0;
    for (int i = 0; i < tg_kernel_count(); ++i) {
      tg_kernel_info k;
      tg_kernel_get(i, &k);
      rungs_registered += k.rung != 0;
    }
    CHECK(n + skipped == rungs_registered);
    int prev = 0, seen[13] = {0};
    for (int i = 0; i < n; ++i) {
      tg_kernel_info k;
      CHECK(tg_kernel_get(idx[i], &k) == TG_OK);
      CHECK_MSG(k.rung >= prev, "rungs out of order: %d after %d", k.rung, prev);
      prev = k.rung;
      if (k.rung <= 12) seen[k.rung] = 1;
      if (types[t] == TG_F32) CHECK_MSG(k.rung <= 8 || k.rung >= 13, "f32 ladder shows %s", k.name);
      else CHECK_MSG(k.rung >= 9, "%s ladder shows %s", tg_dtype_name(types[t]), k.name);
    }
    for (int r = 1; r <= 12; ++r)
      CHECK_MSG(seen[r] == (types[t] == TG_F32 ? r <= 8 : r >= 9), "%s ladder: rung %d %s",
                tg_dtype_name(types[t]), r, seen[r] ? "shown" : "missing");
  }
  /* A list that is full stops growing and counts the rest as skipped. */
  tg_ladder_options o;
  memset(&o, 0, sizeof o);
  o.m = o.n = o.k = 64;
  o.dtype = TG_F32;
  tg_gemm g;
  tg_ladder_request(&o, &g);
  int idx[2], skipped = 0;
  CHECK(tg_ladder_select(h, &g, idx, 2, &skipped) == 2);
  tg_kernel_info k0, k1;
  tg_kernel_get(idx[0], &k0);
  tg_kernel_get(idx[1], &k1);
  CHECK(k0.rung <= k1.rung && skipped >= 6);
  tg_destroy(h);
}

int main(void) {
  test_parsing();
  test_requests();
  test_selection();
  return tg_test_finish("test_ladder_options");
}
