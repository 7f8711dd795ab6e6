/*
 * test_heuristic_replay.c — the planner's heuristic against measured times, with no GPU.
 *
 * The committed tuning runs (tests/data/tune_*_h100.csv, written by `tilegemm tune --csv`)
 * time every candidate kernel on each of their shapes on an H100. For every such shape this
 * test asks the heuristic for its choice (a virtual sm_90 handle of 132 SMs, no tuning cache)
 * and looks the choice up in the run: it must take at most REPLAY_MAX_LOSS times the fastest
 * measured kernel the heuristic could have picked. A shape whose choice was not measured (a
 * row added after the run) is reported and not judged. The table it prints is the heuristic's
 * report card; refitting the rows' constants (docs/tuning.md) should keep it passing.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "options.h" /* tg_parse_dtype, tg_parse_major: the CLI's names (tune writes them) */
#include "registry.h"
#include "tilegemm.h"

#define H100_SM 90
#define H100_SMS 132
/* The most the heuristic's choice may lose to the fastest measured row on any shape: a ratchet
 * over the present worst (the test prints it; docs/tuning.md); lower it as the model improves. */
#define REPLAY_MAX_LOSS 1.10
#define MAX_LINE 1024
#define MAX_FIELDS 32
#define MAX_CANDIDATES 64
#define MAX_NAME 64

/* One measured shape: its request and every candidate's time. */
typedef struct shape_run {
  char key[256];
  tg_gemm g;
  int count;
  char kernel[MAX_CANDIDATES][MAX_NAME];
  double us[MAX_CANDIDATES];
} shape_run;

