/* shape_list.c — shapes from --mnkl ranges and shape files (see shape_list.h). */
#define _POSIX_C_SOURCE 200809L
#include "shape_list.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options.h"

#define FIELD_COUNT_MIN 3
#define FIELD_COUNT_MAX 4
/* Longest --mnkl value and shape-file line. */
#define SPEC_BYTES 256
#define LINE_BYTES 512
/* Largest shape file read. */
#define FILE_BYTES_MAX (16 << 20)
#define FIRST_CAPACITY 64
/* Largest size or step accepted (far beyond any GPU's memory), and geometric factor: with
 * these, stepping past the end of a range cannot overflow int64. */
#define SIZE_MAX_ACCEPTED (1LL << 40)
#define FACTOR_MAX 1024

static int fail(char *err, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, n, fmt, ap);
  va_end(ap);
  return -1;
}

int tg_parse_type_choice(const char *s, tg_type_choice *out) {
  memset(out, 0, sizeof *out);
  if (strcasecmp(s, "tf32") == 0 || strcasecmp(s, "3xtf32") == 0) {
    out->ab = TG_F32;
    out->tensor_f32 = strcasecmp(s, "tf32") == 0 ? TG_COMPUTE_TF32 : TG_COMPUTE_3XTF32;
    return 0;
  }
  if (tg_parse_dtype(s, &out->ab) != 0 || out->ab == TG_S32) return -1;
  return 0;
}

const char *tg_type_choice_name(tg_type_choice t) {
  return t.tensor_f32 != TG_COMPUTE_F32 ? tg_compute_name(t.tensor_f32) : tg_dtype_name(t.ab);
}

void tg_type_choice_apply(tg_type_choice t, tg_gemm *g) {
  const int fp8 = t.ab == TG_E4M3 || t.ab == TG_E5M2;
  g->a_type = g->b_type = t.ab;
  g->compute = t.ab == TG_S8 ? TG_COMPUTE_S32 : t.tensor_f32;
  g->c_type = g->d_type = t.ab == TG_S8 ? TG_S32 : fp8 ? TG_BF16 : t.ab;
  g->bias_type = t.ab == TG_S8 ? TG_F32 : g->d_type;
  if (!fp8) { /* scales and fast accumulation are fp8's: other types of a run go without */
    g->scale_mode = TG_SCALE_NONE;
    g->fp8_fast_accum = 0;
  }
}

void tg_shape_list_free(tg_shape_list *l) {
  free(l->items);
  memset(l, 0, sizeof *l);
}

static int push(tg_shape_list *l, const tg_shape *s) {
  if (l->count == TG_SHAPES_MAX) return -1;
  if (l->count == l->capacity) {
    int cap = l->capacity ? 2 * l->capacity : FIRST_CAPACITY;
    tg_shape *grown = (tg_shape *)realloc(l->items, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    l->items = grown;
    l->capacity = cap;
  }
  l->items[l->count++] = *s;
  return 0;
}

static int parse_positive(const char *s, int64_t *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < 1 || v > SIZE_MAX_ACCEPTED) return -1;
  *out = v;
  return 0;
}

/* One field: value, start:stop:step or start:stop:xF. Fills *start, *stop, *step, *factor
 * (step 0 for a geometric range). */
typedef struct range {
  int64_t start, stop, step, factor;
} range;

static int parse_range(char *field, range *r) {
  char *parts[3];
  int n = 0;
  for (char *c = field, *tok = field;; ++c) {
    if (*c != ':' && *c != '\0') continue;
    if (n == 3) return -1;
    parts[n++] = tok;
    const int end = *c == '\0';
    *c = '\0';
    tok = c + 1;
    if (end) break;
  }
  r->step = 1;
  r->factor = 0;
  if (n == 1) {
    if (parse_positive(parts[0], &r->start)) return -1;
    r->stop = r->start;
    return 0;
  }
  if (n != 3 || parse_positive(parts[0], &r->start) || parse_positive(parts[1], &r->stop) ||
      r->stop < r->start)
    return -1;
  if (parts[2][0] == 'x') {
    r->step = 0;
    return parse_positive(parts[2] + 1, &r->factor) || r->factor < 2 || r->factor > FACTOR_MAX ? -1
                                                                                               : 0;
  }
  return parse_positive(parts[2], &r->step);
}

static int64_t range_next(const range *r, int64_t v) {
  return r->step ? v + r->step : v * r->factor;
}

