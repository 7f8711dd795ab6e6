/* plan_memo.c — see plan_memo.h. */
#include "plan_memo.h"

#include <string.h>

/* The key of p: p itself (tg_problem_build zeroes it first, padding included, so keys compare
 * bytewise) without the fields planning never reads. */
static void key_of(const tg_problem *p, tg_problem *key) {
  memcpy(key, p, sizeof *key);
  key->a = key->b = key->c = key->bias = NULL;
  key->d = NULL;
  key->workspace = NULL;
  key->workspace_bytes = 0;
  key->sync_flags = NULL;
  key->scale_a = key->scale_b = NULL;
}

/* The remembered name of a forced kernel: "" for the automatic choice; 0 when too long. */
static int forced_name(const char *forced, char *out) {
  if (!forced || strcmp(forced, "auto") == 0) {
    out[0] = '\0';
    return 1;
  }
  const size_t n = strlen(forced);
  if (n >= TG_PLAN_MEMO_NAME_BYTES) return 0;
  memcpy(out, forced, n + 1);
  return 1;
}

int tg_plan_memo_find(const tg_plan_memo *m, const tg_problem *p, const char *forced,
                      unsigned generation, tg_plan *plan) {
  char name[TG_PLAN_MEMO_NAME_BYTES];
  if (!forced_name(forced, name)) return 0;
  tg_problem key;
  key_of(p, &key);
  for (int i = 0; i < TG_PLAN_MEMO_ENTRIES; ++i) {
    const tg_plan_memo_entry *e = &m->entries[i];
    if (e->used && e->cache_generation == generation && strcmp(e->forced, name) == 0 &&
        memcmp(&e->key, &key, sizeof key) == 0) {
      *plan = e->plan;
      return 1;
    }
  }
  return 0;
}

void tg_plan_memo_store(tg_plan_memo *m, const tg_problem *p, const char *forced,
                        unsigned generation, const tg_plan *plan) {
  tg_plan_memo_entry *e = &m->entries[m->next];
  if (!forced_name(forced, e->forced)) return;
  key_of(p, &e->key);
  e->cache_generation = generation;
  e->plan = *plan;
  e->used = 1;
  m->next = (m->next + 1) % TG_PLAN_MEMO_ENTRIES;
}
