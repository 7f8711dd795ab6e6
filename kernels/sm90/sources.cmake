# The sm90 family: TMA + wgmma kernels, sm_90a only (device code built for that target alone).
# Left out of builds whose CMAKE_CUDA_ARCHITECTURES has no 90a.
if(NOT TG_HAVE_SM90A)
  return()
endif()
list(APPEND TG_FAMILIES sm90)
list(APPEND TG_KERNEL_SOURCES
  kernels/sm90/sm90_rows.c
  kernels/sm90/sm90_tensor_map.cu)
list(APPEND TG_KERNEL_SOURCES_SM90A
  kernels/sm90/sm90_128x256.cu
  kernels/sm90/sm90_128x256_c1.cu
  kernels/sm90/sm90_256x128.cu
  kernels/sm90/sm90_128x192.cu
  kernels/sm90/sm90_128x144.cu
  kernels/sm90/sm90_128x208.cu
  kernels/sm90/sm90_256x160.cu
  kernels/sm90/sm90_128x128.cu
  kernels/sm90/sm90_128x64.cu
  kernels/sm90/sm90_pingpong.cu
  kernels/sm90/sm90_f8_128x128.cu
  kernels/sm90/sm90_f8_128x192.cu
  kernels/sm90/sm90_f8_128x256_fast.cu
  kernels/sm90/sm90_tf32_128x192.cu
  kernels/sm90/sm90_tf32_128x128.cu
  kernels/sm90/sm90_tf32_128x64.cu
  kernels/sm90/sm90_s8_128x192.cu
  kernels/sm90/sm90_s8_128x128.cu
  kernels/sm90/sm90_s8_128x64.cu)
