/*
 * trace.h — `tilegemm trace`'s library: one thread's view of a kernel, computed on the host from
 * the layout headers the kernels themselves use (kernels/<family>/<family>_layout.h), so the
 * trace is the kernel's own index arithmetic.
 *
 * For a canonical problem (interface/problem.h, as the kernel receives it), a CTA and a thread,
 * a trace lists what the thread moves in one k-tile: the elements of A and B it loads (global
 * element → shared-memory byte offset, or straight into registers), the elements its math reads
 * from shared memory into registers (operands, mma fragments), and the elements of D it writes.
 * Every element carries its matrix coordinates, its offset from the operand's pointer and its
 * shared-memory offset, so the same lists serve the printed trace, the CPU invariants (the
 * block's threads cover every element of a tile exactly once) and the GPU test, which compares
 * them with what a recording build of the kernel touched (tests/gpu/test_gpu_trace.c).
 * C11; needs no GPU.
 */
#ifndef TG_TRACE_H
#define TG_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which matrix an element belongs to. */
typedef enum tg_trace_operand { TG_TRACE_A = 0, TG_TRACE_B = 1, TG_TRACE_D = 2 } tg_trace_operand;
#define TG_TRACE_OPERANDS 3

/* What moves it. */
typedef enum tg_trace_kind {
  TG_TRACE_LOAD = 0, /* global memory → shared memory (smem ≥ 0) or → registers (smem -1) */
  TG_TRACE_FRAGMENT = 1, /* shared memory → the registers the math reads (operands, fragments) */
  TG_TRACE_STORE = 2,    /* → D */
  TG_TRACE_ACCUM = 3     /* an element of D the thread's accumulators hold (mma.sync layout) */
} tg_trace_kind;
#define TG_TRACE_KINDS 4

/* One element a thread moves. */
typedef struct tg_trace_elem {
  int kind;         /* tg_trace_kind */
  int operand;      /* tg_trace_operand */
  int access;       /* the thread's instruction that moves it, counted per kind from 0 */
  int step;         /* FRAGMENT: the k step of the k-tile it is read at; else 0 */
  int64_t row, col; /* matrix coordinates: A (m, k), B (k, n), D (m, n), canonical frame */
  int64_t offset;   /* elements from the operand's pointer (batch included); -1: nothing is
                        read, the element lies outside the matrix and arrives as zero */
  int64_t smem;     /* byte offset in the kernel's shared memory (see tg_trace_kernel.smem_base);
                        -1: none */
} tg_trace_elem;

/* A growable list of elements. */
typedef struct tg_trace_list {
  tg_trace_elem *v;
  int count, cap;
  int failed; /* 1 after an allocation failed (the list then holds what fit) */
} tg_trace_list;

void tg_trace_list_free(tg_trace_list *l);
void tg_trace_list_clear(tg_trace_list *l);
/* Appends e; on allocation failure sets l->failed and drops it. */
void tg_trace_list_push(tg_trace_list *l, const tg_trace_elem *e);

/* Where a kernel's shared-memory offsets start: each operand's own static array (simt rungs
 * 3-6, whose arrays the compiler places), or one base for the whole kernel (a struct of stages
 * or the dynamic shared memory): offsets then include the stage. */
typedef enum tg_trace_smem_base {
  TG_TRACE_SMEM_NONE = 0,        /* no shared memory for the operands */
  TG_TRACE_SMEM_PER_OPERAND = 1, /* from the start of the operand's array */
  TG_TRACE_SMEM_SHARED = 2       /* from the start of the kernel's shared memory */
} tg_trace_smem_base;

/* One CTA's work. */
typedef struct tg_trace_cta {
  unsigned bx, by, bz;    /* blockIdx */
  int64_t bat, m0, n0;    /* batch, first output row and column */
  int64_t k_begin, k_end; /* the k range it multiplies */
  int k_tiles;            /* k-tiles of tile_k over that range (0 when empty) */
  int split;              /* which of the launch's k splits (0 without split-K) */
} tg_trace_cta;

