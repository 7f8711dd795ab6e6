"""tilegemm from Python: D = act(alpha * A @ B + beta * C + bias) on NVIDIA GPUs.

    import torch, tilegemm
    a = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.bfloat16)
    d = tilegemm.matmul(a, b, bias=torch.zeros(4096, device="cuda"), activation="gelu")

The package calls the C library (libtilegemm.so, shipped inside it) through ctypes. docs/python.md
describes the API, the dtype and layout rules, the error bound, streams, CUDA graphs and
torch.compile.
"""
from collections import namedtuple

# torch (optional: torch tensors, the custom ops) is imported before the library is loaded, so
# that the library shares the CUDA runtime torch brings rather than torch sharing the toolkit's.
try:
    import torch as _torch_module  # noqa: F401
except ImportError:
    _torch_module = None

from . import _core
from . import _lib
from ._core import TilegemmError, TilegemmValueError, spec

__version__ = "0.1.0"
__all__ = ["matmul", "explain", "tune", "list_kernels", "last_kernel", "version", "spec",
           "TilegemmError", "TilegemmValueError", "KernelInfo", "TuneResult", "TuneCandidate",
           "library_path"]

if _torch_module is not None:
    from . import _torch
    _torch.install()
    _op_call = _torch.op_call
    error_bound = _torch.error_bound
    __all__.append("error_bound")
else:
    _op_call = None

library_path = _lib.library_path
KernelInfo = namedtuple("KernelInfo", "name family summary sm_min sm_max rung auto_pick "
                                      "tile_m tile_n tile_k")
TuneCandidate = namedtuple("TuneCandidate", "kernel status us estimate")
TuneResult = namedtuple("TuneResult", "kernel us worst_ratio heuristic_kernel heuristic_us "
                                      "candidates")

_build = _core.build
_run = _core.run
_scale_args = _core.scale_args
_stream_handle = _core.stream_handle
_is_compiling = _core.is_compiling
_torch_matmul = _core.torch_matmul
_plain_tensors = _core._PLAIN_TENSORS


def matmul(a, b, *, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, out=None,
           out_dtype=None, scale_a=None, scale_b=None, scale_mode=None, fast_accum=False,
           kernel=None, compute=None, stream=None):
    """D = act(alpha * a @ b + beta * c + bias), computed by tilegemm.

    a (m x k) and b (k x n) are torch CUDA tensors or arrays exposing DLPack or
    __cuda_array_interface__, 2-D or 3-D (a batch; a batch of 1, or a 2-D operand, is shared
    by every batch). c (read only when beta != 0) is m x n or batch x m x n; bias has n
    elements; activation is None, "relu" or "gelu". out receives D (required for arrays that
    are not torch tensors); otherwise D is a new torch tensor of out_dtype (default: the inputs'
    type; bf16 for fp8 inputs, int32 for int8 inputs). compute="tf32" rounds f32 inputs to tf32;
    compute="3xtf32" splits them into tf32 values and remainders (three tensor-core products,
    near-fp32 accuracy).
    kernel names a registered kernel (list_kernels()) instead of the planner's choice.
    fp8 inputs only: scale_a and scale_b, float32 tensors on a's device, scale a and b
    (docs/python.md): scale_mode "tensor" (shapes () or (1,)), "rowcol" ((m,) or (m, 1), and
    (n,) or (1, n)) or "block" ((m, ceil(k/128)) per 1x128 slice of a row of a, and
    (ceil(k/128), ceil(n/128)) per 128x128 block of b), with a leading batch dimension for an
    operand that has batches of its own; None infers the mode from the shapes.
    fast_accum=True accumulates all of k in the tensor cores' own format (faster, less accurate).
    Runs on `stream` (a cudaStream_t int, torch.cuda.Stream or CuPy stream); default: the current
    torch stream for torch tensors, the legacy default stream otherwise. Asynchronous, like any
    CUDA launch. Errors raise TilegemmError (the C library's message) or TypeError/ValueError.
    """
    if scale_a is None and scale_b is None and scale_mode is None and fast_accum is False:
        scales = None  # _scale_args's common case, without the call
    else:
        scales = _scale_args(scale_a, scale_b, scale_mode, fast_accum)
    if _is_compiling():
        return _op_call(a, b, c, float(alpha), float(beta), bias, activation, out, out_dtype,
                        kernel, compute, stream, scales)
    if (scales is None and stream is None and type(a) in _plain_tensors
            and type(b) in _plain_tensors):  # the common case
        return _torch_matmul(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel,
                             compute)
    tensor = _core.Tensor
    if tensor is not None and isinstance(a, tensor):
        plain = _plain_tensors
        if type(a) not in plain or (isinstance(b, tensor) and type(b) not in plain):
            return _op_call(a, b, c, float(alpha), float(beta), bias, activation, out,
                            out_dtype, kernel, compute, stream, scales)
        if stream is None:
            r = _build(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute,
                       None, True, scales)
            return _run(r, _core._raw_stream(r.device))
        dev = a.get_device()
        if dev >= 0:  # D and any copies are allocated on `stream`
            s = _stream_handle(stream)
            if scales is None and type(b) in plain and s == _core._raw_stream(dev):
                # `stream` is the current stream already: the common case's path.
                return _torch_matmul(a, b, c, alpha, beta, bias, activation, out, out_dtype,
                                     kernel, compute)
            with _core.torch.cuda.stream(_core.torch_stream(s, dev)):
                return _run(_build(a, b, c, alpha, beta, bias, activation, out, out_dtype,
                                   kernel, compute, s, True, scales), s)
    s = _stream_handle(stream)
    return _run(_build(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute,
                       s, True, scales), s)


