/*
 * test_tune_cache.c — the planner's memory with no GPU: the line format, the file round trip,
 * corrupt and foreign lines (ignored with warnings, never a failure), the default path, bucket
 * and nearest-shape lookup, and the planner honouring the cache on a virtual handle (forced
 * kernel first, heuristic when the cache has nothing usable).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_line.h"
#include "check.h"
#include "device.h"
#include "plan.h"
#include "registry.h"
#include "tilegemm.h"

#define H100_SM 90
#define H100_SMS 132
#define PATH_BYTES 512
#define TEXT_BYTES 8192

/* The test's scratch directory (mkdtemp), short enough for every file name below. */
#define DIR_BYTES 64
static char g_dir[DIR_BYTES];

static void path_in_dir(char *buf, const char *name) {
  snprintf(buf, PATH_BYTES, "%.*s/%.*s", DIR_BYTES, g_dir, PATH_BYTES - DIR_BYTES - 2, name);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK_MSG(f != NULL, "cannot write %s", path);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void read_text(const char *path, char *buf, size_t n) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  CHECK_MSG(f != NULL, "cannot read %s", path);
  if (!f) return;
  size_t got = fread(buf, 1, n - 1, f);
  buf[got] = '\0';
  fclose(f);
}

/* "v1 device=... sms=... cuda=..." of the virtual H100 handle. */
static void own_device_prefix(char *buf, size_t n) {
  tg_cache_device d;
  char cuda[16];
  tg_device_virtual_identity(H100_SM, H100_SMS, &d);
  tg_cache_cuda_text(d.cuda, cuda, sizeof cuda);
  snprintf(buf, n, "v1 device=\"%s\" sms=%d cuda=%s", d.name, d.sms, cuda);
}

static int have(const char *kernel) { return tg_registry_find(kernel) != NULL; }

/* A tunable bf16 kernel that the heuristic does not pick for 4096³ on sm_90, or NULL in a build
 * without the sm80/sm90 families (those tests then have nothing to cache). */
static const char *second_choice(void) {
  return have("sm90_128x128x64")   ? "sm90_128x128x64"
         : have("sm80_128x128x64") ? "sm80_128x128x64"
                                   : NULL;
}

/* bf16 C = A·B^T, the layout of the benchmarks. */
static void request(tg_gemm *g, int64_t m, int64_t n, int64_t k) {
  tg_gemm_init(g, m, n, k, TG_BF16, TG_BF16);
  g->b_order = TG_COL_MAJOR;
}

static const char *choice(tg_handle *h, const tg_gemm *g) {
  tg_status s = tg_check(h, g);
  CHECK_MSG(s == TG_OK, "tg_check: %s", tg_last_error(h));
  return tg_last_kernel(h);
}

