# The decode family: skinny GEMMs (m or n of a few tokens) streaming the weights, sm_80 and later.
list(APPEND TG_FAMILIES decode)
list(APPEND TG_KERNEL_SOURCES
  kernels/decode/decode_t8_w16.cu
  kernels/decode/decode_rows.c)
