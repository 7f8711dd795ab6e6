# The f32 family: full fp32 math on the CUDA cores (FFMA) for every operand order and alignment.
list(APPEND TG_FAMILIES f32)
list(APPEND TG_KERNEL_SOURCES
  kernels/f32/f32_128x128.cu
  kernels/f32/f32_64x64.cu
  kernels/f32/f32_rows.c)
