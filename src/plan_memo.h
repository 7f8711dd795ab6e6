/*
 * plan_memo.h — the handle's memory of its last few plans, so that a request it has planned
 * before (the same layer run again, the usual case in a model) skips the planner: validation
 * still runs on every call, the choice does not. Pure C, no CUDA calls.
 *
 * A plan is remembered for the whole canonical problem except what planning never reads (the
 * operand, workspace and flag pointers; their alignment, which planning reads, stays in the
 * key), for the forced kernel's name, and for the generation of the tuning cache: any change
 * to the cache (tune_cache.c counts them) makes every remembered plan miss.
 */
#ifndef TG_PLAN_MEMO_H
#define TG_PLAN_MEMO_H

#include "plan.h"
#include "problem.h"

/* Plans remembered per handle; the oldest gives way. */
#define TG_PLAN_MEMO_ENTRIES 8
/* Longest forced kernel name remembered (longer ones are planned every time). */
#define TG_PLAN_MEMO_NAME_BYTES 64

typedef struct tg_plan_memo_entry {
  int used;
  tg_problem key;                       /* the problem with the pointer fields zeroed */
  char forced[TG_PLAN_MEMO_NAME_BYTES]; /* "" for the automatic choice */
  unsigned cache_generation;
  tg_plan plan;
} tg_plan_memo_entry;

/* All zero bytes is the empty memo (the handle is calloc'ed). */
typedef struct tg_plan_memo {
  tg_plan_memo_entry entries[TG_PLAN_MEMO_ENTRIES];
  int next; /* the entry the next store replaces */
} tg_plan_memo;

/* 1 and *plan when the plan of p (built by tg_problem_build), with kernel `forced` (NULL or
 * "auto": the automatic choice) under cache generation `generation`, is remembered; else 0. */
int tg_plan_memo_find(const tg_plan_memo *m, const tg_problem *p, const char *forced,
                      unsigned generation, tg_plan *plan);

/* Remembers *plan as the plan of p (as for tg_plan_memo_find). */
void tg_plan_memo_store(tg_plan_memo *m, const tg_problem *p, const char *forced,
                        unsigned generation, const tg_plan *plan);

#endif /* TG_PLAN_MEMO_H */
