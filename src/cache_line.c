/* cache_line.c — parsing and formatting of one tuning cache line (see cache_line.h). */
#include "cache_line.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest accepted m, n, k or batch: what a kernel can index (registry.c). */
#define TG_CACHE_MAX_DIM (0x7fffffffLL - 0xffffLL)
#define TG_CACHE_MAX_SMS 100000
#define TG_CACHE_MAX_ALIGN 16
/* CUDART_VERSION spelling: 1000 * major + 10 * minor. */
#define TG_CUDA_MAJOR_SCALE 1000
#define TG_CUDA_MINOR_SCALE 10
#define TG_CUDA_MAX_MINOR 99
#define TG_CACHE_KEY_BYTES 16

enum {
  F_DEVICE,
  F_SMS,
  F_CUDA,
  F_IN,
  F_AB,
  F_CD,
  F_A,
  F_B,
  F_ALIGN,
  F_M,
  F_N,
  F_K,
  F_BATCH,
  F_KERNEL,
  F_US,
  F_SCALE, /* the optional fields follow F_REQUIRED */
  F_FAST,
  F_COUNT
};
#define F_REQUIRED F_SCALE
static const char *const k_fields[F_COUNT] = {"device", "sms",    "cuda",  "in",    "ab",  "cd",
                                              "a",      "b",      "align", "m",     "n",   "k",
                                              "batch",  "kernel", "us",    "scale", "fast"};
/* Values of scale=, by tg_scale_mode. */
static const char *const k_scales[] = {"none", "tensor", "rowcol", "block"};
#define TG_CACHE_SCALE_MODES ((int)(sizeof k_scales / sizeof k_scales[0]))

static tg_line_kind bad(char *why, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, n, fmt, ap);
  va_end(ap);
  return TG_LINE_BAD;
}

/* The index of v among the `count` names, or -1. */
static int find_name(const char *const *names, int count, const char *v) {
  for (int i = 0; i < count; ++i)
    if (strcmp(v, names[i]) == 0) return i;
  return -1;
}

static int parse_int(const char *s, long long lo, long long hi, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) return -1;
  *out = v;
  return 0;
}

static int parse_dtype(const char *s, tg_dtype *t) {
  for (int i = 0; i < TG_DTYPE_COUNT; ++i)
    if (strcmp(s, tg_dtype_name((tg_dtype)i)) == 0) {
      *t = (tg_dtype)i;
      return 0;
    }
  return -1;
}

/* "x/y" into two dtypes. */
static int parse_pair(const char *s, tg_dtype *x, tg_dtype *y) {
  char buf[TG_CACHE_KEY_BYTES];
  const char *slash = strchr(s, '/');
  if (!slash || (size_t)(slash - s) >= sizeof buf) return -1;
  memcpy(buf, s, (size_t)(slash - s));
  buf[slash - s] = '\0';
  return parse_dtype(buf, x) || parse_dtype(slash + 1, y) ? -1 : 0;
}

static int parse_order(const char *s, tg_order *o) {
  if (strcmp(s, "row") == 0) *o = TG_ROW_MAJOR;
  else if (strcmp(s, "col") == 0) *o = TG_COL_MAJOR;
  else return -1;
  return 0;
}

static int parse_cuda(const char *s, int *cuda) {
  long long major, minor;
  char buf[TG_CACHE_KEY_BYTES];
  const char *dot = strchr(s, '.');
  if (!dot || (size_t)(dot - s) >= sizeof buf) return -1;
  memcpy(buf, s, (size_t)(dot - s));
  buf[dot - s] = '\0';
  if (parse_int(buf, 1, INT32_MAX / TG_CUDA_MAJOR_SCALE, &major) ||
      parse_int(dot + 1, 0, TG_CUDA_MAX_MINOR, &minor))
    return -1;
  *cuda = (int)(major * TG_CUDA_MAJOR_SCALE + minor * TG_CUDA_MINOR_SCALE);
  return 0;
}