typedef struct tg_trace_kernel tg_trace_kernel;

/* A traced launch: the kernel, the problem as it receives it, the grid. */
typedef struct tg_trace {
  const tg_trace_kernel *kernel;
  tg_problem p;
  int splits;       /* split-K factor of the launch (1: none); with more, a CTA's stores are
                       partial sums, offsets into the workspace's [split][batch][m][n] */
  unsigned grid[3]; /* gridDim x, y, z */
} tg_trace;

/* What a family tells the trace about one kernel. */
struct tg_trace_kernel {
  const char *name;            /* the registry row's name */
  const char *family;          /* "simt", "ladder", ... */
  const char *summary;         /* what a thread of it does, one line */
  int rung;                    /* ladder rung, 0 if none */
  int block_x, block_y;        /* blockDim (z is 1) */
  int tile_m, tile_n, tile_k;  /* CTA tile; tile_k: the k of one k-tile (1 for rungs 1 and 2) */
  int stages;                  /* shared-memory stages; k-tile kt lands in stage kt % stages */
  int elem_bytes;              /* bytes of an element of A and B */
  unsigned a_orders, b_orders; /* the canonical orders of A and B it reads: bit tg_order set */
  const char *ab_dtype;        /* the input type `tilegemm trace` gives it unless told ("f32") */
  const char *acc_dtype;       /* and the accumulation (NULL: the input type's default) */
  int k_steps;                 /* FRAGMENT steps per k-tile (0: the kernel reads no fragments) */
  int fragments_opaque;        /* 1: the fragment layout is not specified (WMMA) */
  int mma_fragments;           /* 1: FRAGMENTs are mma.sync m16n8k16 fragments (ldmatrix) */
  int smem_descriptors;        /* 1: the math reads A and B from shared memory through wgmma
                                  descriptors: no thread reads operands into registers */
  int stores_opaque;           /* 1: D leaves through shared memory by stores no thread addresses
                                  element by element (TMA): the checks take the accumulators */
  int stale_past_edge;         /* 1: k-tile elements past the matrix may stay unstaged (a box cut
                                  to the rows that exist): stale, multiplied only into outputs
                                  never stored */
  tg_trace_smem_base smem_base;
  /* The grid of the launch t describes (t->p, t->splits), and what its dimensions walk. */
  void (*grid)(const tg_trace *t, unsigned grid[3]);
  const char *grid_note;
  /* The CTA at blockIdx (bx, by, bz); 0, or -1 when the kernel would not run it. */
  int (*cta)(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *out);
  /* Appends what thread tid (threadIdx.x + blockDim.x · threadIdx.y) of CTA c moves in k-tile
   * kt: its LOADs, then its FRAGMENTs (with smem offsets; tg_trace_thread fills in which
   * elements they are). */
  void (*loads)(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, tg_trace_list *out);
  void (*fragments)(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, tg_trace_list *out);
  /* Appends the elements of D thread tid of CTA c writes (after its last k-tile). */
  void (*stores)(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out);
  /* Appends the elements of D thread tid's accumulators hold (kind TG_TRACE_ACCUM, offsets -1
   * outside D), where they are not simply its stores; may be NULL. */
  void (*accumulators)(const tg_trace *t, const tg_trace_cta *c, int tid, tg_trace_list *out);
  /* Writes how the kernel names shared-memory byte offset smem of operand `operand` (e.g.
   * "as_t[3][17]"); may be NULL. */
  void (*smem_name)(const tg_trace *t, int operand, int64_t smem, char *buf, size_t len);
  /* The shared-memory stage k-tile kt of CTA c lands in; NULL: kt % stages. */
  int (*stage)(const tg_trace *t, const tg_trace_cta *c, int kt);
  /* Prints what the family adds after the header for thread tid (its schedule, its role, the
   * producer's TMA boxes, the consumers' descriptors); may be NULL. */
  void (*notes)(FILE *f, const tg_trace *t, const tg_trace_cta *c, int tid, int kt);
};

