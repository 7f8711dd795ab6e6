/*
 * gemm_example.c — the smallest complete use of tilegemm from C: a 512×256×128 bf16 product,
 * D = A·B, on the current GPU. Build against an installed tilegemm with
 *   cc gemm_example.c $(pkg-config --cflags --libs tilegemm)
 * or with CMake (examples/CMakeLists.txt, find_package(tilegemm)).
 * Exit codes: 0 done, 1 error, 2 no CUDA device.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>

#include <tilegemm.h>

int main(void) {
  const int64_t m = 512, n = 256, k = 128;
  tg_handle *h;
  tg_status s = tg_create(&h);
  if (s != TG_OK) {
    fprintf(stderr, "tilegemm: %s\n", tg_last_error(NULL));
    return s == TG_ERR_NO_DEVICE ? 2 : 1;
  }
  void *A, *B, *D; /* bf16 is 2 bytes; contents left as cudaMalloc gives them */
  cudaMalloc(&A, m * k * 2);
  cudaMalloc(&B, k * n * 2);
  cudaMalloc(&D, m * n * 2);
  cudaMemset(A, 0x3f, m * k * 2); /* 0x3f3f ≈ 0.75 in bf16 */
  cudaMemset(B, 0x3f, k * n * 2);

  tg_gemm g;
  tg_gemm_init(&g, m, n, k, TG_BF16, TG_BF16); /* row-major, alpha = 1, beta = 0 */
  s = tg_matmul(h, &g, A, B, NULL, D, 0);
  if (s == TG_OK) s = cudaDeviceSynchronize() == cudaSuccess ? TG_OK : TG_ERR_CUDA;
  printf("tg_matmul: %s (kernel %s)\n", tg_status_string(s), tg_last_kernel(h));
  if (s != TG_OK) fprintf(stderr, "%s\n", tg_last_error(h));

  cudaFree(A);
  cudaFree(B);
  cudaFree(D);
  tg_destroy(h);
  return s == TG_OK ? 0 : 1;
}