int tg_shape_list_add_mnkl(tg_shape_list *l, const char *spec, char *err, size_t n) {
  char buf[SPEC_BYTES];
  range f[FIELD_COUNT_MAX];
  int count = 0;
  if (strlen(spec) >= sizeof buf)
    return fail(err, n, "value longer than %d characters", SPEC_BYTES - 1);
  strcpy(buf, spec);
  for (char *c = buf, *tok = buf;; ++c) {
    if (*c != ',' && *c != '\0') continue;
    const int end = *c == '\0';
    *c = '\0';
    if (count == FIELD_COUNT_MAX || parse_range(tok, &f[count]) != 0)
      return fail(err, n,
                  "expected M,N,K[,L], each a value >= 1 or a range start:stop:step or "
                  "start:stop:xFACTOR, got '%s'",
                  spec);
    ++count;
    tok = c + 1;
    if (end) break;
  }
  if (count < FIELD_COUNT_MIN)
    return fail(err, n, "expected M,N,K[,L] (3 or 4 fields), got '%s'", spec);
  if (count == FIELD_COUNT_MIN) f[3] = (range){1, 1, 1, 0};
  tg_shape s;
  memset(&s, 0, sizeof s);
  snprintf(s.label, sizeof s.label, "mnkl");
  for (s.m = f[0].start; s.m <= f[0].stop; s.m = range_next(&f[0], s.m))
    for (s.n = f[1].start; s.n <= f[1].stop; s.n = range_next(&f[1], s.n))
      for (s.k = f[2].start; s.k <= f[2].stop; s.k = range_next(&f[2], s.k))
        for (s.batch = f[3].start; s.batch <= f[3].stop; s.batch = range_next(&f[3], s.batch))
          if (push(l, &s) != 0)
            return fail(err, n, "'%s' makes more than %d shapes in all", spec, TG_SHAPES_MAX);
  return 0;
}

/* One line of a shape file, comment removed: "M N K [L] [type]" or nothing. */
static int parse_line(char *line, tg_shape *s, int *empty) {
  char *tok[FIELD_COUNT_MAX + 2];
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t\r", &save); t; t = strtok_r(NULL, " \t\r", &save)) {
    if (n == FIELD_COUNT_MAX + 1) return -1;
    tok[n++] = t;
  }
  *empty = n == 0;
  if (n == 0) return 0;
  if (n < FIELD_COUNT_MIN || parse_positive(tok[0], &s->m) || parse_positive(tok[1], &s->n) ||
      parse_positive(tok[2], &s->k))
    return -1;
  s->batch = 1;
  int next = FIELD_COUNT_MIN;
  if (next < n && parse_positive(tok[next], &s->batch) == 0) ++next;
  if (next < n) {
    if (tg_parse_type_choice(tok[next], &s->type) != 0) return -1;
    s->has_type = 1;
    ++next;
  }
  return next == n ? 0 : -1;
}

int tg_shape_list_add_text(tg_shape_list *l, const char *text, const char *name, char *err,
                           size_t n) {
  char line[LINE_BYTES];
  int number = 0;
  for (const char *p = text; *p;) {
    const size_t len = strcspn(p, "\n");
    ++number;
    if (len >= sizeof line)
      return fail(err, n, "%s:%d: line longer than %d characters", name, number, LINE_BYTES - 1);
    memcpy(line, p, len);
    line[len] = '\0';
    p += len + (p[len] == '\n');
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char copy[LINE_BYTES];
    strcpy(copy, line);
    tg_shape s;
    memset(&s, 0, sizeof s);
    int empty = 0;
    if (parse_line(line, &s, &empty) != 0) {
      char *c = copy + strspn(copy, " \t");
      for (size_t e = strlen(c); e > 0 && (c[e - 1] == ' ' || c[e - 1] == '\t' || c[e - 1] == '\r');
           --e)
        c[e - 1] = '\0';
      return fail(
          err, n,
          "%s:%d: expected 'M N K [L] [type]' (sizes >= 1; type f32 tf32 3xtf32 f16 bf16 e4m3 "
          "e5m2 s8), got '%s'",
          name, number, c);
    }
    if (empty) continue;
    /* The label: the file's stem. */
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    snprintf(s.label, sizeof s.label, "%.*s", (int)strcspn(base, "."), base);
    if (push(l, &s) != 0)
      return fail(err, n, "%s: more than %d shapes in all", name, TG_SHAPES_MAX);
  }
  return 0;
}

int tg_shape_list_add_file(tg_shape_list *l, const char *path, char *err, size_t n) {
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, n, "cannot read '%s': %s", path, strerror(errno));
  char *text = (char *)malloc(FILE_BYTES_MAX + 1);
  if (!text) {
    fclose(f);
    return fail(err, n, "out of host memory");
  }
  const size_t got = fread(text, 1, FILE_BYTES_MAX + 1, f);
  const int read_error = ferror(f);
  fclose(f);
  int rc;
  if (read_error) rc = fail(err, n, "cannot read '%s'", path);
  else if (got > FILE_BYTES_MAX)
    rc = fail(err, n, "'%s' is larger than %d bytes", path, FILE_BYTES_MAX);
  else {
    text[got] = '\0';
    rc = tg_shape_list_add_text(l, text, path, err, n);
  }
  free(text);
  return rc;
}
