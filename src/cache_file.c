/* cache_file.c — the tuning cache file (see cache_file.h). */
#define _POSIX_C_SOURCE 200809L
#include "cache_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cache_line.h"
#include "plan.h"
#include "registry.h"

/* Other devices whose entries a read reports one by one (the rest are counted together). */
#define TG_CACHE_FOREIGN_REPORTED 8
#define TG_CACHE_PATH_BYTES 4096
#define TG_CACHE_DIR_MODE 0755
#define TG_CACHE_WHY_BYTES 256

static const char k_header[] =
    "# tilegemm tuning cache, format " TG_CACHE_FORMAT
    " (docs/tuning.md). One entry per line: the kernel\n"
    "# that won `tilegemm tune` (tg_tune) on a device for a problem class and shape. Written by\n"
    "# tg_cache_save; lines that are not understood are ignored with a warning. Safe to delete.\n";

int tg_cache_file_default(char *buf, size_t len) {
  const char *env = getenv(TG_CACHE_ENV);
  int w;
  if (env) {
    if (!*env) return 1;
    w = snprintf(buf, len, "%s", env);
  } else {
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    /* XDG: a relative XDG_CACHE_HOME is invalid and ignored. */
    if (xdg && xdg[0] == '/')
      w = snprintf(buf, len, "%s/%s/%s", xdg, TG_CACHE_DIR_NAME, TG_CACHE_FILE_NAME);
    else if (home && *home)
      w = snprintf(buf, len, "%s/.cache/%s/%s", home, TG_CACHE_DIR_NAME, TG_CACHE_FILE_NAME);
    else return 1;
  }
  return w < 0 || (size_t)w >= len ? -1 : 0;
}

typedef struct foreign_device {
  tg_cache_device device;
  int count, first_line;
} foreign_device;

static void note_foreign(foreign_device *list, int *n, int *others, const tg_cache_device *d,
                         int line) {
  for (int i = 0; i < *n; ++i)
    if (tg_cache_same_device(&list[i].device, d)) {
      ++list[i].count;
      return;
    }
  if (*n == TG_CACHE_FOREIGN_REPORTED) {
    ++*others;
    return;
  }
  list[*n].device = *d;
  list[*n].count = 1;
  list[*n].first_line = line;
  ++*n;
}

/* Why a parsed entry's kernel cannot be used, or NULL. */
static const char *kernel_problem(const tg_cache_entry *e) {
  const tg_kernel *k = tg_registry_find(e->kernel);
  if (!k) return "is not a kernel of this build of tilegemm";
  if (!tg_plan_tunable(k)) return "is not a kernel the planner may take from the cache";
  return NULL;
}

int tg_cache_file_read(tg_tune_cache *c, FILE *f) {
  char line[TG_CACHE_LINE_BYTES + 1], why[TG_CACHE_WHY_BYTES], text[2 * TG_CACHE_WHY_BYTES];
  foreign_device foreign[TG_CACHE_FOREIGN_REPORTED];
  int n_foreign = 0, foreign_others = 0, number = 0;
  tg_cache_clear(c);
  while (fgets(line, sizeof line, f)) {
    ++number;
    size_t len = strlen(line);
    if (len == sizeof line - 1 && line[len - 1] != '\n' && !feof(f)) {
      int ch;
      while ((ch = fgetc(f)) != EOF && ch != '\n') {
      }
      snprintf(text, sizeof text, "ignored: longer than %d characters", TG_CACHE_LINE_BYTES - 1);
      tg_cache_warn(c, number, text);
      continue;
    }
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
    tg_cache_entry e;
    const tg_line_kind kind = tg_cache_line_parse(line, &e, why, sizeof why);
    if (kind == TG_LINE_COMMENT) continue;
    if (kind == TG_LINE_BAD) {
      snprintf(text, sizeof text, "ignored: %s", why);
      tg_cache_warn(c, number, text);
      continue;
    }
    const char *kp = kernel_problem(&e);
    if (kp) {
      snprintf(text, sizeof text, "ignored: kernel '%s' %s", e.kernel, kp);
      tg_cache_warn(c, number, text);
      continue;
    }
    if (!tg_cache_same_device(&e.device, &c->device))
      note_foreign(foreign, &n_foreign, &foreign_others, &e.device, number);
    if (tg_cache_put(c, &e) != 0) return -1;
  }
  if (ferror(f)) return -2;
  for (int i = 0; i < n_foreign; ++i) {
    char cuda[16];
    tg_cache_cuda_text(foreign[i].device.cuda, cuda, sizeof cuda);
    snprintf(text, sizeof text,
             "%d entr%s for another device or CUDA version (\"%.100s\", %d SMs, CUDA %s) from this "
             "line on: kept in the file, not used",
             foreign[i].count, foreign[i].count == 1 ? "y" : "ies", foreign[i].device.name,
             foreign[i].device.sms, cuda);
    tg_cache_warn(c, foreign[i].first_line, text);
  }
  if (foreign_others) {
    snprintf(text, sizeof text, "%d more entries for still other devices: kept, not used",
             foreign_others);
    tg_cache_warn(c, number, text);
  }
  return 0;
}

/* mkdir -p of the directory part of path. */
static int make_parent_dirs(const char *path, char *why, size_t why_len) {
  char dir[TG_CACHE_PATH_BYTES];
  if (strlen(path) >= sizeof dir) {
    snprintf(why, why_len, "path is longer than %d characters", TG_CACHE_PATH_BYTES - 1);
    return -1;
  }
  strcpy(dir, path);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) return 0;
  *slash = '\0';
  for (char *p = dir + 1;; ++p) {
    if (*p != '/' && *p != '\0') continue;
    const char saved = *p;
    *p = '\0';
    if (mkdir(dir, TG_CACHE_DIR_MODE) != 0 && errno != EEXIST) {
      snprintf(why, why_len, "cannot create directory '%s': %s", dir, strerror(errno));
      return -1;
    }
    *p = saved;
    if (saved == '\0') break;
  }
  return 0;
}

int tg_cache_file_write(const tg_tune_cache *c, const char *path, char *why, size_t why_len) {
  char tmp[TG_CACHE_PATH_BYTES], line[TG_CACHE_LINE_BYTES];
  if (make_parent_dirs(path, why, why_len) != 0) return -1;
  int w = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  if (w < 0 || (size_t)w >= sizeof tmp) {
    snprintf(why, why_len, "path is longer than %d characters", TG_CACHE_PATH_BYTES - 32);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(why, why_len, "cannot create '%s': %s", tmp, strerror(errno));
    return -1;
  }
  errno = 0;
  int ok = fputs(k_header, f) >= 0;
  for (int i = 0; ok && i < c->count; ++i)
    ok = tg_cache_line_format(&c->entries[i], line, sizeof line) >= 0 && fputs(line, f) >= 0 &&
         fputc('\n', f) != EOF;
  const int write_errno = errno;
  if (fclose(f) != 0 && ok) ok = 0;
  if (!ok) {
    snprintf(why, why_len, "cannot write '%s': %s", tmp, strerror(write_errno ? write_errno : EIO));
    remove(tmp);
    return -1;
  }
  if (rename(tmp, path) != 0) {
    snprintf(why, why_len, "cannot replace '%s': %s", path, strerror(errno));
    remove(tmp);
    return -1;
  }
  return 0;
}