/* Splits a CSV line (no quoted commas in these files) in place. */
static int split(char *line, char **fields) {
  int n = 0;
  for (char *p = line; n < MAX_FIELDS;) {
    fields[n++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  char *end = fields[n - 1] + strcspn(fields[n - 1], "\r\n");
  *end = '\0';
  return n;
}

static int column(char **header, int n, const char *name) {
  for (int i = 0; i < n; ++i)
    if (strcmp(header[i], name) == 0) return i;
  return -1;
}

/* Reads one tuning CSV into runs[]; returns the new count. */
static int read_runs(const char *path, shape_run *runs, int count, int max_runs) {
  FILE *f = fopen(path, "r");
  CHECK_MSG(f != NULL, "cannot open %s", path);
  if (!f) return count;
  char line[MAX_LINE], header_line[MAX_LINE];
  char *header[MAX_FIELDS], *fields[MAX_FIELDS];
  if (!fgets(header_line, sizeof header_line, f)) {
    fclose(f);
    return count;
  }
  const int nh = split(header_line, header);
  const int cm = column(header, nh, "m"), cn = column(header, nh, "n"),
            ck = column(header, nh, "k");
  const int cb = column(header, nh, "batch"), ct = column(header, nh, "type");
  const int ca = column(header, nh, "a_major"), cbm = column(header, nh, "b_major");
  const int cc = column(header, nh, "c_major"), ckern = column(header, nh, "kernel");
  const int cs = column(header, nh, "status"), cus = column(header, nh, "us");
  CHECK_MSG(cm >= 0 && cn >= 0 && ck >= 0 && cb >= 0 && ct >= 0 && ca >= 0 && cbm >= 0 && cc >= 0 &&
                ckern >= 0 && cs >= 0 && cus >= 0,
            "%s: not a tilegemm tune CSV", path);
  while (fgets(line, sizeof line, f)) {
    const int nf = split(line, fields);
    if (nf < nh || strcmp(fields[cs], "ok") != 0 || atof(fields[cus]) <= 0) continue;
    tg_dtype t;
    tg_order ao, bo, co;
    if (tg_parse_dtype(fields[ct], &t) != 0 || tg_parse_major('a', fields[ca], &ao) != 0 ||
        tg_parse_major('b', fields[cbm], &bo) != 0 || tg_parse_major('c', fields[cc], &co) != 0) {
      CHECK_MSG(0, "%s: unknown type or major in '%s %s%s%s'", path, fields[ct], fields[ca],
                fields[cbm], fields[cc]);
      continue;
    }
    char key[256];
    snprintf(key, sizeof key, "%sx%sx%sx%s %s %s%s%s", fields[cm], fields[cn], fields[ck],
             fields[cb], fields[ct], fields[ca], fields[cbm], fields[cc]);
    int r = 0;
    while (r < count && strcmp(runs[r].key, key) != 0) ++r;
    if (r == count) {
      if (count == max_runs) continue;
      shape_run *s = &runs[count++];
      memset(s, 0, sizeof *s);
      snprintf(s->key, sizeof s->key, "%s", key);
      tg_gemm_init(&s->g, atoll(fields[cm]), atoll(fields[cn]), atoll(fields[ck]), t,
                   t == TG_S8 ? TG_S32 : t);
      s->g.batch = atoll(fields[cb]);
      s->g.a_order = ao;
      s->g.b_order = bo;
      s->g.c_order = co;
    }
    shape_run *s = &runs[r];
    if (s->count < MAX_CANDIDATES) {
      snprintf(s->kernel[s->count], MAX_NAME, "%s", fields[ckern]);
      s->us[s->count++] = atof(fields[cus]);
    }
  }
  fclose(f);
  return count;
}

/* The measured time of `name` in run s, or 0. */
static double measured(const shape_run *s, const char *name) {
  for (int i = 0; i < s->count; ++i)
    if (strcmp(s->kernel[i], name) == 0) return s->us[i];
  return 0;
}

int main(void) {
  static const char *files[] = {"tune_squares_bf16_h100.csv", "tune_llm_bf16_h100.csv"};
  enum { MAX_RUNS = 256 };
  static shape_run runs[MAX_RUNS];
  int count = 0;
  for (size_t i = 0; i < sizeof files / sizeof files[0]; ++i) {
    char path[512];
    snprintf(path, sizeof path, "%s/tests/data/%s", TG_SOURCE_DIR, files[i]);
    count = read_runs(path, runs, count, MAX_RUNS);
  }
  CHECK_MSG(count > 0, "no measured shapes");
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, H100_SM, H100_SMS) == TG_OK);
  int judged = 0, best = 0, unmeasured = 0;
  double worst = 1.0;
  printf("%-32s %-24s %10s %-24s %10s %6s\n", "shape", "heuristic", "us", "fastest it could pick",
         "us", "loss");
  for (int r = 0; r < count && h; ++r) {
    shape_run *s = &runs[r];
    if (tg_check(h, &s->g) != TG_OK) {
      CHECK_MSG(0, "%s: %s", s->key, tg_last_error(h));
      continue;
    }
    const char *pick = tg_last_kernel(h);
    /* The fastest measured kernel the heuristic could have chosen: auto-pickable and able to
     * serve the request. */
    const char *fastest = NULL;
    double fastest_us = 0;
    for (int i = 0; i < s->count; ++i) {
      const tg_kernel *k = tg_registry_find(s->kernel[i]);
      if (!k || !k->auto_pick) continue;
      tg_gemm forced = s->g;
      forced.kernel = k->name;
      if (tg_check(h, &forced) != TG_OK) continue;
      if (!fastest || s->us[i] < fastest_us) {
        fastest = s->kernel[i];
        fastest_us = s->us[i];
      }
    }
    const double pick_us = measured(s, pick);
    if (!fastest || pick_us <= 0) {
      printf("%-32s %-24s %10s (not measured in the run: not judged)\n", s->key, pick, "-");
      ++unmeasured;
      continue;
    }
    const double loss = pick_us / fastest_us;
    printf("%-32s %-24s %10.1f %-24s %10.1f %5.2fx\n", s->key, pick, pick_us, fastest, fastest_us,
           loss);
    ++judged;
    if (strcmp(pick, fastest) == 0) ++best;
    if (loss > worst) worst = loss;
    CHECK_MSG(loss <= REPLAY_MAX_LOSS, "%s: the heuristic's %s takes %.2fx the time of %s", s->key,
              pick, loss, fastest);
  }
  printf(
      "heuristic: fastest on %d of %d measured shapes, worst loss %.2fx (%d choices not "
      "measured)\n",
      best, judged, worst, unmeasured);
  CHECK_MSG(judged * 4 >= count * 3, "only %d of %d shapes could be judged", judged, count);
  tg_destroy(h);
  return tg_test_finish("test_heuristic_replay");
}
