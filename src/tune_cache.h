/*
 * tune_cache.h — the planner's memory: which kernel won tg_tune for a problem on a device.
 * Pure C, no CUDA calls: the planner and its tests read it on machines with no GPU.
 *
 * An entry is keyed by
 *   - the device: name, SM count and CUDA runtime version (tg_cache_device);
 *   - the problem's class (tg_cache_key): input class, the four types, the canonical orders of
 *     A and B (after the D^T = B^T A^T canonicalization of problem_build.c, so requests that
 *     differ only in D's order share entries), the alignment class min(align_a, align_b), and
 *     for fp8 inputs the scale mode and the accumulation (they choose between kernels: BLOCK
 *     scales and promoted sums are served by fewer rows than fast accumulation);
 *   - the canonical shape m, n, k, batch.
 * Lookup (tg_cache_lookup): an entry of the same device and class with exactly this shape;
 * else the nearest shape bucket, at most TG_CACHE_MAX_BUCKET_STEPS away (docs/tuning.md).
 * Entries of other devices are kept (so saving does not lose them) but never used.
 */
#ifndef TG_TUNE_CACHE_H
#define TG_TUNE_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include "problem.h"

#define TG_CACHE_DEVICE_BYTES 256
#define TG_CACHE_KERNEL_BYTES 64
#define TG_CACHE_WARNING_BYTES 4096
/* Lookup outside the exact shape: the sum over m, n, k and batch of the distance between
 * their buckets (round(log2 x)) may not exceed this. */
#define TG_CACHE_MAX_BUCKET_STEPS 2

/* Which device an entry was measured on. cuda is the runtime version as CUDART_VERSION
 * spells it (1000 * major + 10 * minor). */
typedef struct tg_cache_device {
  char name[TG_CACHE_DEVICE_BYTES];
  int sms;
  int cuda;
} tg_cache_device;

/* The class of a problem: what must match exactly besides the device. */
typedef struct tg_cache_key {
  tg_input_class input;
  tg_dtype a_type, b_type, c_type, d_type;
  tg_order a_order, b_order; /* canonical */
  int align;                 /* bytes: min(align_a, align_b) of the canonical problem */
  tg_scale_mode scale_mode;  /* fp8 only; TG_SCALE_NONE otherwise */
  int fast_accum;            /* fp8 only; 0 otherwise */
} tg_cache_key;

typedef struct tg_cache_entry {
  tg_cache_device device;
  tg_cache_key key;
  int64_t m, n, k, batch; /* canonical shape, each >= 1 */
  char kernel[TG_CACHE_KERNEL_BYTES];
  double us; /* measured median, microseconds (informational) */
} tg_cache_entry;

typedef struct tg_tune_cache {
  tg_cache_device device; /* the handle's device: the only one whose entries are used */
  tg_cache_entry *entries;
  int count, capacity;
  char warnings[TG_CACHE_WARNING_BYTES]; /* one line per ignored line of the last load */
  int warning_count;
  unsigned generation; /* counts changes to the entries (plans remembered before a change
                                 are not used after it: plan_memo.h) */
} tg_tune_cache;

/* An empty cache for `device`. */
void tg_cache_init(tg_tune_cache *c, const tg_cache_device *device);

/* Frees the entries and empties the cache (the device stays). */
void tg_cache_clear(tg_tune_cache *c);

/* The class of a canonical problem. */
tg_cache_key tg_cache_key_of(const tg_problem *p);

/* The entry saying `kernel` ran p (canonical) in `us` microseconds on `device`. */
void tg_cache_entry_of(const tg_cache_device *device, const tg_problem *p, const char *kernel,
                       double us, tg_cache_entry *out);

/* 1 when a and b are the same device / the same class. */
int tg_cache_same_device(const tg_cache_device *a, const tg_cache_device *b);
int tg_cache_same_key(const tg_cache_key *a, const tg_cache_key *b);

/* Adds *e, replacing an entry of the same device, class and shape. 0, or -1 when out of
 * memory. */
int tg_cache_put(tg_tune_cache *c, const tg_cache_entry *e);

/* Entries that belong to the cache's device. */
int tg_cache_usable_count(const tg_tune_cache *c);

/* Appends "line: text" to the warnings (truncated, with a count, when they overflow). */
void tg_cache_warn(tg_tune_cache *c, int line, const char *text);

/* Bucket of a size >= 1: round(log2 x). */
int tg_cache_bucket(int64_t x);

/* May the planner use this entry's kernel for p? (the planner checks the kernel can serve). */
typedef int (*tg_cache_accept_fn)(const tg_cache_entry *e, const tg_problem *p, void *ctx);

/* The best usable entry for p, or NULL: the cache's device and p's class only; exact shape
 * first, then the fewest bucket steps (at most TG_CACHE_MAX_BUCKET_STEPS), then the smallest
 * distance sum |log2 x - log2 x'|, then the earliest entry. Entries `accept` refuses are
 * skipped. */
const tg_cache_entry *tg_cache_lookup(const tg_tune_cache *c, const tg_problem *p,
                                      tg_cache_accept_fn accept, void *ctx);

#endif /* TG_TUNE_CACHE_H */
