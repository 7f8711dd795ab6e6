# Sources of the simt family: the fp32 CUDA-core rungs 1-8 of the kernel ladder (docs/ladder.md).
list(APPEND TG_FAMILIES simt)
list(APPEND TG_KERNEL_SOURCES
  kernels/simt/simt_01_naive.cu
  kernels/simt/simt_02_coalesced.cu
  kernels/simt/simt_03_smem.cu
  kernels/simt/simt_04_1d_blocktile.cu
  kernels/simt/simt_05_2d_blocktile.cu
  kernels/simt/simt_06_vectorized.cu
  kernels/simt/simt_07_warptile.cu
  kernels/simt/simt_08_double_buffer.cu
  kernels/simt/simt_rows.c)
