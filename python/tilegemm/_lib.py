"""The C library through ctypes: loading it, the mirror of tilegemm.h, the function prototypes.

The mirror is checked against the header by python/tests/test_cpu.py (a C program prints every
struct's size, every field's offset and every constant). The dtype and epilogue codes are not
written here: they are read from the library's own name functions (tg_dtype_name,
tg_epilogue_name) when it is loaded.
"""
import ctypes
import os
import re
import struct
import sys

from ctypes import POINTER, Structure, c_char_p, c_double, c_int, c_int64, c_size_t, c_void_p

# ---- constants of tilegemm.h (checked against the header by the ABI test) -----------------------
OK = 0
ERR_INVALID_VALUE = 1
ERR_NOT_SUPPORTED = 2
ERR_MISALIGNED = 3
ERR_NO_DEVICE = 4
ERR_CUDA = 5
ERR_OUT_OF_MEMORY = 6
ERR_INTERNAL = 7
STATUS_NAMES = {
    OK: "TG_OK", ERR_INVALID_VALUE: "TG_ERR_INVALID_VALUE",
    ERR_NOT_SUPPORTED: "TG_ERR_NOT_SUPPORTED", ERR_MISALIGNED: "TG_ERR_MISALIGNED",
    ERR_NO_DEVICE: "TG_ERR_NO_DEVICE", ERR_CUDA: "TG_ERR_CUDA",
    ERR_OUT_OF_MEMORY: "TG_ERR_OUT_OF_MEMORY", ERR_INTERNAL: "TG_ERR_INTERNAL",
}
ROW_MAJOR = 0
COL_MAJOR = 1
COMPUTE = {"f32": 0, "tf32": 1, "s32": 2, "3xtf32": 3}
BATCH_BROADCAST = -1
SCALE_MODES = {"none": 0, "tensor": 1, "rowcol": 2, "block": 3}
SCALE_BLOCK_K = 128
EXPLAIN_BYTES = 16384
TUNE_MAX_CANDIDATES = 64


# ---- structs ----------------------------------------------------------------------------------
class Gemm(Structure):
    """tg_gemm."""
    _fields_ = [
        ("m", c_int64), ("n", c_int64), ("k", c_int64), ("batch", c_int64),
        ("a_type", c_int), ("b_type", c_int), ("c_type", c_int), ("d_type", c_int),
        ("compute", c_int),
        ("a_order", c_int), ("b_order", c_int), ("c_order", c_int),
        ("lda", c_int64), ("ldb", c_int64), ("ldc", c_int64), ("ldd", c_int64),
        ("batch_stride_a", c_int64), ("batch_stride_b", c_int64),
        ("batch_stride_c", c_int64), ("batch_stride_d", c_int64),
        ("alpha", c_double), ("beta", c_double),
        ("epilogue", c_int),
        ("bias", c_void_p),
        ("bias_type", c_int),
        ("kernel", c_void_p),  # const char *: the address of a bytes object kept alive by the caller
        ("scale_mode", c_int),
        ("scale_a", c_void_p), ("scale_b", c_void_p),  # const float *: device pointers
        ("fp8_fast_accum", c_int),
    ]


class KernelInfo(Structure):
    """tg_kernel_info."""
    _fields_ = [
        ("name", c_char_p), ("family", c_char_p), ("summary", c_char_p),
        ("sm_min", c_int), ("sm_max", c_int), ("rung", c_int), ("auto_pick", c_int),
        ("tile_m", c_int), ("tile_n", c_int), ("tile_k", c_int),
    ]


class TuneOptions(Structure):
    """tg_tune_options."""
    _fields_ = [("warmup", c_int), ("iterations", c_int), ("flush_l2", c_int)]


class TuneCandidate(Structure):
    """tg_tune_candidate."""
    _fields_ = [("kernel", c_char_p), ("status", c_int), ("us", c_double), ("estimate", c_double)]


class TuneResult(Structure):
    """tg_tune_result."""
    _fields_ = [
        ("kernel", c_char_p), ("us", c_double), ("worst_ratio", c_double),
        ("heuristic_kernel", c_char_p), ("heuristic_us", c_double),
        ("candidate_count", c_int),
        ("candidates", TuneCandidate * TUNE_MAX_CANDIDATES),
    ]


STRUCTS = {"tg_gemm": Gemm, "tg_kernel_info": KernelInfo, "tg_tune_options": TuneOptions,
           "tg_tune_candidate": TuneCandidate, "tg_tune_result": TuneResult}


def _packer(cls, first=None, last=None):
    """A struct.Struct that writes fields first..last of `cls` (default: all of them, and the
    struct's tail padding) at their ctypes offsets, counted from first's (the per-call path fills
    a tg_gemm this way: one C call instead of one per field)."""
    codes = {c_int64: "q", c_int: "i", c_double: "d", c_void_p: "Q"}
    names = [name for name, _ in cls._fields_]
    fields = cls._fields_[names.index(first) if first else 0:
                          names.index(last) + 1 if last else len(names)]
    fmt, base = "=", getattr(cls, fields[0][0]).offset
    at = base
    for name, ctype in fields:
        offset = getattr(cls, name).offset
        fmt += "x" * (offset - at) + codes[ctype]
        at = offset + ctypes.sizeof(ctype)
    if last is None:
        fmt += "x" * (ctypes.sizeof(cls) - at)
    packer = struct.Struct(fmt)
    assert packer.size == (ctypes.sizeof(cls) if last is None else at) - base
    return packer


GEMM_PACKER = _packer(Gemm)  # fields in tg_gemm's order; pointers as integers (0 = NULL)
# alpha, beta, epilogue and bias, written at SCALARS_AT over a tg_gemm packed before: what differs
# between calls whose operands have the same shapes, strides and dtypes.
SCALARS_PACKER = _packer(Gemm, "alpha", "bias")
SCALARS_AT = Gemm.alpha.offset


