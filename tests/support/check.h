/*
 * check.h — the smallest test harness that does the job: CHECK records a failure with its
 * location and goes on; a test program returns tg_test_finish() (0 when all passed).
 * GPU programs call tg_test_require_gpu() first: with no device they print why and exit 77,
 * which ctest reports as skipped.
 */
#ifndef TG_TEST_CHECK_H
#define TG_TEST_CHECK_H

#include <stdio.h>

#define TG_TEST_SKIP_CODE 77

extern int tg_test_failures;
extern int tg_test_checks;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++tg_test_checks;                                                          \
    if (!(cond)) {                                                             \
      ++tg_test_failures;                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    ++tg_test_checks;                                                          \
    if (!(cond)) {                                                             \
      ++tg_test_failures;                                                      \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

/* Prints the summary line, with the worst error/bound of the GPU cases that passed when any ran
 * (docs/testing.md); returns the process exit code. */
int tg_test_finish(const char *name);

/* Exits with TG_TEST_SKIP_CODE (after saying why) when no CUDA device is usable. */
void tg_test_require_gpu(const char *name);

#endif /* TG_TEST_CHECK_H */
