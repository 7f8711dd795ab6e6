/*
 * gpu_case.h — one GPU test case, done the way docs/testing.md says: fresh random inputs (the
 * case's seed mixed with the process's tg_case_seed_base), rogue values in every padding, guard
 * bands around every buffer, D poisoned with NaN, C full of NaN when beta == 0, and afterwards:
 * A, B, C, bias and every byte outside D's elements unchanged, every element of D within the
 * bound of the fp64 oracle, and optionally a second run into freshly poisoned D that must match
 * bit for bit. Integer D has no NaN to poison with, so it always runs twice, the second time
 * poisoned with another pattern: an element left unwritten differs between the runs.
 *
 * TILEGEMM_TEST_UNWRITTEN_C=1 (the sanitizer script's initcheck runs): with beta == 0, C is
 * allocated but never written, so compute-sanitizer initcheck reports any read of it.
 *
 * Exact-extent mode (exact_extent, or every case with TILEGEMM_TEST_EXACT_EXTENT=1, as the
 * sanitizer script's memcheck runs set it): each operand is allocated at exactly the bytes the request
 * addresses, per batch (batch − 1)·stride + extent with a row-major R×C extent (R − 1)·ld + C,
 * and ends where its allocation ends, with no guard band behind it: under compute-sanitizer
 * memcheck any read or write past an operand's last element crosses the allocation.
 *
 * Graph mode (graph): the request is also captured into a CUDA graph on a stream of its own and
 * replayed into freshly poisoned D (before the eager runs with TG_CASE_GRAPH_FIRST, so that a
 * capture meets a handle nothing has run on yet); its D must equal the eager one bit for bit.
 */
#ifndef TG_GPU_CASE_H
#define TG_GPU_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

typedef struct tg_case_options {
  uint64_t seed;
  int exact;  /* small-integer data, bitwise comparison */
  int pad_ld; /* where an ld is 0 (packed), use packed + pad_ld instead */
  int64_t
      offset[5];   /* A, B, C, D and bias pointers moved by this many elements (alignment tests) */
  int c_is_d;      /* C and D are the same buffer (in place) */
  int determinism; /* run twice; outputs must be bitwise identical */
  int allow_refusal; /* NOT_SUPPORTED / MISALIGNED is an accepted answer */
  int gpu_oracle;    /* compare with tg_reference instead of the CPU oracle (large cases) */
  int null_unread;   /* pass NULL for operands the contract says are not read */
  int exact_extent;  /* operands allocated at exactly their extent, no guard bands */
  int graph;         /* 0, or TG_CASE_GRAPH_AFTER / TG_CASE_GRAPH_FIRST: also run captured */
  int planned;       /* run through tg_plan_create / tg_plan_run instead of tg_matmul */
} tg_case_options;

enum { TG_CASE_GRAPH_AFTER = 1, TG_CASE_GRAPH_FIRST = 2 };

typedef enum { TG_CASE_PASS = 0, TG_CASE_REFUSED, TG_CASE_FAIL } tg_case_outcome;

/* Runs *g (the ld fields may be filled in by pad_ld) through tg_matmul on the handle's device.
 * On failure, msg says what and where, with the case's description. */
tg_case_outcome tg_run_case(tg_handle *h, const tg_gemm *g, const tg_case_options *o, char *msg,
                            size_t msg_len);

/* One line describing a request, for failure messages. */
void tg_describe_case(char *buf, size_t n, const tg_gemm *g, const tg_case_options *o);

/* The `tilegemm verify` command line (with TILEGEMM_TEST_SEED) that repeats case *g, *o. */
void tg_case_command(char *buf, size_t n, const tg_gemm *g, const tg_case_options *o);

/* The seed every case of this process mixes into its own: TILEGEMM_TEST_SEED if set, else fresh
 * from the clock, so that each run meets new inputs (docs/testing.md). Printed once, on first use,
 * with the line that repeats the run. */
unsigned long long tg_case_seed_base(void);

/* The largest error/bound ratio of the cases of this process that passed (-1: none yet). */
double tg_case_worst_ratio(void);

/* The kernel that served the last case's tg_matmul ("" before any); tg_last_kernel would name
 * the GPU oracle's run instead once the case compared against it. */
const char *tg_case_last_kernel(void);

#endif /* TG_GPU_CASE_H */
