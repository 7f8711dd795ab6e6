/* run_options.c — parsing of `tilegemm tune` and `tilegemm sweep` (see run_options.h). */
#define _POSIX_C_SOURCE 200809L
#include "run_options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPTION_NAME_BYTES 32
/* Largest --check-max: its cube must fit a double exactly enough, and no GPU holds more. */
#define CHECK_MAX_LIMIT (1LL << 20)

/* A bench option a command hands on to tg_parse_bench. */
typedef struct forwarded {
  const char *name;
  int takes_value;
} forwarded;

static const forwarded k_tune_forwarded[] = {
    {"--ab-dtype", 1},   {"--a-dtype", 1},    {"--b-dtype", 1}, {"--c-dtype", 1},
    {"--d-dtype", 1},    {"--acc-dtype", 1},  {"--a-major", 1}, {"--b-major", 1},
    {"--c-major", 1},    {"--lda", 1},        {"--ldb", 1},     {"--ldc", 1},
    {"--ldd", 1},        {"--alpha", 1},      {"--beta", 1},    {"--epilogue", 1},
    {"--bias-dtype", 1}, {"--scale", 1},      {"--warmup", 1},  {"--iterations", 1},
    {"--seed", 1},       {"--fast-accum", 0}, {NULL, 0}};

static const forwarded k_sweep_forwarded[] = {
    {"--a-major", 1},  {"--b-major", 1}, {"--c-major", 1}, {"--alpha", 1},      {"--beta", 1},
    {"--epilogue", 1}, {"--kernel", 1},  {"--warmup", 1},  {"--iterations", 1}, {"--seed", 1},
    {"--scale", 1},    {"--cold-l2", 0}, {"--exact", 0},   {"--fast-accum", 0}, {NULL, 0}};

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

/* The option's name without "=value". */
static void option_name(const char *arg, char *name) {
  snprintf(name, OPTION_NAME_BYTES, "%.*s", (int)strcspn(arg, "="), arg);
}

/* Copies argv[*i] (and its separate value) into fwd when it is a forwarded option. 1 if it
 * was, 0 if not. */
static int forward(const forwarded *list, int argc, char **argv, int *i, char **fwd, int *nfwd) {
  char name[OPTION_NAME_BYTES];
  option_name(argv[*i], name);
  for (const forwarded *f = list; f->name; ++f) {
    if (strcmp(name, f->name) != 0) continue;
    fwd[(*nfwd)++] = argv[*i];
    if (f->takes_value && !strchr(argv[*i], '=') && *i + 1 < argc) fwd[(*nfwd)++] = argv[++*i];
    return 1;
  }
  return 0;
}

/* bench's parser on the forwarded options. */
static int parse_forwarded(char **argv, char **fwd, int nfwd, tg_bench_options *base, char *err,
                           size_t n) {
  int help = 0;
  fwd[0] = argv[0];
  fwd[1] = argv[1];
  return tg_parse_bench(nfwd, fwd, 2, base, &help, err, n);
}

static int add_shapes(tg_shape_list *l, const char *opt, const char *v, char *err, size_t n) {
  char why[TG_CLI_ERROR_BYTES];
  const int is_file = strcmp(opt, "--shapes") == 0;
  const int rc = is_file ? tg_shape_list_add_file(l, v, why, sizeof why)
                         : tg_shape_list_add_mnkl(l, v, why, sizeof why);
  return rc ? fail(err, n, "option %s: %s", opt, why) : 0;
}

void tg_tune_cli_free(tg_tune_cli *o) { tg_shape_list_free(&o->shapes); }
void tg_sweep_cli_free(tg_sweep_cli *o) { tg_shape_list_free(&o->shapes); }

/* The options tune and sweep share: --help/-h and --mnkl/--shapes. Returns 1 when argv[*i] was
 * one of them (*rc set to 0 or the parse failure), 0 when it is another option. */
static int parse_shared(int argc, char **argv, int *i, const char *opt, tg_shape_list *shapes,
                        int *wants_help, int *rc, char *err, size_t n) {
  const char *v = NULL;
  int r;
  if ((r = tg_cli_match("--help", 0, argc, argv, i, &v)) != 0 ||
      (r = tg_cli_match("-h", 0, argc, argv, i, &v)) != 0) {
    if (r < 0) *rc = fail(err, n, "option %s: takes no value", opt);
    *wants_help = 1;
    return 1;
  }
  if ((r = tg_cli_match("--mnkl", 1, argc, argv, i, &v)) != 0 ||
      (r = tg_cli_match("--shapes", 1, argc, argv, i, &v)) != 0) {
    *rc =
        r < 0 ? fail(err, n, "option %s: missing value", opt) : add_shapes(shapes, opt, v, err, n);
    return 1;
  }
  return 0;
}