static int kernel_name_ok(const char *s) {
  if (!*s || strlen(s) >= TG_CACHE_KERNEL_BYTES) return 0;
  for (; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_' || *s == '-' || *s == '.'))
      return 0;
  return 1;
}

static int is_fp8(tg_dtype t) { return t == TG_E4M3 || t == TG_E5M2; }
static int is_float_out(tg_dtype t) { return t == TG_F32 || t == TG_F16 || t == TG_BF16; }

/* Do the types belong to the input class? (the API's table of combinations) */
static int types_fit(const tg_cache_key *k) {
  int ab;
  switch (k->input) {
    case TG_IN_F32:
    case TG_IN_TF32:
    case TG_IN_TF32X3: ab = k->a_type == TG_F32 && k->b_type == TG_F32; break;
    case TG_IN_F16: ab = k->a_type == TG_F16 && k->b_type == TG_F16; break;
    case TG_IN_BF16: ab = k->a_type == TG_BF16 && k->b_type == TG_BF16; break;
    case TG_IN_FP8: ab = is_fp8(k->a_type) && is_fp8(k->b_type); break;
    case TG_IN_S8: ab = k->a_type == TG_S8 && k->b_type == TG_S8; break;
    default: return 0;
  }
  if (k->input == TG_IN_S8)
    return ab && (k->c_type == TG_S32 || k->c_type == TG_S8) &&
           (k->d_type == TG_S32 || k->d_type == TG_S8);
  return ab && is_float_out(k->c_type) && is_float_out(k->d_type);
}

/* Stores one field's value; -1 when it is not valid for the field. */
static int set_field(int f, const char *v, tg_cache_entry *e) {
  long long x;
  int64_t *dims[] = {&e->m, &e->n, &e->k, &e->batch};
  switch (f) {
    case F_DEVICE:
      if (!*v || strlen(v) >= sizeof e->device.name) return -1;
      strcpy(e->device.name, v);
      return 0;
    case F_SMS:
      if (parse_int(v, 1, TG_CACHE_MAX_SMS, &x)) return -1;
      e->device.sms = (int)x;
      return 0;
    case F_CUDA: return parse_cuda(v, &e->device.cuda);
    case F_IN:
      for (x = 0; x < TG_IN_COUNT && strcmp(tg_input_name((tg_input_class)x), v) != 0; ++x) {
      }
      if (x == TG_IN_COUNT) return -1;
      e->key.input = (tg_input_class)x;
      return 0;
    case F_AB: return parse_pair(v, &e->key.a_type, &e->key.b_type);
    case F_CD: return parse_pair(v, &e->key.c_type, &e->key.d_type);
    case F_A: return parse_order(v, &e->key.a_order);
    case F_B: return parse_order(v, &e->key.b_order);
    case F_ALIGN:
      if (parse_int(v, 1, TG_CACHE_MAX_ALIGN, &x) || (x & (x - 1))) return -1;
      e->key.align = (int)x;
      return 0;
    case F_M:
    case F_N:
    case F_K:
    case F_BATCH:
      if (parse_int(v, 1, TG_CACHE_MAX_DIM, &x)) return -1;
      *dims[f - F_M] = x;
      return 0;
    case F_KERNEL:
      if (!kernel_name_ok(v)) return -1;
      strcpy(e->kernel, v);
      return 0;
    case F_SCALE:
      if ((x = find_name(k_scales, TG_CACHE_SCALE_MODES, v)) < 0) return -1;
      e->key.scale_mode = (tg_scale_mode)x;
      return 0;
    case F_FAST:
      if (parse_int(v, 0, 1, &x)) return -1;
      e->key.fast_accum = (int)x;
      return 0;
    case F_US: {
      char *end;
      errno = 0;
      e->us = strtod(v, &end);
      return errno || end == v || *end || !isfinite(e->us) || e->us <= 0.0 ? -1 : 0;
    }
  }
  return -1;
}

tg_line_kind tg_cache_line_parse(const char *line, tg_cache_entry *e, char *why, size_t n) {
  memset(e, 0, sizeof *e);
  const char *s = line;
  while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
  if (*s == '\0' || *s == '#') return TG_LINE_COMMENT;
  if (strlen(line) >= TG_CACHE_LINE_BYTES)
    return bad(why, n, "longer than %d characters", TG_CACHE_LINE_BYTES - 1);
  /* The version comes first. */
  size_t len = strcspn(s, " \t\r");
  if (len < 2 || s[0] != 'v' || strspn(s + 1, "0123456789") != len - 1)
    return bad(why, n, "not a cache entry (it should start with %s)", TG_CACHE_FORMAT);
  if (len != strlen(TG_CACHE_FORMAT) || strncmp(s, TG_CACHE_FORMAT, len) != 0)
    return bad(why, n, "format %.*s; this library reads %s", (int)len, s, TG_CACHE_FORMAT);
  s += len;
  int seen[F_COUNT] = {0};
  char key[TG_CACHE_KEY_BYTES], value[TG_CACHE_LINE_BYTES];
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\r') ++s;
    if (*s == '\0') break;
    len = strcspn(s, "= \t\r");
    if (s[len] != '=') return bad(why, n, "'%.*s' is not key=value", (int)strcspn(s, " \t\r"), s);
    if (len == 0 || len >= sizeof key) return bad(why, n, "unknown field '%.*s'", (int)len, s);
    memcpy(key, s, len);
    key[len] = '\0';
    s += len + 1;
    if (*s == '"') {
      const char *close = strchr(s + 1, '"');
      if (!close) return bad(why, n, "field '%s': unterminated quote", key);
      len = (size_t)(close - s - 1);
      memcpy(value, s + 1, len);
      s = close + 1;
    } else {
      len = strcspn(s, " \t\r");
      memcpy(value, s, len);
      s += len;
    }
    value[len] = '\0';
    const int f = find_name(k_fields, F_COUNT, key);
    if (f < 0) return bad(why, n, "unknown field '%s'", key);
    if (seen[f]) return bad(why, n, "field '%s' appears twice", key);
    seen[f] = 1;
    if (set_field(f, value, e) != 0) return bad(why, n, "field '%s': bad value '%s'", key, value);
  }
  for (int f = 0; f < F_REQUIRED; ++f)
    if (!seen[f]) return bad(why, n, "field '%s' is missing (truncated line?)", k_fields[f]);
  if ((seen[F_SCALE] || seen[F_FAST]) && e->key.input != TG_IN_FP8)
    return bad(why, n, "fields 'scale' and 'fast' belong to in=fp8 lines only");
  if (!types_fit(&e->key))
    return bad(why, n, "types ab=%s/%s cd=%s/%s do not fit in=%s", tg_dtype_name(e->key.a_type),
               tg_dtype_name(e->key.b_type), tg_dtype_name(e->key.c_type),
               tg_dtype_name(e->key.d_type), tg_input_name(e->key.input));
  return TG_LINE_ENTRY;
}