def _handle_for(device, request_device):
    if isinstance(device, tuple):
        return _core.virtual_handle(*device)
    if device is None:
        device = request_device
    return _core.handle(int(device))


def explain(a, b, *, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, out=None,
            out_dtype=None, scale_a=None, scale_b=None, scale_mode=None, fast_accum=False,
            kernel=None, compute=None, device=None):
    """How tilegemm would run matmul(a, b, ...), in words (tg_explain): the request as validated,
    the kernel the planner picks and why, and every kernel's modeled cost or the reason it cannot
    serve. Operands (scales too) may be any arrays (CPU or meta tensors too) or
    tilegemm.spec(shape, dtype); only their shapes, strides and dtypes are read. device: None
    (the operands' CUDA device, else the current one), a device index, or (sm, sm_count) for a
    virtual device, e.g. (90, 132) for an H100 SXM: no GPU needed. Raises TilegemmValueError for
    an invalid request."""
    r = _build(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute, 0,
               need_data=False, scales=_scale_args(scale_a, scale_b, scale_mode, fast_accum))
    h = _handle_for(device, r.device)
    g = _core.ctypes.create_string_buffer(_lib.GEMM_PACKER.size)
    _lib.GEMM_PACKER.pack_into(g, 0, *r.fields)
    text = _core.ctypes.create_string_buffer(_lib.EXPLAIN_BYTES)
    s = _lib.tg_explain(h.ptr, _core.ctypes.addressof(g), text, _lib.EXPLAIN_BYTES)
    if s == _lib.ERR_INVALID_VALUE:
        raise _core._fail(h.ptr, s)
    return text.value.decode(errors="replace")


def tune(a, b, *, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, out=None,
         out_dtype=None, scale_a=None, scale_b=None, scale_mode=None, fast_accum=False,
         compute=None, stream=None, warmup=3, iterations=20, flush_l2=True, save=False):
    """Times every tunable kernel that serves matmul(a, b, ...) on these buffers (tg_tune),
    verifies the fastest against the fp64 oracle and records it in this thread's handle's tuning
    cache, which later calls of the same class and shape use; save=True also writes the cache
    file (tilegemm's default: $TILEGEMM_CACHE, else ~/.cache/tilegemm/tune.txt), which handles
    created later load. Synchronous; D (out, or a new tensor) is overwritten many times.
    Returns a TuneResult."""
    scales = _scale_args(scale_a, scale_b, scale_mode, fast_accum)
    dev = a.get_device() if _core.Tensor is not None and isinstance(a, _core.Tensor) else -1
    if dev >= 0:
        s = _core._raw_stream(dev) if stream is None else _stream_handle(stream)
        with _core.torch.cuda.stream(_core.torch_stream(s, dev)):
            return _tune(a, b, c, alpha, beta, bias, activation, out, out_dtype, compute, s,
                         warmup, iterations, flush_l2, save, scales)
    return _tune(a, b, c, alpha, beta, bias, activation, out, out_dtype, compute,
                 _stream_handle(stream), warmup, iterations, flush_l2, save, scales)


def _tune(a, b, c, alpha, beta, bias, activation, out, out_dtype, compute, s, warmup,
          iterations, flush_l2, save, scales):
    r = _build(a, b, c, alpha, beta, bias, activation, out, out_dtype, None, compute, s,
               True, scales)
    h = _core.handle(r.device)
    g = _core.ctypes.create_string_buffer(_lib.GEMM_PACKER.size)
    _lib.GEMM_PACKER.pack_into(g, 0, *r.fields)
    options = _lib.TuneOptions()
    _lib.tg_tune_options_init(options)
    options.warmup, options.iterations, options.flush_l2 = int(warmup), int(iterations), int(bool(flush_l2))
    result = _lib.TuneResult()
    status = _lib.tg_tune(h.ptr, _core.ctypes.addressof(g), r.a, r.b, r.c, r.d, s, options, result)
    if status != _lib.OK:
        raise _core._fail(h.ptr, status)
    if save:
        status = _lib.tg_cache_save(h.ptr, None)
        if status != _lib.OK:
            raise _core._fail(h.ptr, status)
    if r.copy_back is not None:
        r.copy_back[0].copy_(r.copy_back[1])
    candidates = [TuneCandidate(cand.kernel.decode(), _lib.STATUS_NAMES.get(cand.status, cand.status),
                                cand.us, cand.estimate)
                  for cand in result.candidates[:result.candidate_count]]
    return TuneResult(result.kernel.decode(), result.us, result.worst_ratio,
                      result.heuristic_kernel.decode(), result.heuristic_us, candidates)


def list_kernels():
    """Every registered kernel (no GPU needed), as KernelInfo tuples in registry order."""
    out = []
    info = _lib.KernelInfo()
    for i in range(_lib.tg_kernel_count()):
        if _lib.tg_kernel_get(i, info) != _lib.OK:
            raise TilegemmError(_lib.ERR_INTERNAL, f"tg_kernel_get({i}) failed")
        out.append(KernelInfo(info.name.decode(), info.family.decode(), info.summary.decode(),
                              info.sm_min, info.sm_max, info.rung, bool(info.auto_pick),
                              info.tile_m, info.tile_n, info.tile_k))
    return out


def last_kernel(device=None):
    """The kernel this thread's last successful matmul on `device` (default: the current CUDA
    device) ran: a registry name, or "epilogue" when k == 0 or alpha == 0."""
    if device is None:
        device = _core._current_device()
    return _core.last_kernel(int(device))


def version():
    """The C library's version, "major.minor.patch"."""
    return _lib.VERSION
