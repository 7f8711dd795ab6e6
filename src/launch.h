/*
 * launch.h — a chosen plan on the handle's device: where its parts go in the handle's
 * workspace, the problem its kernel receives, and the enqueueing of its repacks and its kernel.
 * tg_matmul lays a plan out and launches it in one call; a planned request (tg_plan_create)
 * lays out, and has its kernel prepare its launch, once, and each of its runs only binds the
 * run's pointers and launches.
 */
#ifndef TG_LAUNCH_H
#define TG_LAUNCH_H

#include <stddef.h>
#include "handle.h"
#include "kernel.h"
#include "plan.h"

/* A plan for a problem, laid out: the workspace holds [kernel scratch][repacked A][repacked B],
 * each part aligned to TG_WORKSPACE_ALIGN bytes. */
#define TG_WORKSPACE_ALIGN 256
typedef struct tg_launch {
  tg_plan plan;
  /* The problem as the kernel sees it (tg_plan_apply): repacked operands in their new layout.
   * Its pointers are those of the problem it was laid out for; tg_launch_bind sets each
   * launch's. Unused when plan.kernel is NULL (the epilogue alone runs the problem as it is). */
  tg_problem q;
  size_t kernel_bytes; /* the kernel's scratch (its workspace hook), aligned */
  size_t a_at, b_at;   /* where repacked A and B start */
  size_t total;        /* the workspace the launch needs */
  tg_repack_geometry ra, rb;
} tg_launch;

/* Lays out *plan for p, a problem tg_problem_build made (its pointers are not read). Pure C. */
void tg_launch_layout(tg_launch *x, const tg_plan *plan, const tg_problem *p);

/* The problem x's kernel receives for p — p is the problem x was laid out for, or one that
 * differs from it in its operand pointers alone (tg_problem_set_operands) and not in their
 * alignment: x's problem with p's operand pointers, repacked operands in a workspace at
 * `workspace`, and the handle's readiness flags. Pure C. */
void tg_launch_bind(const tg_launch *x, const tg_problem *p, void *workspace, unsigned *sync_flags,
                    tg_problem *q);

/* Has x's kernel prepare its launch into *prep (kernel.h) on the handle's device, which is
 * current, for problems like p (as tg_launch_bind takes them); the handle's workspace already
 * holds x->total bytes. 1 when it did: runs then launch through prep->run. 0 when the row has no
 * `prepare`, the handle is virtual, or preparing failed: runs then take the row's `launch`, which
 * reports any failure. */
int tg_launch_prepare(tg_handle *h, const tg_launch *x, const tg_problem *p, tg_prepared *prep);

/* Grows the handle's workspace to at least `bytes` (the handle's device current), never
 * freeing one that work enqueued or captured earlier may still use (handle.h). */
tg_status tg_workspace_ensure(tg_handle *h, const char *fn, size_t bytes);

/* Collects the launch error, if any, of the work just enqueued under `name`, or reports status
 * s of its launcher. */
tg_status tg_after_launch(tg_handle *h, const char *fn, const char *name, tg_status s);

/* Runs x for p on `stream` on the handle's device: the repacks, then the kernel (through
 * prep->run when prep is not NULL, else the row's launch), or the epilogue alone. Sets the
 * handle's last kernel on success. TG_ERR_NO_DEVICE for a virtual handle. */
tg_status tg_launch_on_device(tg_handle *h, const char *fn, const tg_launch *x, const tg_problem *p,
                              tg_prepared *prep, tg_stream stream);

#endif /* TG_LAUNCH_H */
