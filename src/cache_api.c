/*
 * cache_api.c — the public calls of the tuning cache: load, save, add, count, warnings and the
 * default path (docs/tuning.md). The file format is cache_line.c's, the file handling
 * cache_file.c's, the lookup tune_cache.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cache_file.h"
#include "handle.h"
#include "plan.h"
#include "problem_build.h"
#include "registry.h"
#include "validate.h"

/* Longest path the calls handle. */
#define TG_CACHE_PATH_MAX 4096
/* Where tg_cache_add pretends the operands live, as tg_check does: 16-byte aligned. */
#define TG_CACHE_FAKE_ADDRESS ((uintptr_t)4096)

tg_status tg_cache_default_path(char *buf, size_t len) {
  static const char fn[] = "tg_cache_default_path";
  if (!buf || len == 0)
    return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'buf' is NULL or empty", fn);
  buf[0] = '\0';
  const int r = tg_cache_file_default(buf, len);
  if (r < 0) {
    buf[0] = '\0';
    return tg_fail(NULL, TG_ERR_INVALID_VALUE,
                   "%s: parameter 'len' = %zu is too short for the path", fn, len);
  }
  if (r > 0)
    return tg_fail(NULL, TG_ERR_NOT_SUPPORTED,
                   "%s: no default cache file (" TG_CACHE_ENV
                   " is set but empty, or neither "
                   "XDG_CACHE_HOME nor HOME is set)",
                   fn);
  return tg_succeed(NULL);
}

tg_status tg_cache_load(tg_handle *h, const char *path) {
  static const char fn[] = "tg_cache_load";
  char def[TG_CACHE_PATH_MAX];
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  if (!path) {
    const int r = tg_cache_file_default(def, sizeof def);
    if (r != 0) { /* no default file: an empty cache */
      tg_cache_clear(&h->cache);
      return tg_succeed(h);
    }
    path = def;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errno == ENOENT) { /* no file yet (or deleted): an empty cache */
      tg_cache_clear(&h->cache);
      return tg_succeed(h);
    }
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'path': cannot read '%s': %s", fn, path,
                   strerror(errno));
  }
  errno = 0;
  const int r = tg_cache_file_read(&h->cache, f);
  const int read_errno = errno;
  fclose(f);
  if (r == -1) return tg_fail(h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  if (r != 0) {
    tg_cache_clear(&h->cache);
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'path': cannot read '%s': %s", fn, path,
                   strerror(read_errno ? read_errno : EIO));
  }
  return tg_succeed(h);
}

tg_status tg_cache_save(tg_handle *h, const char *path) {
  static const char fn[] = "tg_cache_save";
  char def[TG_CACHE_PATH_MAX], why[TG_MESSAGE_BYTES / 2];
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  if (!path) {
    const int r = tg_cache_file_default(def, sizeof def);
    if (r != 0)
      return tg_fail(h, r > 0 ? TG_ERR_NOT_SUPPORTED : TG_ERR_INVALID_VALUE,
                     "%s: parameter 'path' is NULL and there is no default cache file (%s)", fn,
                     r > 0 ? TG_CACHE_ENV " is empty, or no HOME" : "its path is too long");
    path = def;
  }
  if (tg_cache_file_write(&h->cache, path, why, sizeof why) != 0)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'path': %s", fn, why);
  return tg_succeed(h);
}

tg_status tg_cache_add(tg_handle *h, const tg_gemm *g, const char *kernel, double us) {
  static const char fn[] = "tg_cache_add";
  tg_layout L;
  if (!h) return tg_fail(NULL, TG_ERR_INVALID_VALUE, "%s: parameter 'handle' is NULL", fn);
  if (!g) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'g' is NULL", fn);
  tg_gemm request = *g; /* g->kernel is ignored */
  request.kernel = NULL;
  g = &request;
  tg_status s = tg_validate_gemm(h, fn, g, &L);
  if (s != TG_OK) return s;
  if (!kernel) return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'kernel' is NULL", fn);
  const tg_kernel *k = tg_registry_find(kernel);
  if (!k)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'kernel': no kernel is named '%s'", fn,
                   kernel);
  if (!tg_plan_tunable(k))
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter 'kernel': '%s' is the reference or a teaching kernel, which "
                   "the cache may not name",
                   fn, kernel);
  if (!isfinite(us) || us <= 0.0)
    return tg_fail(h, TG_ERR_INVALID_VALUE, "%s: parameter 'us' = %g is not a positive time", fn,
                   us);
  if (g->m == 0 || g->n == 0 || g->k == 0 || g->batch == 0 || g->alpha == 0.0)
    return tg_fail(h, TG_ERR_INVALID_VALUE,
                   "%s: parameter 'g': the product vanishes (m, n, k, batch or alpha is 0); "
                   "no kernel runs for it",
                   fn);
  const void *fake = (const void *)TG_CACHE_FAKE_ADDRESS;
  tg_problem p;
  tg_problem_build(&p, g, &L, fake, fake, fake, (void *)fake, h->sm, h->sm_count);
  tg_plan plan;
  char why[256];
  if ((s = tg_plan_for_kernel(k, &p, &plan, why, sizeof why)) != TG_OK)
    return tg_fail(h, s, "%s: %s", fn, why);
  tg_cache_entry e;
  tg_cache_entry_of(&h->cache.device, &p, kernel, us, &e);
  if (tg_cache_put(&h->cache, &e) != 0)
    return tg_fail(h, TG_ERR_OUT_OF_MEMORY, "%s: host allocation failed", fn);
  return tg_succeed(h);
}

int tg_cache_count(const tg_handle *h) { return h ? tg_cache_usable_count(&h->cache) : 0; }

const char *tg_cache_warnings(const tg_handle *h) { return h ? h->cache.warnings : ""; }