static void test_line_format(void) {
  tg_cache_entry e, back;
  char line[TG_CACHE_LINE_BYTES], why[256];
  memset(&e, 0, sizeof e);
  snprintf(e.device.name, sizeof e.device.name, "NVIDIA H100 80GB HBM3");
  e.device.sms = H100_SMS;
  e.device.cuda = 13000;
  e.key.input = TG_IN_FP8;
  e.key.a_type = TG_E4M3;
  e.key.b_type = TG_E5M2;
  e.key.c_type = TG_F32;
  e.key.d_type = TG_BF16;
  e.key.a_order = TG_ROW_MAJOR;
  e.key.b_order = TG_COL_MAJOR;
  e.key.align = 4;
  e.m = 4096, e.n = 14336, e.k = 4095, e.batch = 8;
  snprintf(e.kernel, sizeof e.kernel, "sm90_128x256x64");
  e.us = 210.25;
  CHECK(tg_cache_line_format(&e, line, sizeof line) > 0);
  CHECK_MSG(strcmp(line,
                   "v1 device=\"NVIDIA H100 80GB HBM3\" sms=132 cuda=13.0 in=fp8 ab=e4m3/e5m2 "
                   "cd=f32/bf16 a=row b=col align=4 m=4096 n=14336 k=4095 batch=8 "
                   "kernel=sm90_128x256x64 us=210.250 scale=none fast=0") == 0,
            "%s", line);
  CHECK(tg_cache_line_parse(line, &back, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(memcmp(&e.key, &back.key, sizeof e.key) == 0 &&
        tg_cache_same_device(&e.device, &back.device));
  CHECK(back.m == 4096 && back.n == 14336 && back.k == 4095 && back.batch == 8 &&
        back.us == 210.25);
  CHECK(strcmp(back.kernel, e.kernel) == 0);
  CHECK(tg_cache_line_format(&e, line, 20) < 0);
  /* Fields in any order; comments and blank lines. */
  CHECK(tg_cache_line_parse("us=1 kernel=x batch=1 k=1 n=1 m=1 align=16 b=col a=row cd=f16/f16 "
                            "ab=f16/f16 in=f16 cuda=12.4 sms=108 device=\"A\"",
                            &back, why, sizeof why) == TG_LINE_BAD);
  CHECK(tg_cache_line_parse("v1 us=1 kernel=x batch=1 k=1 n=1 m=1 align=16 b=col a=row cd=f16/f16 "
                            "ab=f16/f16 in=f16 cuda=12.4 sms=108 device=\"A\"",
                            &back, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(back.device.cuda == 12040 && back.key.input == TG_IN_F16);
  CHECK(tg_cache_line_parse("   # comment", &back, why, sizeof why) == TG_LINE_COMMENT);
  CHECK(tg_cache_line_parse("", &back, why, sizeof why) == TG_LINE_COMMENT);
}

/* fp8 lines carry the scale mode and the accumulation in their key; a line written before they
 * existed reads as no scales, promoted sums; other inputs may not name them. */
static void test_fp8_key_fields(void) {
  tg_cache_entry e, back;
  char line[TG_CACHE_LINE_BYTES], why[256];
  static const char *const kFp8 =
      "v1 device=\"A\" sms=132 cuda=13.0 in=fp8 ab=e4m3/e4m3 cd=bf16/bf16 a=row b=col align=16 "
      "m=4096 n=4096 k=4096 batch=1 kernel=sm90_f8_128x128x128 us=100";
  CHECK(tg_cache_line_parse(kFp8, &e, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(e.key.scale_mode == TG_SCALE_NONE && e.key.fast_accum == 0);
  snprintf(line, sizeof line, "%s scale=block fast=0", kFp8);
  CHECK(tg_cache_line_parse(line, &e, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(e.key.scale_mode == TG_SCALE_BLOCK && e.key.fast_accum == 0);
  snprintf(line, sizeof line, "%s fast=1 scale=rowcol", kFp8);
  CHECK(tg_cache_line_parse(line, &e, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(e.key.scale_mode == TG_SCALE_ROW_COL && e.key.fast_accum == 1);
  /* Written back, read back: the same key. */
  CHECK(tg_cache_line_format(&e, line, sizeof line) > 0);
  CHECK(strstr(line, " scale=rowcol fast=1") != NULL);
  CHECK(tg_cache_line_parse(line, &back, why, sizeof why) == TG_LINE_ENTRY);
  CHECK(tg_cache_same_key(&e.key, &back.key));
  /* The fields make different keys. */
  back.key.fast_accum = 0;
  CHECK(!tg_cache_same_key(&e.key, &back.key));
  back.key.fast_accum = 1, back.key.scale_mode = TG_SCALE_TENSOR;
  CHECK(!tg_cache_same_key(&e.key, &back.key));
  /* Bad values, and the fields on a line of another input class. */
  snprintf(line, sizeof line, "%s scale=half", kFp8);
  CHECK(tg_cache_line_parse(line, &e, why, sizeof why) == TG_LINE_BAD);
  snprintf(line, sizeof line, "%s fast=2", kFp8);
  CHECK(tg_cache_line_parse(line, &e, why, sizeof why) == TG_LINE_BAD);
  CHECK(tg_cache_line_parse("v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16 cd=bf16/bf16 "
                            "a=row b=col align=16 m=1 n=1 k=1 batch=1 kernel=x us=1 scale=none",
                            &e, why, sizeof why) == TG_LINE_BAD);
  CHECK_MSG(strstr(why, "fp8") != NULL, "%s", why);
  /* A bf16 entry is written without them. */
  e.key.input = TG_IN_BF16, e.key.a_type = e.key.b_type = TG_BF16;
  e.key.scale_mode = TG_SCALE_NONE, e.key.fast_accum = 0;
  CHECK(tg_cache_line_format(&e, line, sizeof line) > 0 && strstr(line, "scale=") == NULL);
}

/* Each bad line is refused with a reason that says what is wrong. */
static void test_bad_lines(void) {
  static const struct {
    const char *line, *reason;
  } cases[] = {
      {"hello world", "not a cache entry"},
      {"v2 device=\"A\" sms=1", "format v2"},
      {"v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16", "missing"},
      {"v1 device=\"A sms=132", "unterminated"},
      {"v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=3 "
       "m=1 n=1 k=1 batch=1 kernel=k us=1",
       "align"},
      {"v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=f16/f16 cd=bf16/bf16 a=row b=col align=16 "
       "m=1 n=1 k=1 batch=1 kernel=k us=1",
       "do not fit"},
      {"v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 "
       "m=0 n=1 k=1 batch=1 kernel=k us=1",
       "'m'"},
      {"v1 device=\"A\" sms=132 cuda=13.0 in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 "
       "m=1 n=1 k=1 batch=1 kernel=k us=-2",
       "'us'"},
      {"v1 device=\"A\" sms=132 sms=132", "twice"},
      {"v1 device=\"A\" color=blue", "unknown field"},
      {"v1 device=\"A\" sms", "key=value"},
      {"v1 device=\"A\" sms=132 cuda=13 in=bf16", "'cuda'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    tg_cache_entry e;
    char why[256] = "";
    CHECK_MSG(tg_cache_line_parse(cases[i].line, &e, why, sizeof why) == TG_LINE_BAD,
              "accepted: %s", cases[i].line);
    CHECK_MSG(strstr(why, cases[i].reason) != NULL, "'%s': reason '%s' lacks '%s'", cases[i].line,
              why, cases[i].reason);
  }
}

static void test_buckets_and_lookup(void) {
  CHECK(tg_cache_bucket(1) == 0 && tg_cache_bucket(4096) == 12 && tg_cache_bucket(5000) == 12);
  CHECK(tg_cache_bucket(6000) == 13 && tg_cache_bucket(3) == 2 && tg_cache_bucket(11008) == 13);
  tg_cache_device dev;
  tg_device_virtual_identity(H100_SM, H100_SMS, &dev);
  tg_tune_cache c;
  tg_cache_init(&c, &dev);
  tg_problem p;
  memset(&p, 0, sizeof p);
  p.input = TG_IN_BF16;
  p.a_type = p.b_type = p.c_type = p.d_type = TG_BF16;
  p.a_order = TG_ROW_MAJOR;
  p.b_order = TG_COL_MAJOR;
  p.align_a = p.align_b = 16;
  p.m = p.n = p.k = 4096;
  p.batch = 1;
  CHECK(tg_cache_lookup(&c, &p, NULL, NULL) == NULL);
  const int64_t shapes[][4] = {
      {4096, 4096, 4096, 1}, {8192, 8192, 8192, 1}, {4096, 4096, 8192, 1}, {1024, 1024, 1024, 1}};
  for (int i = 0; i < 4; ++i) {
    tg_problem q = p;
    q.m = shapes[i][0], q.n = shapes[i][1], q.k = shapes[i][2], q.batch = shapes[i][3];
    char name[16];
    snprintf(name, sizeof name, "k%d", i);
    tg_cache_entry e;
    tg_cache_entry_of(&dev, &q, name, 1.0 + i, &e);
    CHECK(tg_cache_put(&c, &e) == 0);
  }
  CHECK(c.count == 4 && tg_cache_usable_count(&c) == 4);
  /* Exact shape. */
  const tg_cache_entry *e = tg_cache_lookup(&c, &p, NULL, NULL);
  CHECK(e && strcmp(e->kernel, "k0") == 0);
  /* Same bucket, nearer to 4096³ than to the others. */
  p.m = p.n = p.k = 4500;
  CHECK((e = tg_cache_lookup(&c, &p, NULL, NULL)) && strcmp(e->kernel, "k0") == 0);
  /* k between 4096 and 8192: k2 (same m, n; k one bucket up) is nearer in log space. */
  p.m = p.n = 4096;
  p.k = 7000;
  CHECK((e = tg_cache_lookup(&c, &p, NULL, NULL)) && strcmp(e->kernel, "k2") == 0);
  /* 2048³ is 3 steps from 4096³ and from 1024³: beyond TG_CACHE_MAX_BUCKET_STEPS. */
  p.m = p.n = p.k = 2048;
  CHECK(tg_cache_lookup(&c, &p, NULL, NULL) == NULL);
  /* 2048×1024×1024 is 1 step from 1024³. */
  p.m = 2048, p.n = 1024, p.k = 1024;
  CHECK((e = tg_cache_lookup(&c, &p, NULL, NULL)) && strcmp(e->kernel, "k3") == 0);
  /* Another class (alignment, orders, types) or another device finds nothing. */
  p.m = p.n = p.k = 4096;
  tg_problem other = p;
  other.align_a = 2;
  CHECK(tg_cache_lookup(&c, &other, NULL, NULL) == NULL);
  other = p;
  other.b_order = TG_ROW_MAJOR;
  CHECK(tg_cache_lookup(&c, &other, NULL, NULL) == NULL);
  other = p;
  other.input = TG_IN_F16;
  other.a_type = other.b_type = other.c_type = other.d_type = TG_F16;
  CHECK(tg_cache_lookup(&c, &other, NULL, NULL) == NULL);
  tg_tune_cache foreign = c;
  snprintf(foreign.device.name, sizeof foreign.device.name, "another GPU");
  CHECK(tg_cache_lookup(&foreign, &p, NULL, NULL) == NULL && tg_cache_usable_count(&foreign) == 0);
  /* Putting the same device, class and shape replaces. */
  tg_cache_entry again;
  tg_cache_entry_of(&dev, &p, "k9", 9.0, &again);
  CHECK(tg_cache_put(&c, &again) == 0 && c.count == 4);
  CHECK((e = tg_cache_lookup(&c, &p, NULL, NULL)) && strcmp(e->kernel, "k9") == 0);
  tg_cache_clear(&c);
}

/* A lookup filter that refuses one kernel name. */
static int refuse_k9(const tg_cache_entry *e, const tg_problem *p, void *ctx) {
  (void)p;
  (void)ctx;
  return strcmp(e->kernel, "k9") != 0;
}

static void test_lookup_skips_refused(void) {
  tg_cache_device dev;
  tg_device_virtual_identity(H100_SM, H100_SMS, &dev);
  tg_tune_cache c;
  tg_cache_init(&c, &dev);
  tg_problem p;
  memset(&p, 0, sizeof p);
  p.input = TG_IN_BF16;
  p.a_type = p.b_type = p.c_type = p.d_type = TG_BF16;
  p.align_a = p.align_b = 16;
  p.m = p.n = p.k = 4096;
  p.batch = 1;
  tg_cache_entry e;
  tg_cache_entry_of(&dev, &p, "k9", 1.0, &e);
  tg_cache_put(&c, &e);
  p.k = 8192;
  tg_cache_entry_of(&dev, &p, "k1", 1.0, &e);
  tg_cache_put(&c, &e);
  p.k = 4096;
  const tg_cache_entry *hit = tg_cache_lookup(&c, &p, refuse_k9, NULL);
  CHECK(hit && strcmp(hit->kernel, "k1") == 0);
  tg_cache_clear(&c);
}

static void test_planner_uses_cache(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, H100_SM, H100_SMS) == TG_OK);
  CHECK(tg_cache_count(h) == 0 && strcmp(tg_cache_warnings(h), "") == 0);
  const char *tuned = second_choice();
  if (!tuned) {
    tg_destroy(h);
    return;
  }
  tg_gemm g;
  request(&g, 4096, 4096, 4096);
  char untuned[64];
  snprintf(untuned, sizeof untuned, "%s", choice(h, &g));
  CHECK_MSG(strcmp(untuned, tuned) != 0, "the heuristic already picks %s: pick another kernel",
            tuned);
  CHECK_MSG(tg_cache_add(h, &g, tuned, 300.0) == TG_OK, "%s", tg_last_error(h));
  CHECK(tg_cache_count(h) == 1);
  CHECK(strcmp(choice(h, &g), tuned) == 0);
  /* The nearest bucket serves neighbours; far shapes keep the heuristic. */
  tg_gemm near = g;
  near.m = near.n = 4000;
  CHECK(strcmp(choice(h, &near), tuned) == 0);
  tg_gemm far;
  request(&far, 256, 256, 256);
  tg_handle *plain = NULL;
  tg_create_virtual(&plain, H100_SM, H100_SMS);
  CHECK(strcmp(choice(h, &far), choice(plain, &far)) == 0);
  /* A forced kernel still wins over the cache. */
  tg_gemm forced = g;
  forced.kernel = "ref";
  CHECK(strcmp(choice(h, &forced), "ref") == 0);
  /* Another device's handle does not see this one's entries. */
  CHECK(tg_cache_count(plain) == 0);
  tg_destroy(plain);
  tg_destroy(h);
}

/* The canonical problem of a column-major-D request shares the row-major one's entry. */
static void test_canonical_sharing(void) {
  tg_handle *h = NULL;
  CHECK(tg_create_virtual(&h, H100_SM, H100_SMS) == TG_OK);
  const char *tuned = second_choice();
  if (!tuned) {
    tg_destroy(h);
    return;
  }
  /* Row-major D = A·B^T (A k-major, B k-major), m = 2048, n = 8192. */
  tg_gemm g;
  request(&g, 2048, 8192, 4096);
  CHECK(tg_cache_add(h, &g, tuned, 100.0) == TG_OK);
  /* Column-major D of the transposed product: D^T (8192×2048) = B·A^T stored column-major is
   * computed as its transpose 2048×8192 = A·B^T: the same canonical problem. */
  tg_gemm t;
  tg_gemm_init(&t, 8192, 2048, 4096, TG_BF16, TG_BF16);
  t.a_order = TG_ROW_MAJOR; /* the 8192×4096 operand, K-major */
  t.b_order = TG_COL_MAJOR; /* the 4096×2048 operand, K-major */
  t.c_order = TG_COL_MAJOR;
  CHECK(strcmp(choice(h, &t), tuned) == 0);
  tg_destroy(h);
}

static void test_cache_add_errors(void) {
  tg_handle *h = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  tg_gemm g;
  request(&g, 512, 512, 512);
  CHECK(tg_cache_add(h, &g, NULL, 1.0) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "'kernel'"));
  CHECK(tg_cache_add(h, &g, "no_such_kernel", 1.0) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "'kernel'"));
  CHECK(tg_cache_add(h, &g, "ref", 1.0) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "'kernel'"));
  for (int i = 0; i < tg_kernel_count(); ++i) {
    tg_kernel_info k;
    tg_kernel_get(i, &k);
    if (k.rung >= 1 && k.rung <= TG_PLAN_TEACHING_RUNGS) {
      CHECK_MSG(tg_cache_add(h, &g, k.name, 1.0) == TG_ERR_INVALID_VALUE,
                "teaching kernel %s cached", k.name);
      break;
    }
  }
  const char *any = have("sm80_128x128x64") ? "sm80_128x128x64" : NULL;
  if (any) {
    CHECK(tg_cache_add(h, &g, any, 0.0) == TG_ERR_INVALID_VALUE &&
          strstr(tg_last_error(h), "'us'"));
    CHECK(tg_cache_add(h, &g, any, 1.0 / 0.0) == TG_ERR_INVALID_VALUE);
    tg_gemm empty = g;
    empty.k = 0;
    CHECK(tg_cache_add(h, &empty, any, 1.0) == TG_ERR_INVALID_VALUE);
    g.m = -1;
    CHECK(tg_cache_add(h, &g, any, 1.0) == TG_ERR_INVALID_VALUE && strstr(tg_last_error(h), "'m'"));
  }
  if (have("sm80_tf32_128x128x32")) { /* a kernel that cannot serve bf16 */
    request(&g, 512, 512, 512);
    CHECK(tg_cache_add(h, &g, "sm80_tf32_128x128x32", 1.0) == TG_ERR_NOT_SUPPORTED);
  }
  CHECK(tg_cache_count(h) == 0);
  CHECK(tg_cache_add(NULL, &g, "ref", 1.0) == TG_ERR_INVALID_VALUE);
  CHECK(tg_cache_count(NULL) == 0 && strcmp(tg_cache_warnings(NULL), "") == 0);
  tg_destroy(h);
}

static void test_round_trip(void) {
  char path[PATH_BYTES], text1[TEXT_BYTES], text2[TEXT_BYTES];
  path_in_dir(path, "nested/dir/tune.txt"); /* directories are created */
  tg_handle *h = NULL, *h2 = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  const int64_t shapes[][3] = {{4096, 4096, 4096}, {1, 4096, 4096}, {777, 1333, 555}};
  int added = 0;
  for (int i = 0; i < 3; ++i) {
    tg_gemm g;
    request(&g, shapes[i][0], shapes[i][1], shapes[i][2]);
    if (i == 2) g.lda = 556; /* another alignment class */
    tg_check(h, &g);
    char k[64];
    snprintf(k, sizeof k, "%s", tg_last_kernel(h));
    if (strcmp(k, "ref") == 0) continue;
    CHECK_MSG(tg_cache_add(h, &g, k, 10.5 * (i + 1)) == TG_OK, "%s", tg_last_error(h));
    ++added;
  }
  CHECK(tg_cache_count(h) == added);
  CHECK_MSG(tg_cache_save(h, path) == TG_OK, "%s", tg_last_error(h));
  read_text(path, text1, sizeof text1);
  CHECK(text1[0] == '#');
  tg_create_virtual(&h2, H100_SM, H100_SMS);
  CHECK(tg_cache_load(h2, path) == TG_OK);
  CHECK(tg_cache_count(h2) == added && strcmp(tg_cache_warnings(h2), "") == 0);
  for (int i = 0; i < 3; ++i) { /* the same choices */
    tg_gemm g;
    request(&g, shapes[i][0], shapes[i][1], shapes[i][2]);
    if (i == 2) g.lda = 556;
    char a[64];
    snprintf(a, sizeof a, "%s", choice(h, &g));
    CHECK(strcmp(a, choice(h2, &g)) == 0);
  }
  /* Saving what was loaded writes the same text. */
  CHECK(tg_cache_save(h2, path) == TG_OK);
  read_text(path, text2, sizeof text2);
  CHECK(strcmp(text1, text2) == 0);
  /* A file that does not exist is an empty cache; a directory cannot be read. */
  char missing[PATH_BYTES];
  path_in_dir(missing, "missing.txt");
  CHECK(tg_cache_load(h2, missing) == TG_OK && tg_cache_count(h2) == 0);
  CHECK(tg_cache_load(h2, g_dir) == TG_ERR_INVALID_VALUE && strstr(tg_last_error(h2), "'path'"));
  /* A path that cannot be written. */
  char bad[PATH_BYTES];
  path_in_dir(bad, "missing.txt/under/a/file");
  write_text(missing, "");
  CHECK(tg_cache_save(h, bad) == TG_ERR_INVALID_VALUE && strstr(tg_last_error(h), "'path'"));
  tg_destroy(h2);
  tg_destroy(h);
}

static void test_corrupt_and_foreign_lines(void) {
  char path[PATH_BYTES], prefix[512], text[TEXT_BYTES], saved[TEXT_BYTES];
  const char *k = second_choice();
  if (!k) return;
  path_in_dir(path, "corrupt.txt");
  own_device_prefix(prefix, sizeof prefix);
  char long_line[TG_CACHE_LINE_BYTES + 100];
  memset(long_line, 'x', sizeof long_line - 1);
  long_line[sizeof long_line - 1] = '\0';
  snprintf(
      text, sizeof text,
      "# comment\n"
      "\n"
      "%s in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 m=4096 n=4096 k=4096 batch=1 "
      "kernel=%s us=300.0\n"                                               /* 3: good */
      "garbage that is not an entry\n"                                     /* 4 */
      "%s in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 m=4096\n" /* 5: truncated */
      "v7 device=\"x\"\n"                                                  /* 6: version */
      "%s in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 m=64 n=64 k=64 batch=1 "
      "kernel=gone_kernel us=1\n" /* 7 */
      "v1 device=\"NVIDIA A100-SXM4-80GB\" sms=108 cuda=12.4 in=bf16 ab=bf16/bf16 cd=bf16/bf16 "
      "a=row b=col align=16 m=4096 n=4096 k=4096 batch=1 kernel=%s us=500.0\n" /* 8: foreign */
      "%s\n"                                                                   /* 9: too long */
      "%s in=bf16 ab=bf16/bf16 cd=bf16/bf16 a=row b=col align=16 m=64 n=64 k=64 batch=1 kernel=ref "
      "us=1\n" /* 10: ref */
      "%s in=f16 ab=f16/f16 cd=f16/f16 a=row b=col align=16 m=64 n=64 k=64 batch=1 kernel=%s "
      "us=2.5\n", /* 11: good */
      prefix, k, prefix, prefix, k, long_line, prefix, prefix, k);
  write_text(path, text);
  tg_handle *h = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  CHECK(tg_cache_load(h, path) == TG_OK);
  CHECK(tg_cache_count(h) == 2);
  const char *w = tg_cache_warnings(h);
  static const char *const expected[] = {
      "line 4: ignored: not a cache entry", "line 5: ignored: field 'n' is missing",
      "line 6: ignored: format v7",         "line 7: ignored: kernel 'gone_kernel'",
      "line 8: 1 entry for another device", "line 9: ignored: longer than",
      "line 10: ignored: kernel 'ref'"};
  for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i)
    CHECK_MSG(strstr(w, expected[i]) != NULL, "warnings lack '%s':\n%s", expected[i], w);
  CHECK_MSG(strstr(w, "line 3") == NULL && strstr(w, "line 11") == NULL, "good lines warned:\n%s",
            w);
  /* The planner uses the good line; the foreign entry is kept and saved again. */
  tg_gemm g;
  request(&g, 4096, 4096, 4096);
  CHECK(strcmp(choice(h, &g), k) == 0);
  CHECK(tg_cache_save(h, path) == TG_OK);
  read_text(path, saved, sizeof saved);
  CHECK(strstr(saved, "NVIDIA A100-SXM4-80GB") != NULL && strstr(saved, "garbage") == NULL);
  /* A load replaces: an empty file empties the cache and its warnings. */
  write_text(path, "");
  CHECK(tg_cache_load(h, path) == TG_OK && tg_cache_count(h) == 0 &&
        tg_cache_warnings(h)[0] == '\0');
  /* A cached kernel that cannot serve its request (here: the entry claims fp8 inputs for a
   * 16-bit-only kernel) is skipped: the heuristic decides. */
  snprintf(text, sizeof text,
           "%s in=fp8 ab=e4m3/e4m3 cd=bf16/bf16 a=row b=col align=16 m=4096 n=4096 k=4096 batch=1 "
           "kernel=%s us=1\n",
           prefix, k);
  write_text(path, text);
  CHECK(tg_cache_load(h, path) == TG_OK && tg_cache_count(h) == 1);
  tg_gemm f8;
  tg_gemm_init(&f8, 4096, 4096, 4096, TG_E4M3, TG_BF16);
  f8.b_order = TG_COL_MAJOR;
  tg_handle *plain = NULL;
  tg_create_virtual(&plain, H100_SM, H100_SMS);
  char expect[64];
  snprintf(expect, sizeof expect, "%s", choice(plain, &f8));
  CHECK(strcmp(choice(h, &f8), expect) == 0 && strcmp(expect, k) != 0);
  tg_destroy(plain);
  tg_destroy(h);
}

static void test_many_warnings_are_bounded(void) {
  char path[PATH_BYTES];
  path_in_dir(path, "many.txt");
  FILE *f = fopen(path, "w");
  if (!f) return;
  for (int i = 0; i < 2000; ++i) fprintf(f, "junk line %d\n", i);
  fclose(f);
  tg_handle *h = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  CHECK(tg_cache_load(h, path) == TG_OK);
  const char *w = tg_cache_warnings(h);
  CHECK(strlen(w) < TG_CACHE_WARNING_BYTES && strstr(w, "more") != NULL &&
        strstr(w, "line 1:") != NULL);
  tg_destroy(h);
}

static void test_default_path(void) {
  char buf[PATH_BYTES], path[PATH_BYTES];
  path_in_dir(path, "env.txt");
  setenv("TILEGEMM_CACHE", path, 1);
  CHECK(tg_cache_default_path(buf, sizeof buf) == TG_OK && strcmp(buf, path) == 0);
  CHECK(tg_cache_default_path(buf, 4) == TG_ERR_INVALID_VALUE);
  CHECK(tg_cache_default_path(NULL, 4) == TG_ERR_INVALID_VALUE);
  /* NULL paths of load and save use it. */
  tg_handle *h = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  tg_gemm g;
  request(&g, 1024, 1024, 1024);
  const char *k = have("sm80_128x128x64") ? "sm80_128x128x64" : NULL;
  if (k) {
    CHECK(tg_cache_add(h, &g, k, 5.0) == TG_OK);
    CHECK(tg_cache_save(h, NULL) == TG_OK && access(path, R_OK) == 0);
    tg_handle *h2 = NULL;
    tg_create_virtual(&h2, H100_SM, H100_SMS);
    CHECK(tg_cache_load(h2, NULL) == TG_OK && tg_cache_count(h2) == 1);
    tg_destroy(h2);
  }
  setenv("TILEGEMM_CACHE", "", 1);
  CHECK(tg_cache_default_path(buf, sizeof buf) == TG_ERR_NOT_SUPPORTED);
  CHECK(tg_cache_save(h, NULL) == TG_ERR_NOT_SUPPORTED);
  CHECK(tg_cache_load(h, NULL) == TG_OK && tg_cache_count(h) == 0);
  unsetenv("TILEGEMM_CACHE");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  CHECK(tg_cache_default_path(buf, sizeof buf) == TG_OK &&
        strcmp(buf, "/xdg/tilegemm/tune.txt") == 0);
  setenv("XDG_CACHE_HOME", "relative", 1);
  setenv("HOME", "/home/someone", 1);
  CHECK(tg_cache_default_path(buf, sizeof buf) == TG_OK &&
        strcmp(buf, "/home/someone/.cache/tilegemm/tune.txt") == 0);
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  CHECK(tg_cache_default_path(buf, sizeof buf) == TG_ERR_NOT_SUPPORTED);
  tg_destroy(h);
}

/* Is there a row tg_tune would time for this input class on sm_90? */
static int tunable_on_h100(tg_input_class in) {
  for (int i = 0; i < tg_registry_count(); ++i) {
    const tg_kernel *k = tg_registry_at(i);
    if (tg_plan_tunable(k) && (k->inputs & TG_MASK(in)) && k->sm_min <= H100_SM &&
        k->sm_max >= H100_SM)
      return 1;
  }
  return 0;
}

/* tg_tune checks its arguments before it needs a device. */
static void test_tune_arguments(void) {
  tg_handle *h = NULL;
  tg_create_virtual(&h, H100_SM, H100_SMS);
  tg_gemm g;
  request(&g, 256, 512, 384);
  tg_tune_result r;
  tg_tune_options o;
  tg_tune_options_init(&o);
  CHECK(o.warmup >= 0 && o.iterations >= 1 && o.flush_l2 == 1);
  void *a = (void *)(uintptr_t)0x100000, *b = (void *)(uintptr_t)0x200000,
       *d = (void *)(uintptr_t)0x300000;
  CHECK(tg_tune(h, &g, a, b, NULL, d, 0, NULL, &r) ==
        (tunable_on_h100(TG_IN_BF16) ? TG_ERR_NO_DEVICE : TG_ERR_NOT_SUPPORTED));
  CHECK(tg_tune(h, &g, a, b, NULL, d, 0, NULL, NULL) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "'result'"));
  o.iterations = 0;
  CHECK(tg_tune(h, &g, a, b, NULL, d, 0, &o, &r) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "iterations"));
  tg_tune_options_init(&o);
  o.warmup = -1;
  CHECK(tg_tune(h, &g, a, b, NULL, d, 0, &o, &r) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "warmup"));
  CHECK(tg_tune(h, &g, NULL, b, NULL, d, 0, NULL, &r) == TG_ERR_INVALID_VALUE &&
        strstr(tg_last_error(h), "'A'"));
  g.k = 0;
  CHECK(tg_tune(h, &g, a, b, NULL, d, 0, NULL, &r) == TG_ERR_NOT_SUPPORTED);
  /* fp32 inputs: NOT_SUPPORTED unless some tunable row takes them on sm_90. */
  tg_gemm f;
  tg_gemm_init(&f, 64, 64, 64, TG_F32, TG_F32);
  CHECK(tg_tune(h, &f, a, b, NULL, d, 0, NULL, &r) ==
        (tunable_on_h100(TG_IN_F32) ? TG_ERR_NO_DEVICE : TG_ERR_NOT_SUPPORTED));
  CHECK(tg_tune(NULL, &g, a, b, NULL, d, 0, NULL, &r) == TG_ERR_INVALID_VALUE);
  tg_destroy(h);
}

int main(void) {
  snprintf(g_dir, sizeof g_dir, "/tmp/tg_cache_test_XXXXXX");
  if (!mkdtemp(g_dir)) {
    perror("mkdtemp");
    return 1;
  }
  test_line_format();
  test_fp8_key_fields();
  test_bad_lines();
  test_buckets_and_lookup();
  test_lookup_skips_refused();
  test_planner_uses_cache();
  test_canonical_sharing();
  test_cache_add_errors();
  test_round_trip();
  test_corrupt_and_foreign_lines();
  test_many_warnings_are_bounded();
  test_default_path();
  test_tune_arguments();
  char cmd[PATH_BYTES + 16];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", g_dir);
  return tg_test_finish("test_tune_cache");
}
