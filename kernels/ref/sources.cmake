# Sources of the reference family (appended to the library).
list(APPEND TG_FAMILIES ref)
list(APPEND TG_KERNEL_SOURCES
  kernels/ref/ref_compare.cu
  kernels/ref/ref_gemm.cu
  kernels/ref/ref_rows.c)
