# Code shared by the families (not a family: no registry rows): the operand repack kernel, the
# split-K reduction, and the TMA map parameters and limits of interface/tma_desc.h.
list(APPEND TG_KERNEL_SOURCES
  kernels/common/repack.cu
  kernels/common/splitk_reduce.cu
  kernels/common/tma_desc.c)
