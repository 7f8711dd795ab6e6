/*
 * registry.h — the one table of kernels, and the generic test of whether a row can serve a
 * problem. Pure C: the planner and `tilegemm list` use it without touching the GPU.
 */
#ifndef TG_REGISTRY_H
#define TG_REGISTRY_H

#include <stddef.h>
#include "kernel.h"

/* All rows, in listing order; *count receives their number. */
const tg_kernel *tg_registry(int *count);

/* The row with this name, or NULL. */
const tg_kernel *tg_registry_find(const char *name);

/* TG_OK when row k can serve p; otherwise NOT_SUPPORTED or MISALIGNED and a reason in why. */
tg_status tg_kernel_can_serve(const tg_kernel *k, const tg_problem *p, char *why, size_t why_len);

#endif /* TG_REGISTRY_H */
