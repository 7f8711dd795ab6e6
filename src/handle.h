/*
 * handle.h — the library context (struct tg_handle) and the one way errors are reported.
 */
#ifndef TG_HANDLE_H
#define TG_HANDLE_H

#include <stddef.h>
#include "plan_memo.h"
#include "tilegemm.h"
#include "tune_cache.h"

#define TG_MESSAGE_BYTES 512

struct tg_handle {
  int device;                  /* CUDA ordinal; -1 for a virtual handle */
  int sm;                      /* compute capability, major*10 + minor */
  int sm_count;
  void *workspace;             /* device scratch owned by the handle, grown on demand */
  size_t workspace_bytes;
  unsigned *sync_flags;        /* readiness flags of the kernels (problem.h), zeroed; lazily */
  unsigned sync_epoch;         /* launches so far (mod 2^32, skipping 0): the next epoch */
  const char *last_kernel;     /* static string from the registry, or "" */
  tg_tune_cache cache;         /* the planner's memory of tg_tune (tune_cache.h) */
  tg_plan_memo memo;           /* the last few plans (plan_memo.h) */
  char error[TG_MESSAGE_BYTES];
};

/* Records a failure: formats the message into h->error (or the thread's fallback buffer when
 * h is NULL) and returns s. */
tg_status tg_fail(tg_handle *h, tg_status s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Clears the handle's message; returns TG_OK. */
tg_status tg_succeed(tg_handle *h);

#endif /* TG_HANDLE_H */
