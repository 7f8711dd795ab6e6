/*
 * kernel.h — what a kernel family tells the library about each kernel: one registry row.
 *
 * A row is data: the planner, tg_check and `tilegemm list` all read the same table
 * (registry.c), so they cannot disagree. Adding a kernel is one row plus its launcher.
 * Valid C and CUDA C++ (launchers are defined in .cu files with C linkage).
 */
#ifndef TG_KERNEL_H
#define TG_KERNEL_H

#include <stddef.h>
#include "problem.h"
#include "tma_desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Every kernel's entry point: launch on `stream` for a validated canonical problem.
 *  Must not allocate, print or synchronize. Returns TG_ERR_CUDA when a launch-time attribute
 *  call fails; launch errors are collected by the caller with cudaGetLastError. */
typedef tg_status (*tg_launch_fn)(const tg_problem *p, struct CUstream_st *stream);

/** Optional: device scratch bytes a problem needs (NULL = none). */
typedef size_t (*tg_workspace_fn)(const tg_problem *p);

/** Optional: the split-K factor the row uses for a problem (NULL = never splits). */
typedef int (*tg_splits_fn)(const tg_problem *p);

/** Optional: how many waves of whole tiles the row's launch for p equals on p->sm_count SMs,
 *  for rows that do not run one CTA per tile and wave (stream-K spreads the last waves over
 *  all SMs). NULL = CTAs ÷ (SMs × occupancy), rounded up. */
typedef double (*tg_waves_fn)(const tg_problem *p);

/** Optional extra constraint beyond the row's data; returns 0 if it can serve p, else writes
 *  a reason ("needs k % 8 == 0") into why and returns a tg_status. why_len may be 0 (why NULL):
 *  the planner asks without wanting the reason; snprintf writes nothing then. */
typedef tg_status (*tg_extra_check_fn)(const tg_problem *p, char *why, size_t why_len);

/** Optional, for rows that load through TMA: the tensor maps the launch for p would encode,
 *  up to `max` of them into out; returns how many (-1 if the row would not launch p). The row's
 *  check holds them within the driver's limits (tma_desc.h), and the CPU tests hold it to that. */
typedef int (*tg_tma_maps_fn)(const tg_problem *p, tg_tma_desc *out, int max);

/** A launch prepared once and run many times (a plan's runs, tilegemm.h's tg_plan_run): what a
 *  row's `prepare` hook works out for a problem that does not depend on its data pointers (the
 *  TMA maps' shapes, the grid, the scheduler's numbers), kept in `state`, and the function that
 *  launches it. The state is the row's own; the library only keeps it, in place (a row may keep
 *  pointers into it), and hands it back to `run`. */
#define TG_PREPARED_STATE_BYTES 1024
#define TG_PREPARED_ALIGN 128 /* a CUtensorMap's alignment (cuda.h) */
#ifdef __cplusplus
#define TG_PREPARED_ALIGNAS alignas(TG_PREPARED_ALIGN)
#else
#define TG_PREPARED_ALIGNAS _Alignas(TG_PREPARED_ALIGN)
#endif
typedef struct tg_prepared tg_prepared;

/** Launches a prepared problem on `stream`: p is the problem `prepare` was given with other
 *  data, workspace and scale pointers (every alignment the same). May update the state (the
 *  addresses its maps hold). Must not allocate, print or synchronize; errors as tg_launch_fn. */
typedef tg_status (*tg_prepared_run_fn)(tg_prepared *prep, const tg_problem *p,
                                        struct CUstream_st *stream);

struct tg_prepared {
  TG_PREPARED_ALIGNAS unsigned char state[TG_PREPARED_STATE_BYTES];
  tg_prepared_run_fn run;
};

/** Optional: prepares the launch of p (a validated problem as tg_launch_fn takes it, its data
 *  pointers placeholders of the alignment the runs will have) on the current device, so that
 *  each run does only what depends on the pointers. TG_OK: prep->run launches p's runs.
 *  Anything else: the row's `launch` serves them (nothing is kept). */
