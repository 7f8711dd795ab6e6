/* decode_t8_w16.cu — the decode row t8_w16 (decode_configs.h): its f16 and bf16 kernels. */
#include "decode_launch.cuh"

TG_DECODE_ROW_t8_w16(DECODE_ROW)