# ---- loading ----------------------------------------------------------------------------------
HERE = os.path.dirname(os.path.abspath(__file__))


def _library_path():
    env = os.environ.get("TILEGEMM_LIBRARY")
    if env:
        return env
    return os.path.join(HERE, "libtilegemm.so")


def _cudart_dirs():
    """Where a CUDA runtime may be when the library's own search (its RPATH, then the system's)
    does not find one: the NVIDIA wheels, then the toolkit."""
    dirs = []
    for base in sys.path:
        for sub in ("nvidia/cu13/lib", "nvidia/cuda_runtime/lib"):
            d = os.path.join(base or ".", sub)
            if os.path.isdir(d):
                dirs.append(d)
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(var):
            dirs.append(os.path.join(os.environ[var], "lib64"))
    dirs.append("/usr/local/cuda/lib64")
    return dirs


def _load():
    path = _library_path()
    if not os.path.exists(path):
        raise ImportError(
            f"tilegemm: the C library is not at {path} (a package built with `pip install .` "
            f"holds it; set TILEGEMM_LIBRARY to a build tree's libtilegemm.so to use that)")
    try:
        return ctypes.CDLL(path), path
    except OSError as e:
        missing = re.search(r"(libcudart\.so[.0-9]*)", str(e))
        if not missing:
            raise ImportError(f"tilegemm: cannot load {path}: {e}") from e
        # Load the CUDA runtime it names from a known place, into the global scope, and retry.
        for d in _cudart_dirs():
            candidate = os.path.join(d, missing.group(1))
            if os.path.exists(candidate):
                ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
                return ctypes.CDLL(path), path
        raise ImportError(f"tilegemm: cannot load {path}: {e} (set CUDA_HOME or add the CUDA "
                          f"runtime's folder to LD_LIBRARY_PATH)") from e


lib, library_path = _load()


def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


H = c_void_p  # tg_handle *
tg_gemm_init = _proto("tg_gemm_init", None, POINTER(Gemm), c_int64, c_int64, c_int64, c_int, c_int)
tg_create = _proto("tg_create", c_int, POINTER(c_void_p))
tg_create_virtual = _proto("tg_create_virtual", c_int, POINTER(c_void_p), c_int, c_int)
tg_destroy = _proto("tg_destroy", None, H)
tg_check = _proto("tg_check", c_int, H, c_void_p)
tg_explain = _proto("tg_explain", c_int, H, c_void_p, c_char_p, c_size_t)
# tg_matmul(handle, &gemm, A, B, C, D, stream): every argument an integer address (None = NULL).
tg_matmul = _proto("tg_matmul", c_int, H, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                   c_void_p)
# Planned requests: tg_plan_create(handle, &gemm, &plan), tg_plan_run(plan, A, B, C, D, stream).
tg_plan_create = _proto("tg_plan_create", c_int, H, c_void_p, POINTER(c_void_p))
tg_plan_run = _proto("tg_plan_run", c_int, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                     c_void_p)
tg_plan_destroy = _proto("tg_plan_destroy", None, c_void_p)
tg_tune_options_init = _proto("tg_tune_options_init", None, POINTER(TuneOptions))
tg_tune = _proto("tg_tune", c_int, H, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                 c_void_p, POINTER(TuneOptions), POINTER(TuneResult))
tg_cache_save = _proto("tg_cache_save", c_int, H, c_char_p)
tg_status_string = _proto("tg_status_string", c_char_p, c_int)
tg_last_error = _proto("tg_last_error", c_char_p, H)
tg_last_kernel = _proto("tg_last_kernel", c_char_p, H)
tg_dtype_name = _proto("tg_dtype_name", c_char_p, c_int)
tg_epilogue_name = _proto("tg_epilogue_name", c_char_p, c_int)
tg_dtype_size = _proto("tg_dtype_size", c_size_t, c_int)
tg_kernel_count = _proto("tg_kernel_count", c_int)
tg_kernel_get = _proto("tg_kernel_get", c_int, c_int, POINTER(KernelInfo))
tg_version = _proto("tg_version", c_char_p)

# The CUDA runtime the library links (dlsym through the library's handle finds its dependency's
# symbols): current device for creating a handle on the operands' device, pointer attributes for
# arrays that do not say where they live.
cudaGetDevice = _proto("cudaGetDevice", c_int, POINTER(c_int))
cudaSetDevice = _proto("cudaSetDevice", c_int, c_int)
cudaPointerGetAttributes = _proto("cudaPointerGetAttributes", c_int, c_void_p, c_void_p)
cudaGetLastError = _proto("cudaGetLastError", c_int)
cudaStreamSynchronize = _proto("cudaStreamSynchronize", c_int, c_void_p)
cudaThreadExchangeStreamCaptureMode = _proto("cudaThreadExchangeStreamCaptureMode", c_int,
                                             POINTER(c_int))
CAPTURE_MODE_RELAXED = 2  # cudaStreamCaptureModeRelaxed


def _names(fn, limit=64):
    """{name: code} of an enum the library names (codes from 0 until the first "?")."""
    out = {}
    for code in range(limit):
        name = fn(code).decode()
        if name == "?":
            break
        out[name] = code
    return out


DTYPES = _names(tg_dtype_name)        # "f32" -> TG_F32, ...
EPILOGUES = _names(tg_epilogue_name)  # "bias-gelu" -> TG_EPI_BIAS_GELU, ...
DTYPE_NAMES = {code: name for name, code in DTYPES.items()}
DTYPE_SIZES = {code: tg_dtype_size(code) for code in DTYPES.values()}
VERSION = tg_version().decode()
