# Device code shared by the families (not a family: no registry rows).
list(APPEND TG_KERNEL_SOURCES
  kernels/common/repack.cu)