/* The traced kernels, in ladder order; NULL past the end. */
const tg_trace_kernel *tg_trace_kernel_at(int i);
/* The traced kernel of this registry name, or NULL. */
const tg_trace_kernel *tg_trace_kernel_find(const char *name);

/* Sets up t for kernel k on canonical problem p split `splits` ways along k (1: no split-K;
 * the planner's choice, tg_kernel.splits, for rows that split); the grid follows. */
void tg_trace_init(tg_trace *t, const tg_trace_kernel *k, const tg_problem *p, int splits);

/* Threads of a CTA. */
int tg_trace_threads(const tg_trace *t);

/* The CTA at blockIdx (bx, by, bz): 0, or -1 when it lies outside the grid. */
int tg_trace_cta_at(const tg_trace *t, unsigned bx, unsigned by, unsigned bz, tg_trace_cta *c);

/* The element offset of operand `operand` at matrix coordinates (row, col) of batch bat, from
 * the problem's leading dimensions, orders and batch strides; -1 outside the matrix. */
int64_t tg_trace_offset(const tg_problem *p, int operand, int64_t bat, int64_t row, int64_t col);

/* Everything thread tid of CTA c moves in k-tile kt (LOADs and FRAGMENTs), then, when stores
 * is set, its STOREs. FRAGMENT elements are resolved through the CTA's staging of that k-tile:
 * their row, col and offset are the element the kernel staged at that shared-memory offset.
 * Returns 0, or -1 when the list could not grow. */
int tg_trace_thread(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, int stores,
                    tg_trace_list *out);

/* Every LOAD into shared memory of CTA c's k-tile kt, by all its threads, sorted for
 * tg_trace_thread_staged; 0, or -1 when the list could not grow. */
int tg_trace_staged(const tg_trace *t, const tg_trace_cta *c, int kt, tg_trace_list *staged);
/* tg_trace_thread with the CTA's staging of k-tile kt given (NULL: computed when needed), for
 * callers that trace every thread of a CTA. */
int tg_trace_thread_staged(const tg_trace *t, const tg_trace_cta *c, int tid, int kt, int stores,
                           const tg_trace_list *staged, tg_trace_list *out);

/* The invariants of one CTA's k-tile kt, over all its threads: every element of the A and B
 * k-tiles is loaded exactly once, from its own offset (or as zero outside the matrix), into its
 * own shared-memory offset; every fragment reads an element that was staged; for the simt
 * rungs, the operands a thread reads at each k are exactly those its outputs need; for
 * mma.sync fragments, each lane holds the elements the PTX ISA's layout gives it (m16n8k16,
 * and k8 / k32 for tf32 / int8); the threads' accumulators hold every element of the CTA
 * tile exactly once (kernels with stores_opaque).
 * Returns 0, or -1 with the first violation in err. */
int tg_trace_check_k_tile(const tg_trace *t, const tg_trace_cta *c, int kt, char *err,
                          size_t err_len);

/* The stores of the whole grid: every element of D written exactly once (with split-K: of each
 * split's plane of partial sums), none outside it, each at its own offset; for kernels with
 * stores_opaque, every element of D held by exactly one thread's accumulators. Returns 0, or -1
 * with the first violation in err. */
int tg_trace_check_stores(const tg_trace *t, char *err, size_t err_len);

/* What `tilegemm trace` prints for thread tid of CTA (bx, by, bz) at k-tile kt. Returns 0, or
 * -1 with the reason in err (a CTA or thread outside the launch, a k-tile past the last). */
typedef struct tg_trace_print_options {
  unsigned bx, by, bz;
  int tid;
  int kt;
  int pictures;     /* draw the tiles */
  const char *lead; /* a line printed first (may be NULL) */
} tg_trace_print_options;
int tg_trace_print(FILE *f, const tg_trace *t, const tg_trace_print_options *o, char *err,
                   size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* TG_TRACE_H */
