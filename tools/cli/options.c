/*
 * options.c — parsing of `tilegemm bench` options. Both "--opt value" and "--opt=value" work.
 * Majors follow the CuTe DSL example: A is M×K (k-major = row-major), B is K×N (n-major =
 * row-major, k-major = column-major, i.e. the N×K "B^T" layout), C/D are M×N (n-major =
 * row-major).
 */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* The --X-major letters of A, B and C/D: row-major, then column-major. */
static const struct {
  char operand, row, col;
} k_major_letters[] = {{'a', 'k', 'm'}, {'b', 'n', 'k'}, {'c', 'n', 'm'}};

char tg_major_letter(char operand, tg_order order) {
  for (size_t i = 0; i < sizeof k_major_letters / sizeof k_major_letters[0]; ++i)
    if (k_major_letters[i].operand == operand)
      return order == TG_ROW_MAJOR ? k_major_letters[i].row : k_major_letters[i].col;
  return '?';
}

int tg_parse_major(char operand, const char *s, tg_order *out) {
  if (!s[0] || s[1]) return -1;
  if (s[0] == tg_major_letter(operand, TG_ROW_MAJOR)) *out = TG_ROW_MAJOR;
  else if (s[0] == tg_major_letter(operand, TG_COL_MAJOR)) *out = TG_COL_MAJOR;
  else return -1;
  return 0;
}

int tg_parse_dtype(const char *s, tg_dtype *out) {
  static const struct {
    const char *name;
    tg_dtype t;
  } names[] = {
      {"f32", TG_F32},           {"fp32", TG_F32},         {"float32", TG_F32},
      {"f16", TG_F16},           {"fp16", TG_F16},         {"float16", TG_F16},
      {"half", TG_F16},          {"bf16", TG_BF16},        {"bfloat16", TG_BF16},
      {"e4m3", TG_E4M3},         {"float8_e4m3", TG_E4M3}, {"fp8_e4m3", TG_E4M3},
      {"float8e4m3fn", TG_E4M3}, {"e5m2", TG_E5M2},        {"float8_e5m2", TG_E5M2},
      {"fp8_e5m2", TG_E5M2},     {"float8e5m2", TG_E5M2},  {"s8", TG_S8},
      {"int8", TG_S8},           {"s32", TG_S32},          {"int32", TG_S32},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strcasecmp(s, names[i].name) == 0) {
      *out = names[i].t;
      return 0;
    }
  return -1;
}

int tg_parse_epilogue(const char *s, tg_epilogue *out) {
  for (int i = TG_EPI_NONE; i <= TG_EPI_BIAS_GELU; ++i) {
    const char *name = tg_epilogue_name((tg_epilogue)i);
    char alt[16];
    snprintf(alt, sizeof alt, "%s", name);
    for (char *c = alt; *c; ++c)
      if (*c == '-') *c = '_';
    if (strcasecmp(s, name) == 0 || strcasecmp(s, alt) == 0) {
      *out = (tg_epilogue)i;
      return 0;
    }
  }
  return -1;
}

/* --scale's names, indexed by tg_scale_mode. */
static const char *const k_scale_mode_names[] = {"none", "tensor", "rowcol", "block"};
#define SCALE_MODE_COUNT (sizeof k_scale_mode_names / sizeof k_scale_mode_names[0])
_Static_assert(SCALE_MODE_COUNT == TG_SCALE_BLOCK + 1, "a name for every tg_scale_mode");

const char *tg_scale_mode_name(tg_scale_mode m) {
  return (unsigned)m < SCALE_MODE_COUNT ? k_scale_mode_names[m] : "?";
}

int tg_parse_scale_mode(const char *s, tg_scale_mode *out) {
  for (size_t i = 0; i < SCALE_MODE_COUNT; ++i)
    if (strcasecmp(s, k_scale_mode_names[i]) == 0) {
      *out = (tg_scale_mode)i;
      return 0;
    }
  return -1;
}

static int parse_int64(const char *s, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end) return -1;
  *out = v;
  return 0;
}

int tg_parse_int64_list(const char *s, int64_t *vals, int min_count, int max_count, int *count) {
  char buf[256];
  if (strlen(s) >= sizeof buf) return -1;
  strcpy(buf, s);
  int n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n == max_count || parse_int64(tok, &vals[n]) != 0 || vals[n] < 0) return -1;
    ++n;
  }
  /* strtok_r skips empty fields: "1,,2" must not pass as "1,2". */
  for (const char *c = s; *c; ++c)
    if (*c == ',' && (c == s || c[1] == ',' || c[1] == '\0')) return -1;
  if (n < min_count) return -1;
  *count = n;
  return 0;
}

static int parse_double(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || *end || !isfinite(v)) return -1;
  *out = v;
  return 0;
}

/* Matches "--name" or "--name=value"; for options with a value, *val is set (from the '=' part
 * or the next argument). Returns 1 on a match, 0 if not this option, -1 if the value is missing. */
