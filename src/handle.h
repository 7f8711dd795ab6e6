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
/* Outgrown workspaces a handle can keep: each growth at least doubles the size from
 * TG_WORKSPACE_MIN_BYTES, so this covers any size a device can hold. */
#define TG_RETIRED_WORKSPACES 48

struct tg_handle {
  int device; /* CUDA ordinal; -1 for a virtual handle */
  int sm;     /* compute capability, major*10 + minor */
  int sm_count;
  void *workspace; /* device scratch owned by the handle, grown on demand */
  size_t workspace_bytes;
  /* Workspaces outgrown: kept until tg_destroy, because work enqueued earlier or captured into
   * a CUDA graph may still use them (and cudaFree would stall the device, or break a capture). */
  void *retired[TG_RETIRED_WORKSPACES];
  int retired_count;
  unsigned *sync_flags;    /* readiness flags of the kernels (problem.h), zeroed at creation */
  const char *last_kernel; /* static string from the registry, or "" */
  tg_tune_cache cache;     /* the planner's memory of tg_tune (tune_cache.h) */
  tg_plan_memo memo;       /* the last few plans (plan_memo.h) */
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
