/* sm90_f8_128x256_fast.cu — fp8 inputs summed in the tensor cores over all of k (fp8_fast_accum),
 * 128×256×128 tiles, 4 stages (192 KB), clusters of 2 along m sharing B. K-major operands. */
#include "sm90_launch.cuh"

TG_SM90_ROW_f8_128x256_fast(SM90_ROW_FUNCTIONS)