void tg_cache_cuda_text(int cuda, char *buf, size_t len) {
  snprintf(buf, len, "%d.%d", cuda / TG_CUDA_MAJOR_SCALE,
           (cuda % TG_CUDA_MAJOR_SCALE) / TG_CUDA_MINOR_SCALE);
}

static const char *order_text(tg_order o) { return o == TG_ROW_MAJOR ? "row" : "col"; }

int tg_cache_line_format(const tg_cache_entry *e, char *buf, size_t len) {
  char cuda[TG_CACHE_KEY_BYTES], name[TG_CACHE_DEVICE_BYTES];
  const tg_cache_key *k = &e->key;
  tg_cache_cuda_text(e->device.cuda, cuda, sizeof cuda);
  /* A quote or a control character would break the line: never in a CUDA device name. */
  snprintf(name, sizeof name, "%s", e->device.name);
  for (char *c = name; *c; ++c)
    if (*c == '"' || (unsigned char)*c < ' ') *c = '?';
  int w = snprintf(buf, len,
                   "%s device=\"%s\" sms=%d cuda=%s in=%s ab=%s/%s cd=%s/%s a=%s b=%s align=%d "
                   "m=%lld n=%lld k=%lld batch=%lld kernel=%s us=%.3f",
                   TG_CACHE_FORMAT, name, e->device.sms, cuda, tg_input_name(k->input),
                   tg_dtype_name(k->a_type), tg_dtype_name(k->b_type), tg_dtype_name(k->c_type),
                   tg_dtype_name(k->d_type), order_text(k->a_order), order_text(k->b_order),
                   k->align, (long long)e->m, (long long)e->n, (long long)e->k, (long long)e->batch,
                   e->kernel, e->us);
  if (w >= 0 && (size_t)w < len && k->input == TG_IN_FP8) {
    const int s = (unsigned)k->scale_mode < (unsigned)TG_CACHE_SCALE_MODES ? (int)k->scale_mode : 0;
    w +=
        snprintf(buf + w, len - (size_t)w, " scale=%s fast=%d", k_scales[s], k->fast_accum ? 1 : 0);
  }
  return w < 0 || (size_t)w >= len ? -1 : w;
}