int tg_parse_tune(int argc, char **argv, int first, tg_tune_cli *o, int *wants_help, char *err,
                  size_t n) {
  memset(o, 0, sizeof *o);
  o->flush_l2 = 1;
  o->save = 1;
  *wants_help = 0;
  char **fwd = (char **)calloc((size_t)argc + 2, sizeof *fwd);
  int nfwd = 2;
  if (!fwd) return fail(err, n, "out of host memory");
  int rc = 0;
  for (int i = first; i < argc && rc == 0; ++i) {
    const char *v = NULL;
    char opt[OPTION_NAME_BYTES];
    option_name(argv[i], opt);
    int r;
    if (parse_shared(argc, argv, &i, opt, &o->shapes, wants_help, &rc, err, n)) {
    } else if ((r = tg_cli_match("--cache", 1, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--csv", 1, argc, argv, &i, &v)) != 0) {
      if (r < 0 || !*v) rc = fail(err, n, "option %s: missing file name", opt);
      else if (strcmp(opt, "--cache") == 0) o->cache_path = v;
      else o->csv_path = v;
    } else if ((r = tg_cli_match("--cold-l2", 0, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--warm-l2", 0, argc, argv, &i, &v)) != 0 ||
               (r = tg_cli_match("--no-save", 0, argc, argv, &i, &v)) != 0) {
      if (r < 0) rc = fail(err, n, "option %s: takes no value", opt);
      else if (strcmp(opt, "--no-save") == 0) o->save = 0;
      else o->flush_l2 = strcmp(opt, "--cold-l2") == 0;
    } else if (!forward(k_tune_forwarded, argc, argv, &i, fwd, &nfwd)) {
      rc = fail(err, n, "unknown option '%s' (see tilegemm tune --help)", opt);
    }
  }
  if (rc == 0) rc = parse_forwarded(argv, fwd, nfwd, &o->base, err, n);
  free(fwd);
  if (rc == 0 && !*wants_help && o->shapes.count == 0)
    rc = fail(err, n,
              "no shapes: give --mnkl M,N,K[,L] or --shapes FILE (see tilegemm tune --help)");
  return rc;
}

static int parse_types(tg_sweep_cli *o, const char *v, char *err, size_t n) {
  char buf[TG_CLI_ERROR_BYTES];
  if (strlen(v) >= sizeof buf || !*v)
    return fail(err, n, "option --dtype: expected a list of types, got '%s'", v);
  strcpy(buf, v);
  char *save = NULL;
  for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
    if (o->type_count == TG_SWEEP_MAX_TYPES)
      return fail(err, n, "option --dtype: more than %d types", TG_SWEEP_MAX_TYPES);
    if (tg_parse_type_choice(t, &o->types[o->type_count]) != 0)
      return fail(err, n,
                  "option --dtype: unknown type '%s' (f32 tf32 3xtf32 f16 bf16 e4m3 e5m2 s8)", t);
    ++o->type_count;
  }
  return 0;
}

int tg_parse_sweep(int argc, char **argv, int first, tg_sweep_cli *o, int *wants_help, char *err,
                   size_t n) {
  memset(o, 0, sizeof *o);
  o->check_max = TG_SWEEP_DEFAULT_CHECK_MAX;
  *wants_help = 0;
  char **fwd = (char **)calloc((size_t)argc + 2, sizeof *fwd);
  int nfwd = 2;
  if (!fwd) return fail(err, n, "out of host memory");
  int rc = 0;
  for (int i = first; i < argc && rc == 0; ++i) {
    const char *v = NULL;
    char opt[OPTION_NAME_BYTES];
    option_name(argv[i], opt);
    int r;
    if (parse_shared(argc, argv, &i, opt, &o->shapes, wants_help, &rc, err, n)) {
    } else if ((r = tg_cli_match("--dtype", 1, argc, argv, &i, &v)) != 0) {
      rc = r < 0 ? fail(err, n, "option --dtype: missing value") : parse_types(o, v, err, n);
    } else if ((r = tg_cli_match("--out", 1, argc, argv, &i, &v)) != 0) {
      if (r < 0 || !*v) rc = fail(err, n, "option --out: missing file name");
      else o->out_path = v;
    } else if ((r = tg_cli_match("--check-max", 1, argc, argv, &i, &v)) != 0) {
      char *end;
      errno = 0;
      const long long x = r < 0 ? 0 : strtoll(v, &end, 10);
      if (r < 0) rc = fail(err, n, "option --check-max: missing value");
      else if (errno || end == v || *end || x < 0 || x > CHECK_MAX_LIMIT)
        rc = fail(err, n, "option --check-max: expected an integer in [0, %lld], got '%s'",
                  CHECK_MAX_LIMIT, v);
      else o->check_max = x;
    } else if (!forward(k_sweep_forwarded, argc, argv, &i, fwd, &nfwd)) {
      rc = fail(err, n, "unknown option '%s' (see tilegemm sweep --help)", opt);
    }
  }
  if (rc == 0) rc = parse_forwarded(argv, fwd, nfwd, &o->base, err, n);
  free(fwd);
  if (rc == 0 && o->type_count == 0) {
    o->types[0].ab = TG_BF16;
    o->type_count = 1;
  }
  if (rc == 0 && !*wants_help && o->shapes.count == 0)
    rc = fail(err, n,
              "no shapes: give --shapes FILE or --mnkl M,N,K[,L] (see tilegemm sweep --help)");
  return rc;
}

void tg_shape_request(const tg_gemm *base, const tg_shape *s, const tg_type_choice *type,
                      tg_gemm *g) {
  *g = *base;
  g->m = s->m;
  g->n = s->n;
  g->k = s->k;
  g->batch = s->batch;
  if (type) tg_type_choice_apply(*type, g);
  else if (s->has_type) tg_type_choice_apply(s->type, g);
}
