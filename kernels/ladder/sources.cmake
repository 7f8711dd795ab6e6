# Sources of the ladder family: the 16-bit tensor-core rungs 9-12 of the kernel ladder
# (docs/ladder.md). Each kernel is instantiated for f16 and bf16 inputs, nothing else.
list(APPEND TG_FAMILIES ladder)
list(APPEND TG_KERNEL_SOURCES
  kernels/ladder/ladder_09_wmma.cu
  kernels/ladder/ladder_10_wmma_double_buffer.cu
  kernels/ladder/ladder_11_mma_swizzle.cu
  kernels/ladder/ladder_12_mma_multistage.cu
  kernels/ladder/ladder_rows.c)
