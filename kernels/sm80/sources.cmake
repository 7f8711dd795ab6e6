# The sm80 family: mma.sync tensor-core kernels for sm_80 and later.
list(APPEND TG_FAMILIES sm80)
list(APPEND TG_KERNEL_SOURCES
  kernels/sm80/sm80_h_128x256.cu
  kernels/sm80/sm80_h_256x128.cu
  kernels/sm80/sm80_h_128x128.cu
  kernels/sm80/sm80_h_64x128.cu
  kernels/sm80/sm80_h_64x64.cu
  kernels/sm80/sm80_tf32.cu
  kernels/sm80/sm80_s8.cu
  kernels/sm80/sm80_rows.c)
