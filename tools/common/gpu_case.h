/*
 * gpu_case.h — one GPU test case, done the way TESTING.md says: fresh random inputs (the
 * case's seed mixed with the process's tg_case_seed_base), rogue values in every padding, guard
 * bands around every buffer, D poisoned with NaN, C full of NaN when beta == 0, and afterwards:
 * A, B, C, bias and every byte outside D's elements unchanged, every element of D within the
 * bound of the fp64 oracle, and optionally a second run into freshly poisoned D that must match
 * bit for bit. Integer D has no NaN to poison with, so it always runs twice, the second time
 * poisoned with another pattern: an element left unwritten differs between the runs.
 *
 * TILEGEMM_TEST_UNWRITTEN_C=1 (the sanitizer script's initcheck runs): with beta == 0, C is
 * allocated but never written, so compute-sanitizer initcheck reports any read of it.
 */
#ifndef TG_GPU_CASE_H
#define TG_GPU_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "tilegemm.h"

typedef struct tg_case_options {
  uint64_t seed;
  int exact;              /* small-integer data, bitwise comparison */
  int pad_ld;             /* where an ld is 0 (packed), use packed + pad_ld instead */
  int64_t offset[5];      /* A, B, C, D and bias pointers moved by this many elements (alignment tests) */
  int c_is_d;             /* C and D are the same buffer (in place) */
  int determinism;        /* run twice; outputs must be bitwise identical */
  int allow_refusal;      /* NOT_SUPPORTED / MISALIGNED is an accepted answer */
  int gpu_oracle;         /* compare with tg_reference instead of the CPU oracle (large cases) */
  int null_unread;        /* pass NULL for operands the contract says are not read */
} tg_case_options;

typedef enum { TG_CASE_PASS = 0, TG_CASE_REFUSED, TG_CASE_FAIL } tg_case_outcome;

/* Runs *g (the ld fields may be filled in by pad_ld) through tg_matmul on the handle's device.
 * On failure, msg says what and where, with the case's description. */
tg_case_outcome tg_run_case(tg_handle *h, const tg_gemm *g, const tg_case_options *o, char *msg,
                            size_t msg_len);

/* One line describing a request, for failure messages. */
void tg_describe_case(char *buf, size_t n, const tg_gemm *g, const tg_case_options *o);

/* The seed every case of this process mixes into its own: TILEGEMM_TEST_SEED if set, else fresh
 * from the clock, so that each run meets new inputs (TESTING.md). Printed once, on first use,
 * with the line that repeats the run. */
unsigned long long tg_case_seed_base(void);

/* The largest error/bound ratio of the cases of this process that passed (-1: none yet). */
double tg_case_worst_ratio(void);

/* The kernel that served the last case's tg_matmul ("" before any); tg_last_kernel would name
 * the GPU oracle's run instead once the case compared against it. */
const char *tg_case_last_kernel(void);

#endif /* TG_GPU_CASE_H */