typedef tg_status (*tg_prepare_fn)(const tg_problem *p, tg_prepared *prep);

/* Masks for tg_kernel fields. */
#define TG_MASK(x) (1u << (unsigned)(x))
#define TG_ORDERS_ANY (TG_MASK(TG_ROW_MAJOR) | TG_MASK(TG_COL_MAJOR))
#define TG_FLOAT_OUTPUTS (TG_MASK(TG_F32) | TG_MASK(TG_F16) | TG_MASK(TG_BF16))
#define TG_INT_OUTPUTS (TG_MASK(TG_S32) | TG_MASK(TG_S8))
#define TG_ALL_OUTPUTS (TG_FLOAT_OUTPUTS | TG_INT_OUTPUTS)
#define TG_ALL_INPUTS ((1u << TG_IN_COUNT) - 1u)
/* Compute-capability range of kernels built for every supported architecture. */
#define TG_SM_ANY_MIN 80
#define TG_SM_ANY_MAX 1000

typedef struct tg_kernel {
  const char *name;     /* unique; what tg_gemm.kernel names */
  const char *family;   /* "ref", "simt", "f32", "sm80", "sm90" */
  const char *summary;  /* one line for `tilegemm list` */
  int rung;             /* ladder step (1..), 0 if not a ladder rung */
  int sm_min, sm_max;   /* device compute capability range it runs on */
  int auto_pick;        /* planner may choose it unasked */
  int rank;             /* planner preference: breaks ties of equal estimated cost
                              (plan_cost.c), the higher rank winning */
  unsigned inputs;      /* mask of TG_MASK(tg_input_class) */
  unsigned outputs;     /* mask of TG_MASK(d_type) */
  unsigned c_same_as_d; /* 1: needs c_type == d_type when C is read */
  unsigned a_orders;    /* mask of canonical A orders */
  unsigned b_orders;    /* mask of canonical B orders */
  int align_ab;         /* bytes A and B pointers, ld and strides must be multiples of */
  int align_cd;         /* the same for C and D */
  int tile_m, tile_n, tile_k;
  int cluster_m, cluster_n; /* CTAs of a cluster along m and n; 0 = 1. An edge that leaves a
                              cluster short still launches it whole: the spare CTA holds an SM,
                              loads its share of the multicast operand and skips the epilogue */
  int repack;               /* 1: the planner may first copy A or B into the workspace, K-major
                              and 16-byte aligned, when their order or alignment does not fit */
  int occupancy;            /* tiles in flight per SM (planner's wave estimate); 0 = 1 */
  int efficiency;           /* measured throughput of a full wave relative to the best row of
                              its family, percent (planner); 0 = 100. plan_cost.c's family
                              speeds put the families on one scale */
  int tile_overhead_k;      /* the cost of a tile that the math does not hide (epilogue, refilling
                              the pipeline), as the k it equals (planner); 0 = none */
  int c_overhead_k;         /* what reading C adds to tile_overhead_k (planner); 0 = none */
  int c_other_overhead_k;   /* ... C or D of a type other than A's (0: c_overhead_k) */
  int gelu_overhead_k;      /* what GELU adds to it (planner); 0 = none */
  int sync_flags;           /* 1: when its workspace hook asks for scratch, the launch may have
                              CTAs wait on each other through problem.h's readiness flags */
  int memory_waves;         /* 1: each CTA streams an equal share of the operands from DRAM, so
                              a partial last wave takes as long as a whole one in memory time
                              too (planner); its waves hook, if any, returns exact fractions */
  tg_launch_fn launch;
  tg_workspace_fn workspace;     /* may be NULL */
  tg_splits_fn splits;           /* may be NULL */
  tg_waves_fn waves;             /* may be NULL */
  tg_extra_check_fn extra_check; /* may be NULL */
  tg_tma_maps_fn tma_maps;       /* may be NULL */
  tg_prepare_fn prepare;         /* may be NULL: planned runs call `launch` */
} tg_kernel;

#ifdef __cplusplus
}
#endif

#endif /* TG_KERNEL_H */
