/*
 * cache_file.h — the tuning cache on disk: where the default file lives, reading a file into
 * a cache (every ignored line becomes a warning), and writing one atomically. POSIX C.
 */
#ifndef TG_CACHE_FILE_H
#define TG_CACHE_FILE_H

#include <stddef.h>
#include <stdio.h>
#include "tune_cache.h"

/* File name under the cache directory ($XDG_CACHE_HOME/tilegemm or ~/.cache/tilegemm). */
#define TG_CACHE_DIR_NAME "tilegemm"
#define TG_CACHE_FILE_NAME "tune.txt"
/* Environment variable naming the cache file; set and empty: no default file. */
#define TG_CACHE_ENV "TILEGEMM_CACHE"

/* The default file's path into buf: 0; 1 when there is none (TILEGEMM_CACHE empty, or no
 * XDG_CACHE_HOME and no HOME); -1 when it does not fit. */
int tg_cache_file_default(char *buf, size_t len);

/* Replaces c's entries and warnings with the lines of f: entries that apply to c's device are
 * used, those of other devices are kept (a warning per device); corrupt lines, other format
 * versions and unknown or untunable kernel names are dropped with a warning each. 0, -1 when
 * out of memory, -2 when f cannot be read (a directory, an I/O error). */
int tg_cache_file_read(tg_tune_cache *c, FILE *f);

/* Writes every entry of c to path through a temporary file renamed over it, creating missing
 * directories. 0, or -1 with the reason in why. */
int tg_cache_file_write(const tg_tune_cache *c, const char *path, char *why, size_t why_len);

#endif /* TG_CACHE_FILE_H */
