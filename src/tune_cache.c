/* tune_cache.c — the in-memory tuning cache and its lookup (see tune_cache.h). */
#include "tune_cache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* First capacity of the entry array; it doubles when full. */
#define TG_CACHE_FIRST_CAPACITY 16
/* Room kept at the end of the warnings for the "... and N more" line. */
#define TG_CACHE_WARNING_TAIL 64
/* Longest single warning line. */
#define TG_CACHE_WARNING_LINE_BYTES 1024

void tg_cache_init(tg_tune_cache *c, const tg_cache_device *device) {
  memset(c, 0, sizeof *c);
  if (device) c->device = *device;
}

void tg_cache_clear(tg_tune_cache *c) {
  free(c->entries);
  c->entries = NULL;
  c->count = c->capacity = 0;
  c->warnings[0] = '\0';
  c->warning_count = 0;
  ++c->generation;
}

tg_cache_key tg_cache_key_of(const tg_problem *p) {
  tg_cache_key k;
  memset(&k, 0, sizeof k);
  k.input = p->input;
  k.a_type = p->a_type;
  k.b_type = p->b_type;
  k.c_type = p->c_type;
  k.d_type = p->d_type;
  k.a_order = p->a_order;
  k.b_order = p->b_order;
  k.align = p->align_a < p->align_b ? p->align_a : p->align_b;
  k.scale_mode = p->scale_mode;
  k.fast_accum = p->fast_accum;
  return k;
}

void tg_cache_entry_of(const tg_cache_device *device, const tg_problem *p, const char *kernel,
                       double us, tg_cache_entry *out) {
  memset(out, 0, sizeof *out);
  out->device = *device;
  out->key = tg_cache_key_of(p);
  out->m = p->m;
  out->n = p->n;
  out->k = p->k;
  out->batch = p->batch;
  snprintf(out->kernel, sizeof out->kernel, "%s", kernel);
  out->us = us;
}

int tg_cache_same_device(const tg_cache_device *a, const tg_cache_device *b) {
  return a->sms == b->sms && a->cuda == b->cuda && strcmp(a->name, b->name) == 0;
}

int tg_cache_same_key(const tg_cache_key *a, const tg_cache_key *b) {
  return a->input == b->input && a->a_type == b->a_type && a->b_type == b->b_type &&
         a->c_type == b->c_type && a->d_type == b->d_type && a->a_order == b->a_order &&
         a->b_order == b->b_order && a->align == b->align && a->scale_mode == b->scale_mode &&
         a->fast_accum == b->fast_accum;
}

static int same_shape(const tg_cache_entry *a, const tg_cache_entry *b) {
  return a->m == b->m && a->n == b->n && a->k == b->k && a->batch == b->batch;
}

int tg_cache_put(tg_tune_cache *c, const tg_cache_entry *e) {
  ++c->generation; /* counted even when the entry turns out unchanged or out of memory */
  for (int i = 0; i < c->count; ++i) {
    tg_cache_entry *x = &c->entries[i];
    if (tg_cache_same_device(&x->device, &e->device) && tg_cache_same_key(&x->key, &e->key) &&
        same_shape(x, e)) {
      *x = *e;
      return 0;
    }
  }
  if (c->count == c->capacity) {
    int cap = c->capacity ? 2 * c->capacity : TG_CACHE_FIRST_CAPACITY;
    tg_cache_entry *grown = (tg_cache_entry *)realloc(c->entries, (size_t)cap * sizeof *grown);
    if (!grown) return -1;
    c->entries = grown;
    c->capacity = cap;
  }
  c->entries[c->count++] = *e;
  return 0;
}

int tg_cache_usable_count(const tg_tune_cache *c) {
  int n = 0;
  for (int i = 0; i < c->count; ++i) n += tg_cache_same_device(&c->entries[i].device, &c->device);
  return n;
}

void tg_cache_warn(tg_tune_cache *c, int line, const char *text) {
  ++c->warning_count;
  size_t used = strlen(c->warnings);
  char one[TG_CACHE_WARNING_LINE_BYTES];
  snprintf(one, sizeof one, "line %d: %.*s\n", line, TG_CACHE_WARNING_LINE_BYTES / 2, text);
  if (used + strlen(one) + TG_CACHE_WARNING_TAIL < sizeof c->warnings) {
    memcpy(c->warnings + used, one, strlen(one) + 1);
    return;
  }
  /* Full: keep one closing line that counts what was left out. */
  char *tail = strstr(c->warnings, "... and ");
  if (tail) *tail = '\0';
  used = strlen(c->warnings);
  int shown = 0;
  for (const char *s = c->warnings; *s; ++s) shown += *s == '\n';
  snprintf(c->warnings + used, sizeof c->warnings - used, "... and %d more\n",
           c->warning_count - shown);
}

int tg_cache_bucket(int64_t x) { return x < 1 ? 0 : (int)lround(log2((double)x)); }

static int abs_int(int x) { return x < 0 ? -x : x; }

/* How far entry e is from p: bucket steps and the continuous log2 distance. */
static void distance(const tg_cache_entry *e, const tg_problem *p, int *steps, double *logd) {
  const int64_t a[4] = {e->m, e->n, e->k, e->batch}, b[4] = {p->m, p->n, p->k, p->batch};
  *steps = 0;
  *logd = 0.0;
  for (int i = 0; i < 4; ++i) {
    *steps += abs_int(tg_cache_bucket(a[i]) - tg_cache_bucket(b[i]));
    *logd += fabs(log2((double)a[i]) - log2((double)(b[i] > 0 ? b[i] : 1)));
  }
}

const tg_cache_entry *tg_cache_lookup(const tg_tune_cache *c, const tg_problem *p,
                                      tg_cache_accept_fn accept, void *ctx) {
  if (!c || c->count == 0) return NULL;
  const tg_cache_key key = tg_cache_key_of(p);
  const tg_cache_entry *best = NULL;
  int best_exact = 0, best_steps = 0;
  double best_logd = 0.0;
  for (int i = 0; i < c->count; ++i) {
    const tg_cache_entry *e = &c->entries[i];
    if (!tg_cache_same_device(&e->device, &c->device) || !tg_cache_same_key(&e->key, &key))
      continue;
    const int exact = e->m == p->m && e->n == p->n && e->k == p->k && e->batch == p->batch;
    int steps;
    double logd;
    distance(e, p, &steps, &logd);
    if (!exact && steps > TG_CACHE_MAX_BUCKET_STEPS) continue;
    const int better =
        !best || (exact && !best_exact) ||
        (exact == best_exact && (steps < best_steps || (steps == best_steps && logd < best_logd)));
    if (!better) continue;
    if (accept && !accept(e, p, ctx)) continue;
    best = e;
    best_exact = exact;
    best_steps = steps;
    best_logd = logd;
  }
  return best;
}