int tg_cli_match(const char *name, int takes_value, int argc, char **argv, int *i,
                 const char **val) {
  const char *a = argv[*i];
  size_t len = strlen(name);
  if (strncmp(a, name, len) != 0) return 0;
  if (a[len] == '=') {
    if (!takes_value) return -1;
    *val = a + len + 1;
    return 1;
  }
  if (a[len] != '\0') return 0;
  if (!takes_value) return 1;
  if (*i + 1 >= argc) return -1;
  *val = argv[++*i];
  return 1;
}

static void set_defaults(tg_bench_options *o) {
  memset(o, 0, sizeof *o);
  tg_gemm_init(&o->g, 1024, 1024, 1024, TG_BF16, TG_BF16);
  o->g.b_order = TG_COL_MAJOR; /* b-major k: the N×K layout of C = A·B^T */
  o->warmup = TG_CLI_DEFAULT_WARMUP;
  o->iterations = TG_CLI_DEFAULT_ITERATIONS;
  o->seed = 1;
}

int tg_parse_bench(int argc, char **argv, int first, tg_bench_options *o, int *wants_help,
                   char *err, size_t n) {
  set_defaults(o);
  *wants_help = 0;
  int have_acc = 0, have_c = 0, have_d = 0, have_bias_type = 0;
  tg_dtype c_type = TG_BF16, d_type = TG_BF16;
  for (int i = first; i < argc; ++i) {
    const char *v = NULL;
    char opt[32]; /* the option's name, without any "=value" */
    snprintf(opt, sizeof opt, "%.*s", (int)strcspn(argv[i], "="), argv[i]);
    int r;
#define OPT(name, takes) ((r = tg_cli_match(name, takes, argc, argv, &i, &v)) != 0)
#define MISSING() \
  if (r < 0) return fail(err, n, "option %s: missing value", opt)
#define NO_VALUE() \
  if (r < 0) return fail(err, n, "option %s: takes no value", opt)
    if (OPT("--help", 0) || OPT("-h", 0)) {
      NO_VALUE();
      *wants_help = 1;
    } else if (OPT("--mnkl", 1)) {
      MISSING();
      int64_t x[4] = {0, 0, 0, 1};
      int cnt;
      if (tg_parse_int64_list(v, x, 3, 4, &cnt) != 0)
        return fail(err, n, "option --mnkl: expected M,N,K[,L] (non-negative integers), got '%s'",
                    v);
      o->g.m = x[0], o->g.n = x[1], o->g.k = x[2], o->g.batch = cnt == 4 ? x[3] : 1;
    } else if (OPT("--ab-dtype", 1) || OPT("--a-dtype", 1) || OPT("--b-dtype", 1)) {
      MISSING();
      tg_dtype t;
      if (tg_parse_dtype(v, &t) != 0)
        return fail(err, n, "option %s: unknown dtype '%s' (f32 f16 bf16 e4m3 e5m2 s8)", opt, v);
      if (strncmp(opt, "--b-", 4) != 0) o->g.a_type = t;
      if (strncmp(opt, "--a-", 4) != 0) o->g.b_type = t;
    } else if (OPT("--c-dtype", 1) || OPT("--d-dtype", 1)) {
      MISSING();
      tg_dtype t;
      if (tg_parse_dtype(v, &t) != 0)
        return fail(err, n, "option %s: unknown dtype '%s' (f32 f16 bf16 s8 s32)", opt, v);
      if (strncmp(opt, "--c-", 4) == 0) c_type = t, have_c = 1;
      else d_type = t, have_d = 1;
    } else if (OPT("--acc-dtype", 1)) {
      MISSING();
      if (strcasecmp(v, "f32") == 0 || strcasecmp(v, "float32") == 0) o->g.compute = TG_COMPUTE_F32;
      else if (strcasecmp(v, "tf32") == 0) o->g.compute = TG_COMPUTE_TF32;
      else if (strcasecmp(v, "3xtf32") == 0) o->g.compute = TG_COMPUTE_3XTF32;
      else if (strcasecmp(v, "s32") == 0 || strcasecmp(v, "int32") == 0)
        o->g.compute = TG_COMPUTE_S32;
      else return fail(err, n, "option --acc-dtype: unknown value '%s' (f32 tf32 3xtf32 s32)", v);
      have_acc = 1;
    } else if (OPT("--a-major", 1) || OPT("--b-major", 1) || OPT("--c-major", 1)) {
      MISSING();
      const char operand = opt[2];
      tg_order *order = operand == 'a'   ? &o->g.a_order
                        : operand == 'b' ? &o->g.b_order
                                         : &o->g.c_order;
      if (tg_parse_major(operand, v, order) != 0)
        return fail(err, n, "option %s: expected %c or %c, got '%s'", opt,
                    tg_major_letter(operand, TG_ROW_MAJOR), tg_major_letter(operand, TG_COL_MAJOR),
                    v);
    } else if (OPT("--lda", 1) || OPT("--ldb", 1) || OPT("--ldc", 1) || OPT("--ldd", 1)) {
      MISSING();
      int64_t x;
      if (parse_int64(v, &x) != 0 || x < 0)
        return fail(err, n, "option %s: expected a non-negative integer, got '%s'", opt, v);
      int64_t *dst[] = {&o->g.lda, &o->g.ldb, &o->g.ldc, &o->g.ldd};
      *dst[opt[4] - 'a'] = x;
    } else if (OPT("--alpha", 1) || OPT("--beta", 1)) {
      MISSING();
      double x;
      if (parse_double(v, &x) != 0)
        return fail(err, n, "option %s: expected a finite number, got '%s'", opt, v);
      if (opt[2] == 'a') o->g.alpha = x;
      else o->g.beta = x;
    } else if (OPT("--epilogue", 1)) {
      MISSING();
      if (tg_parse_epilogue(v, &o->g.epilogue) != 0)
        return fail(
            err, n,
            "option --epilogue: unknown value '%s' (none bias relu gelu bias-relu bias-gelu)", v);
    } else if (OPT("--bias-dtype", 1)) {
      MISSING();
      if (tg_parse_dtype(v, &o->g.bias_type) != 0)
        return fail(err, n, "option --bias-dtype: unknown dtype '%s' (f32 f16 bf16)", v);
      have_bias_type = 1;
    } else if (OPT("--scale", 1)) {
      MISSING();
      if (tg_parse_scale_mode(v, &o->g.scale_mode) != 0)
        return fail(err, n, "option --scale: unknown value '%s' (none tensor rowcol block)", v);
    } else if (OPT("--fast-accum", 0)) {
      NO_VALUE();
      o->g.fp8_fast_accum = 1;
    } else if (OPT("--kernel", 1)) {
      MISSING();
      o->g.kernel = strcmp(v, "auto") == 0 ? NULL : v;
    } else if (OPT("--warmup", 1) || OPT("--iterations", 1) || OPT("--seed", 1)) {
      MISSING();
      int64_t x;
      int64_t min = opt[2] == 'i' ? 1 : 0;
      if (parse_int64(v, &x) != 0 || x < min || (opt[2] != 's' && x > 1000000))
        return fail(err, n, "option %s: expected an integer >= %lld, got '%s'", opt, (long long)min,
                    v);
      if (opt[2] == 'w') o->warmup = (int)x;
      else if (opt[2] == 'i') o->iterations = (int)x;
      else o->seed = (uint64_t)x;
    } else if (OPT("--cold-l2", 0)) {
      NO_VALUE();
      o->cold_l2 = 1;
    } else if (OPT("--skip-ref-check", 0)) {
      NO_VALUE();
      o->skip_ref_check = 1;
    } else if (OPT("--vs-cublas", 0)) {
      NO_VALUE();
      o->vs_cublas = 1;
    } else if (OPT("--csv", 0)) {
      NO_VALUE();
      o->csv = 1;
    } else if (OPT("--exact", 0)) {
      NO_VALUE();
      o->exact = 1;
    } else {
      return fail(err, n, "unknown option '%s' (see tilegemm bench --help)", opt);
    }
#undef OPT
#undef MISSING
#undef NO_VALUE
  }
  /* Defaults that follow from the inputs: integer inputs accumulate and write int32. */
  int int_inputs = o->g.a_type == TG_S8;
  if (!have_acc) o->g.compute = int_inputs ? TG_COMPUTE_S32 : TG_COMPUTE_F32;
  if (!have_c)
    c_type = int_inputs
                 ? TG_S32
                 : (o->g.a_type == TG_E4M3 || o->g.a_type == TG_E5M2 ? TG_BF16 : o->g.a_type);
  if (!have_d) d_type = c_type;
  o->g.c_type = c_type;
  o->g.d_type = d_type;
  if (!have_bias_type) o->g.bias_type = (d_type == TG_S32 || d_type == TG_S8) ? TG_F32 : d_type;
  return 0;
}

int tg_parse_bench_plus(int argc, char **argv, tg_cli_own_option *own, int own_count,
                        tg_bench_options *o, int *wants_help, char *err, size_t err_len) {
  char **rest = (char **)calloc((size_t)argc + 1, sizeof *rest);
  if (!rest) return fail(err, err_len, "out of host memory");
  int n = 0;
  for (int i = 0; i < argc; ++i) {
    int r = 0, k = 0;
    for (; i >= 2 && k < own_count && r == 0; ++k)
      r = tg_cli_match(own[k].name, own[k].takes_value, argc, argv, &i, &own[k].value);
    if (r < 0) {
      free(rest);
      return fail(err, err_len, "option %s: %s", own[k - 1].name,
                  own[k - 1].takes_value ? "missing value" : "takes no value");
    }
    if (r > 0) own[k - 1].seen = 1;
    else rest[n++] = argv[i];
  }
  const int parsed = tg_parse_bench(n, rest, 2, o, wants_help, err, err_len);
  free(rest);
  return parsed;
}
