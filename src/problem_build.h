/*
 * problem_build.h — turns a validated request into the canonical tg_problem kernels receive.
 */
#ifndef TG_PROBLEM_BUILD_H
#define TG_PROBLEM_BUILD_H

#include "problem.h"
#include "validate.h"

/* Fills *p from a request that passed tg_validate_gemm (and, for real launches,
 * tg_validate_pointers). sm and sm_count describe the device. When alpha == 0 the product
 * vanishes: p->k is set to 0 so no kernel reads A or B. */
void tg_problem_build(tg_problem *p, const tg_gemm *g, const tg_layout *L, const void *A,
                      const void *B, const void *C, void *D, int sm, int sm_count);

/* Sets the data pointers of a problem tg_problem_build made (the user's A, B, C, D, placed in
 * the canonical frame as it places them) and their alignments; every other field stays. A plan's
 * run gives its problem the run's pointers this way. */
void tg_problem_set_operands(tg_problem *p, const void *A, const void *B, const void *C, void *D);

/* Largest power of two (at most 16) dividing the address and, where they matter, the byte
 * sizes of ld and batch stride. */
int tg_alignment_bytes(const void *ptr, int64_t ld, int64_t batch_stride, int64_t batch,
                       size_t elem_bytes);

/* What tg_last_kernel names when the product vanishes (k == 0 or alpha == 0) and the epilogue
 * runs alone. */
#define TG_EPILOGUE_ONLY_NAME "epilogue"
/* Where tg_check and tg_explain pretend the operands live: any 16-byte-aligned non-NULL address. */
#define TG_CHECK_FAKE_ADDRESS ((uintptr_t)4096)

#endif /* TG_PROBLEM_BUILD_H */
