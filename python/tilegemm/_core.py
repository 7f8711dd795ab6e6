"""Requests from arrays, handles, and the calls into the C library.

An operand is described as (obj, ptr, shape, strides, dtype code, device): strides in elements,
device the CUDA device index or -1 when unknown. torch tensors are read directly; other arrays
through DLPack (`__dlpack__`) or `__cuda_array_interface__`; `spec` objects carry a shape and a
dtype alone (for explain). A matrix (or batch of matrices) maps onto tilegemm's (order, leading
dimension, batch stride) without a copy when one of its last two strides is 1 and the other is at
least the extent it steps over; otherwise torch operands are copied (contiguous) and other
arrays are refused.
"""
import atexit
import ctypes
import struct
import threading
from collections import namedtuple

from . import _lib as L

torch = None          # set by _torch.install() when torch is importable
Tensor = None
_PLAIN_TENSORS = ()   # the tensor types taken on the direct path (subclasses go through the op)
TORCH_DTYPES = {}     # torch dtype -> tilegemm dtype code
TORCH_FROM_CODE = {}  # tilegemm dtype code -> torch dtype
_raw_stream = None    # device index -> the current torch stream's cudaStream_t


def _not_compiling():
    return False


is_compiling = _not_compiling

class TilegemmError(RuntimeError):
    """A tilegemm call failed. `status` is the tg_status code, `status_name` its C name; the
    message is tg_last_error's text."""

    def __init__(self, status, message):
        self.status = status
        self.status_name = L.STATUS_NAMES.get(status, str(status))
        super().__init__(message)


class TilegemmValueError(TilegemmError, ValueError):
    """TG_ERR_INVALID_VALUE: the C library refused an argument (the message names it)."""


def _error(status, message):
    cls = TilegemmValueError if status == L.ERR_INVALID_VALUE else TilegemmError
    text = message or L.tg_status_string(status).decode()
    return cls(status, f"{text} [{L.STATUS_NAMES.get(status, status)}]")


def _fail(handle_ptr, status):
    return _error(status, L.tg_last_error(handle_ptr).decode(errors="replace"))


# ---- handles ----------------------------------------------------------------------------------
_shutting_down = [False]
atexit.register(lambda: _shutting_down.__setitem__(0, True))


class _Handle:
    """One tg_handle. Destroyed with its last reference (tg_destroy synchronizes its device), but
    not at interpreter exit, where the process's end frees it."""
    __slots__ = ("ptr", "device")

    def __init__(self, ptr, device):
        self.ptr = ptr
        self.device = device

    def __del__(self, _exiting=_shutting_down, _destroy=L.tg_destroy):
        if self.ptr and not _exiting[0]:
            _destroy(self.ptr)
            self.ptr = None


class _State(threading.local):
    """Per thread: a tg_handle is not thread-safe, so each thread has its own, one per device
    (created on first use), its plans, and a tg_gemm buffer the calls fill."""

    def __init__(self):
        self.handles = {}   # device index -> _Handle
        self.virtual = {}   # (sm, sm_count) -> _Handle
        self.plans = {}     # plan key (see torch_matmul) -> (plan, handle pointer, alloc, _Plan)
        self.seen = set()   # plan keys seen once
        self.buf = ctypes.create_string_buffer(L.GEMM_PACKER.size)
        self.addr = ctypes.addressof(self.buf)
        self.view = memoryview(self.buf).cast("B")  # the buffer as bytes, to copy a tg_gemm in


_state = _State()


def _current_device():
    d = ctypes.c_int(-1)
    if L.cudaGetDevice(ctypes.byref(d)) != 0:
        L.cudaGetLastError()
        return -1
    return d.value


def handle(device):
    """This thread's handle on `device` (-1: the current device), created on first use."""
    h = _state.handles.get(device)
    if h is not None:
        return h
    current = _current_device()
    if device < 0:  # unknown: the current device's
        if current in _state.handles:
            return _state.handles[current]
        device = current
    if device >= 0 and device != current and L.cudaSetDevice(device) != 0:
        L.cudaGetLastError()
        raise TilegemmError(L.ERR_NO_DEVICE, f"tilegemm: CUDA device {device} cannot be selected")
    # A thread's first call may come while a stream is being captured into a CUDA graph:
    # tg_create allocates and zeroes the handle's readiness flags, which the capture's default
    # (global) mode forbids, so the thread's capture mode is relaxed around it. The handle's
    # memory is its own, not the graph's.
    mode = ctypes.c_int(L.CAPTURE_MODE_RELAXED)
    relaxed = L.cudaThreadExchangeStreamCaptureMode(ctypes.byref(mode)) == 0
    try:
        p = ctypes.c_void_p()
        s = L.tg_create(ctypes.byref(p))
        if s != L.OK:
            raise _fail(None, s)
    finally:
        if relaxed:
            L.cudaThreadExchangeStreamCaptureMode(ctypes.byref(mode))
        else:
            L.cudaGetLastError()
        if device >= 0 and device != current and current >= 0:
            L.cudaSetDevice(current)
    h = _Handle(p.value, device)
    if device >= 0:
        _state.handles[device] = h
    return h


def virtual_handle(sm, sm_count):
    """This thread's handle on a virtual device (tg_create_virtual): plans and explains without
    a GPU."""
    key = (int(sm), int(sm_count))
    h = _state.virtual.get(key)
    if h is None:
        p = ctypes.c_void_p()
        s = L.tg_create_virtual(ctypes.byref(p), key[0], key[1])
        if s != L.OK:
            raise _fail(None, s)
        h = _state.virtual[key] = _Handle(p.value, -1)
    return h


# ---- operands ---------------------------------------------------------------------------------
class spec:
    """A matrix described by its shape and dtype alone, for `explain` (no data, no device):
    spec((4096, 4096), "bf16"), or with strides in elements (default: row-major, packed).
    dtype: a tilegemm name ("f32", "f16", "bf16", "e4m3", "e5m2", "s8", "s32") or a torch dtype."""
    __slots__ = ("shape", "strides", "dtype")

    def __init__(self, shape, dtype, strides=None):
        self.shape = tuple(int(s) for s in shape)
        if strides is None:
            strides, step = [], 1
            for extent in reversed(self.shape):
                strides.append(step)
                step *= max(extent, 1)
            strides = strides[::-1]
        self.strides = tuple(int(s) for s in strides)
        if len(self.strides) != len(self.shape):
            raise ValueError("spec: strides and shape differ in length")
        self.dtype = dtype

    def __repr__(self):
        return f"tilegemm.spec({self.shape}, {self.dtype!r}, strides={self.strides})"


_CAI_TYPES = {"<f4": "f32", "<f2": "f16", "|i1": "s8", "<i1": "s8", "<i4": "s32"}
# DLPack (type code, bits) -> tilegemm dtype name (dlpack.h's DLDataTypeCode).
_DLPACK_TYPES = {(2, 32): "f32", (2, 16): "f16", (4, 16): "bf16", (10, 8): "e4m3",
                 (12, 8): "e5m2", (0, 8): "s8", (0, 32): "s32"}
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    """The head of a (legacy) DLManagedTensor: its DLTensor."""
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def _dtype_code(dtype, name):
    if isinstance(dtype, str):
        code = L.DTYPES.get(dtype)
    else:
        code = TORCH_DTYPES.get(dtype)
    if code is None:
        raise TypeError(f"tilegemm: {name} has dtype {dtype}, which tilegemm does not take "
                        f"(f32, f16, bf16, e4m3, e5m2, s8, s32)")
    return code


def _packed_strides(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(strides[::-1])


def _cai_device(ptr):
    if not ptr:
        return -1
    attrs = ctypes.create_string_buffer(256)  # cudaPointerAttributes: type, device, ...
    if L.cudaPointerGetAttributes(attrs, ptr) != 0:
        L.cudaGetLastError()
        return -1
    kind, device = ctypes.c_int.from_buffer(attrs, 0).value, ctypes.c_int.from_buffer(attrs, 4).value
    return device if kind in (2, 3) else -2  # device or managed memory; -2: host memory


def describe(x, name, stream=None, need_data=True):
    """(obj, ptr, shape, strides, dtype code, device, keep) of an operand; `keep` holds what
    must outlive the call (a DLPack capsule)."""
    if Tensor is not None and isinstance(x, Tensor):
        dev = x.get_device()
        if need_data and dev < 0:
            raise ValueError(f"tilegemm: {name} is on {x.device}; tilegemm needs CUDA tensors")
        code = TORCH_DTYPES.get(x.dtype)
        if code is None:
            code = _dtype_code(x.dtype, name)  # raises
        return (x, x.data_ptr() if need_data else 0, x.shape, x.stride(), code, dev, None)
    if isinstance(x, spec):
        if need_data:
            raise TypeError(f"tilegemm: {name} is a spec (shape and dtype only); this call "
                            f"needs data")
        return (x, 0, x.shape, x.strides, _dtype_code(x.dtype, name), -1, None)
    if hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        dev_type, dev_id = x.__dlpack_device__()
        on_gpu = dev_type in (_KDL_CUDA, _KDL_CUDA_MANAGED)
        if need_data and not on_gpu:
            raise ValueError(f"tilegemm: {name} is not in CUDA memory (DLPack device type "
                             f"{dev_type})")
        if on_gpu:
            # DLPack's stream convention: 1 is the legacy default stream (0 is not allowed).
            capsule = x.__dlpack__(stream=stream or 1)
        else:
            capsule = x.__dlpack__()
        t = _DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))
        shape = tuple(t.shape[i] for i in range(t.ndim))
        strides = (tuple(t.strides[i] for i in range(t.ndim)) if t.strides
                   else _packed_strides(shape))
        kind = _DLPACK_TYPES.get((t.dtype.code, t.dtype.bits)) if t.dtype.lanes == 1 else None
        if kind is None:
            raise TypeError(f"tilegemm: {name} has DLPack dtype (code {t.dtype.code}, "
                            f"{t.dtype.bits} bits, {t.dtype.lanes} lanes), which tilegemm does "
                            f"not take")
        ptr = (t.data or 0) + t.byte_offset
        return (x, ptr, shape, strides, L.DTYPES[kind], dev_id if on_gpu else -1, capsule)
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        kind = _CAI_TYPES.get(cai["typestr"])
        if kind is None:
            raise TypeError(f"tilegemm: {name} has typestr {cai['typestr']!r}, which tilegemm "
                            f"does not take (f4, f2, i1, i4)")
        shape = tuple(cai["shape"])
        size = L.DTYPE_SIZES[L.DTYPES[kind]]
        if cai.get("strides") is None:
            strides = _packed_strides(shape)
        else:
            if any(s % size for s in cai["strides"]):
                raise ValueError(f"tilegemm: {name}'s strides are not whole elements")
            strides = tuple(s // size for s in cai["strides"])
        ptr = cai["data"][0] or 0
        producer = cai.get("stream")
        if need_data and producer is not None and producer != (stream or 1):
            # Interface v3: the producer's work on its stream must be complete before ours reads.
            if L.cudaStreamSynchronize(producer) != 0:
                L.cudaGetLastError()
                raise TilegemmError(L.ERR_CUDA, f"tilegemm: synchronizing {name}'s stream failed")
        dev = _cai_device(ptr) if need_data else -1
        if dev == -2:
            raise ValueError(f"tilegemm: {name} is in host memory")
        return (x, ptr, shape, strides, L.DTYPES[kind], dev, None)
    raise TypeError(f"tilegemm: {name} is a {type(x).__name__}; tilegemm takes torch tensors and "
                    f"arrays with __dlpack__ or __cuda_array_interface__")


def matrix(shape, strides):
    """(batch, rows, cols, order, ld, batch stride) of a 2-D or 3-D operand stored without a
    copy, or None when its layout has no such form (negative strides, no unit stride, or rows
    that overlap). The batch stride is 0 for one batch (packed) and BATCH_BROADCAST for a stride
    of 0 (every batch the same matrix)."""
    if len(shape) == 2:
        (r, c), (sr, sc), bt, sb = shape, strides, 1, 0
    else:
        (bt, r, c), (sb, sr, sc) = shape, strides
    if (c <= 1 or sc == 1) and (r <= 1 or sr >= max(c, 1)):
        order, ld = L.ROW_MAJOR, (sr if r > 1 else max(c, 1))
    elif (r <= 1 or sr == 1) and (c <= 1 or sc >= max(r, 1)):
        order, ld = L.COL_MAJOR, (sc if c > 1 else max(r, 1))
    else:
        return None
    if bt <= 1:
        sb = 0
    elif sb == 0:
        sb = L.BATCH_BROADCAST
    elif sb < 0:
        return None
    return bt, r, c, order, ld, sb


def stream_handle(stream):
    """A cudaStream_t as an integer from an int, a torch.cuda.Stream (`cuda_stream`), a CuPy
    stream (`ptr`) or an object with `__cuda_stream__` (the CUDA stream protocol)."""
    if stream is None or isinstance(stream, int):
        return stream or 0
    for attr in ("cuda_stream", "ptr"):
        value = getattr(stream, attr, None)
        if isinstance(value, int):
            return value
    proto = getattr(stream, "__cuda_stream__", None)
    if proto is not None:
        return int(proto()[1])
    raise TypeError(f"tilegemm: stream must be an int (cudaStream_t), a torch.cuda.Stream or a "
                    f"CuPy stream, not {type(stream).__name__}")


# ---- the request --------------------------------------------------------------------------------
_ACTIVATIONS = {None: "", "none": "", "relu": "relu", "gelu": "gelu"}
_KERNEL_NAMES = {}  # name -> (bytes, address): the tg_gemm.kernel strings, kept alive


_EPILOGUE_CODES = {
    (has_bias, activation): L.EPILOGUES["-".join(p for p in ("bias" if has_bias else "", act) if p)
                                         or "none"]
    for has_bias in (False, True) for activation, act in _ACTIVATIONS.items()}


def _epilogue(has_bias, activation):
    try:
        return _EPILOGUE_CODES[has_bias, activation]
    except (KeyError, TypeError):
        raise ValueError(f"tilegemm: activation must be None, 'relu' or 'gelu', not "
                         f"{activation!r}") from None


def _kernel_address(kernel):
    if kernel is None:
        return 0
    entry = _KERNEL_NAMES.get(kernel)
    if entry is None:
        if not isinstance(kernel, str):
            raise TypeError(f"tilegemm: kernel must be a name (str) or None, not "
                            f"{type(kernel).__name__}")
        data = kernel.encode()
        entry = _KERNEL_NAMES[kernel] = (data, ctypes.cast(ctypes.c_char_p(data),
                                                           ctypes.c_void_p).value)
    return entry[1]


def _compute(compute, a_code):
    if compute is None:
        return _DEFAULT_COMPUTE[a_code]
    try:
        return L.COMPUTE[compute]
    except (KeyError, TypeError):
        raise ValueError(f"tilegemm: compute must be None, 'f32', 'tf32', '3xtf32' or 's32', "
                         f"not {compute!r}") from None


def default_out_code(a_code):
    """D's type when neither out nor out_dtype says: the inputs' type for f32/f16/bf16, bf16 for
    fp8 inputs, s32 for s8 inputs."""
    name = L.DTYPE_NAMES[a_code]
    return L.DTYPES[{"e4m3": "bf16", "e5m2": "bf16", "s8": "s32"}.get(name, name)]


def _shape_error(msg):
    return ValueError("tilegemm: " + msg)


def torch_d_col_major(c, beta):
    """Whether a D that tilegemm allocates is column-major: when C is read (beta != 0) and is the
    transpose of a contiguous tensor (D takes C's order; the C API requires them equal)."""
    return (c is not None and beta != 0 and c.dim() >= 2 and not c.is_contiguous()
            and c.mT.is_contiguous())


def _torch_in_order(t, order):
    """A copy of t in `order` (row- or column-major, packed)."""
    return t.contiguous() if order == L.ROW_MAJOR else t.mT.contiguous().mT


def _as_matrix(x, d, name, keep, stream, need_data):
    """(x's description, its (batch, rows, cols, order, ld) form, keep), a torch tensor whose
    strides have no such form copied into a contiguous one (kept until the launch)."""
    mx = matrix(d[2], d[3])
    if mx is None:
        if not isinstance(x, _PLAIN_TENSORS):
            raise _shape_error(f"{name}'s strides have no (order, leading dimension) form; "
                               "pass a contiguous array (or its transpose)")
        d = describe(x.contiguous(), name, stream, need_data)
        mx = matrix(d[2], d[3])
        keep = (keep or []) + [d[0]]
    return d, mx, keep


# ---- fp8 scales ----------------------------------------------------------------------------------
# tilegemm.h's layouts of one batch's scales, as the shapes a scale tensor may have: each dimension
# (extent, stride in floats), the stride None where any will do (an extent of 1).
_ScaleLayout = namedtuple("_ScaleLayout", "forms floats")
_SCALE_MODE_NAMES = ("tensor", "rowcol", "block")
FP8_NAMES = ("e4m3", "e5m2")


def _scale_layouts(mode, m, n, k):
    """(scale_a's, scale_b's) _ScaleLayout of one batch under `mode`: tensor () or (1,); rowcol
    (m,) or (m, 1) and (n,) or (1, n); block (m, KB) stored KB-major (scale_a[kb·m + i]) and
    (KB, NB) stored NB-major (scale_b[(j/128)·KB + kb]), KB = ceil(k/128), NB = ceil(n/128)."""
    if mode == "tensor":
        forms = ((), ((1, None),))
        return _ScaleLayout(forms, 1), _ScaleLayout(forms, 1)
    if mode == "rowcol":
        return (_ScaleLayout((((m, 1),), ((m, 1), (1, None))), m),
                _ScaleLayout((((n, 1),), ((1, None), (n, 1))), n))
    kb, nb = -(-k // L.SCALE_BLOCK_K), -(-n // L.SCALE_BLOCK_K)
    return (_ScaleLayout((((m, 1), (kb, m)),), m * kb),
            _ScaleLayout((((kb, 1), (nb, kb)),), kb * nb))


def _scale_forms(layout, sets):
    """The forms of an operand's scales over `sets` sets (one per batch, or one for all): a
    leading dimension of sets, which one set may leave out."""
    if sets > 1:
        return tuple(((sets, layout.floats),) + f for f in layout.forms)
    return layout.forms + tuple(((1, None),) + f for f in layout.forms)


def _shape_text(form):
    return str(tuple(e for e, _ in form))


def _expected(layout, sets):
    forms = _scale_forms(layout, sets)[:len(layout.forms)]
    return " or ".join(_shape_text(f) for f in forms)


def _fitting_form(shape, layout, sets):
    shape = tuple(shape)
    for form in _scale_forms(layout, sets):
        if tuple(e for e, _ in form) == shape:
            return form
    return None


def _sets_text(i, sets):
    """What a message says of an operand's scale sets: one per batch, where it has batches."""
    return f"; one set per batch of {'ab'[i]}'s {sets}" if sets > 1 else ""


def _modes_text(layouts, i, sets):
    """Every mode's accepted shapes of scale_a (i = 0) or scale_b (i = 1), for messages."""
    return "; ".join(f"{mode}: {_expected(layouts[mode][i], sets)}"
                     for mode in _SCALE_MODE_NAMES) + _sets_text(i, sets)


def _infer_scale_mode(layouts, da, db, sets_a, sets_b):
    """The one mode whose shapes both scale tensors have, else ValueError naming the argument
    that fits no mode (or saying that they disagree, or fit several alike)."""
    fits_a = [mode for mode in _SCALE_MODE_NAMES
              if _fitting_form(da[2], layouts[mode][0], sets_a) is not None]
    fits_b = [mode for mode in _SCALE_MODE_NAMES
              if _fitting_form(db[2], layouts[mode][1], sets_b) is not None]
    both = [mode for mode in fits_a if mode in fits_b]
    if len(both) == 1:
        return both[0]
    for name, d, fits, i, sets in (("scale_a", da, fits_a, 0, sets_a),
                                   ("scale_b", db, fits_b, 1, sets_b)):
        if not fits:
            raise ValueError(f"tilegemm: {name} has shape {tuple(d[2])}, which no scale mode "
                             f"takes here ({_modes_text(layouts, i, sets)})")
    if not both:
        raise ValueError(f"tilegemm: scale_a's shape {tuple(da[2])} fits {'/'.join(fits_a)} "
                         f"scales but scale_b's {tuple(db[2])} fits {'/'.join(fits_b)}: they "
                         f"must agree")
    raise ValueError(f"tilegemm: scale_a {tuple(da[2])} and scale_b {tuple(db[2])} fit "
                     f"{' and '.join(both)} scales alike; pass scale_mode=")


def _scale_operand(x, name, d, form, need_data, keep):
    """(pointer, keep) of one operand's scales: its own memory when its strides are the layout's,
    else (torch) a copy in that layout."""
    if not need_data or all(e <= 1 or want is None or have == want
                            for (e, want), have in zip(form, d[3])):
        return d[1], keep
    if not isinstance(x, _PLAIN_TENSORS):
        raise ValueError(f"tilegemm: {name} has strides {tuple(d[3])}; tilegemm reads shape "
                         f"{_shape_text(form)} with strides "
                         f"{tuple(want or 1 for _, want in form)} (torch tensors are copied)")
    copy = torch.empty_strided(tuple(e for e, _ in form), tuple(want or 1 for _, want in form),
                               dtype=x.dtype, device=x.device)
    copy.copy_(x)
    return copy.data_ptr(), (keep or []) + [copy]


def scale_args(scale_a, scale_b, scale_mode, fast_accum):
    """build's `scales` argument: None when a call has no fp8 scales and no fast accumulation
    (the common case, which then costs nothing)."""
    if scale_a is None and scale_b is None and scale_mode is None and fast_accum is False:
        return None
    if fast_accum not in (False, True):  # 0 and 1 compare equal to them
        raise TypeError(f"tilegemm: fast_accum must be True or False, not {fast_accum!r}")
    return (scale_a, scale_b, scale_mode, bool(fast_accum))


def _scales(scales, a_code, b_code, m, n, k, sets_a, sets_b, dev, stream, need_data, keep):
    """(scale_mode code, scale_a pointer, scale_b pointer, fp8_fast_accum, keep) of build's
    `scales` (scale_a, scale_b, scale_mode, fast_accum): the mode named or inferred from the
    shapes, each tensor checked against tilegemm.h's layout (one set per batch of an operand
    that is not shared by every batch, sets_a/sets_b), torch tensors of other strides copied."""
    scale_a, scale_b, scale_mode, fast_accum = scales
    fp8 = L.DTYPE_NAMES[a_code] in FP8_NAMES and L.DTYPE_NAMES[b_code] in FP8_NAMES
    inputs = f"{L.DTYPE_NAMES[a_code]} x {L.DTYPE_NAMES[b_code]}"
    if fast_accum and not fp8:
        raise ValueError(f"tilegemm: fast_accum applies to fp8 inputs (e4m3, e5m2), not {inputs}")
    if scale_mode is not None and scale_mode not in L.SCALE_MODES:
        raise ValueError(f"tilegemm: scale_mode must be None, 'tensor', 'rowcol' or 'block', not "
                         f"{scale_mode!r}")
    if scale_a is None and scale_b is None:
        if scale_mode not in (None, "none"):
            raise ValueError(f"tilegemm: scale_mode={scale_mode!r} needs scale_a and scale_b")
        return L.SCALE_MODES["none"], 0, 0, int(fast_accum), keep
    if scale_a is None or scale_b is None:
        given, missing = ("scale_a", "scale_b") if scale_b is None else ("scale_b", "scale_a")
        raise ValueError(f"tilegemm: {missing} is None but {given} is given: fp8 scales come in "
                         f"pairs (a tensor of one 1.0 is a scale of 1)")
    if scale_mode == "none":
        raise ValueError("tilegemm: scale_mode='none' takes no scale_a or scale_b")
    if not fp8:
        raise ValueError(f"tilegemm: scale_a/scale_b: scales apply to fp8 inputs (e4m3, e5m2), "
                         f"not {inputs}")
    da = describe(scale_a, "scale_a", stream, need_data)
    db = describe(scale_b, "scale_b", stream, need_data)
    for name, d in (("scale_a", da), ("scale_b", db)):
        if L.DTYPE_NAMES[d[4]] != "f32":
            raise TypeError(f"tilegemm: {name} is {L.DTYPE_NAMES[d[4]]}; scales are float32")
        if need_data and d[5] != dev:
            raise ValueError(f"tilegemm: {name} is on device {d[5]}, a on device {dev}")
        if d[6] is not None:
            keep = (keep or []) + [d[6]]
    layouts = {mode: _scale_layouts(mode, m, n, k) for mode in _SCALE_MODE_NAMES}
    if scale_mode is None:
        scale_mode = _infer_scale_mode(layouts, da, db, sets_a, sets_b)
    layout_a, layout_b = layouts[scale_mode]
    form_a = _fitting_form(da[2], layout_a, sets_a)
    form_b = _fitting_form(db[2], layout_b, sets_b)
    for i, (name, form, d, layout, sets) in enumerate((("scale_a", form_a, da, layout_a, sets_a),
                                                       ("scale_b", form_b, db, layout_b, sets_b))):
        if form is None:
            raise ValueError(f"tilegemm: {name} has shape {tuple(d[2])}; scale_mode="
                             f"{scale_mode!r} takes {_expected(layout, sets)} here"
                             f"{_sets_text(i, sets)}")
    ptr_a, keep = _scale_operand(scale_a, "scale_a", da, form_a, need_data, keep)
    ptr_b, keep = _scale_operand(scale_b, "scale_b", db, form_b, need_data, keep)
    return L.SCALE_MODES[scale_mode], ptr_a, ptr_b, int(fast_accum), keep


# tg_gemm's last fields without fp8 scales: scale_mode NONE, scale_a, scale_b, fp8_fast_accum.
_NO_SCALES = (0, 0, 0, 0)
FIELD_INDEX = {name: i for i, (name, _) in enumerate(L.Gemm._fields_)}  # a field's place in fields
_ALPHA, _BETA, _EPILOGUE = FIELD_INDEX["alpha"], FIELD_INDEX["beta"], FIELD_INDEX["epilogue"]

# A validated request ready for the C library: the tg_gemm fields (GEMM_PACKER's order), the four
# data pointers, the device, what to return, (out, temporary) when D is computed apart and copied
# in, what must outlive the launch (DLPack capsules, copies of operands), and how D was allocated
# when tilegemm allocated it (new_d's `alloc`, else None).
Request = namedtuple("Request", "fields a b c d device result copy_back keep alloc")
_DEFAULT_COMPUTE = {}  # dtype code -> tg_compute when compute is None


def new_d(a, alloc):
    """The D that tilegemm allocates, like a: alloc is (shape, torch dtype, transposed), the
    shape with its last two dimensions swapped when D is the transpose of a contiguous tensor."""
    shape, dtype, transposed = alloc
    d = a.new_empty(shape, dtype=dtype)
    return d.mT if transposed else d


def build(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute, stream,
          need_data=True, scales=None):
    """Maps the operands onto a tg_gemm. torch operands whose layout has no copy-free form are
    copied; a D tilegemm must allocate is allocated with torch (other arrays need `out`).
    scales: scale_args(...) of the call (fp8 scales and fast accumulation), or None."""
    use_c = c is not None and beta != 0
    is_torch = isinstance(a, _PLAIN_TENSORS)
    if out is None and need_data and not is_torch:
        raise TypeError("tilegemm: out= is required for arrays that are not torch tensors")
    da = describe(a, "a", stream, need_data)
    db = describe(b, "b", stream, need_data)
    keep = [da[6], db[6]] if da[6] is not None or db[6] is not None else None
    nda, ndb = len(da[2]), len(db[2])
    if nda not in (2, 3) or ndb not in (2, 3):
        raise _shape_error(f"a and b must be 2-D or 3-D (a batch), not {nda}-D and {ndb}-D")
    da, ma, keep = _as_matrix(a, da, "a", keep, stream, need_data)
    db, mb, keep = _as_matrix(b, db, "b", keep, stream, need_data)
    ba, m, k = ma[0], ma[1], ma[2]
    bb, kb, n = mb[0], mb[1], mb[2]
    if k != kb:
        raise _shape_error(f"a is {m}x{k} but b is {kb}x{n} (inner dimensions differ)")
    if ba != bb and ba != 1 and bb != 1:
        raise _shape_error(f"batch counts {ba} and {bb} differ (one of them may be 1)")
    batch = max(ba, bb)
    batched = nda == 3 or ndb == 3
    d_shape = (batch, m, n) if batched else (m, n)
    sa = ma[5] if ba == batch else L.BATCH_BROADCAST
    sb = mb[5] if bb == batch else L.BATCH_BROADCAST
    if batch <= 1:
        sa = sb = 0
    a_code, b_code = da[4], db[4]
    dev = da[5]
    if need_data and db[5] != dev:
        raise ValueError(f"tilegemm: a and b are on different devices ({dev} and {db[5]})")

    # D: out, or one tilegemm allocates (torch), in C's order when C is the transpose of a
    # contiguous tensor.
    copy_back = alloc = None
    if out is not None:
        dd = describe(out, "out", stream, need_data)
        if dd[6] is not None:
            keep = (keep or []) + [dd[6]]
        if dd[2] != d_shape:
            raise _shape_error(f"out has shape {dd[2]}, expected {d_shape}")
        d_code = dd[4]
        if out_dtype is not None and _dtype_code(out_dtype, "out_dtype") != d_code:
            raise ValueError(f"tilegemm: out_dtype {out_dtype} differs from out's dtype")
        md = matrix(dd[2], dd[3])
        if md is None or md[5] == L.BATCH_BROADCAST:
            if not isinstance(out, _PLAIN_TENSORS):
                raise _shape_error("out's strides have no (order, leading dimension) form with "
                                   "distinct batches; pass a contiguous array (or its transpose)")
            temp = torch.empty(d_shape, dtype=out.dtype, device=out.device)
            copy_back = (out, temp)
            dd = describe(temp, "out", stream, need_data)
            md = matrix(dd[2], dd[3])
        result = out
    elif need_data:
        d_code = (_dtype_code(out_dtype, "out_dtype") if out_dtype is not None
                  else default_out_code(a_code))
        tdt = TORCH_FROM_CODE[d_code]
        if use_c and torch_d_col_major(c, beta):
            alloc = ((batch, n, m) if batched else (n, m), tdt, True)
            md = (batch, m, n, L.COL_MAJOR, max(m, 1), m * n)
        else:
            alloc = (d_shape, tdt, False)
            md = (batch, m, n, L.ROW_MAJOR, max(n, 1), m * n)
        d = new_d(a, alloc)
        dd = (d, d.data_ptr(), d_shape, None, d_code, dev, None)
        result = d
    else:  # explain without out: a packed row-major D
        d_code = (_dtype_code(out_dtype, "out_dtype") if out_dtype is not None
                  else default_out_code(a_code))
        strides = _packed_strides(d_shape)
        dd = (None, 0, d_shape, strides, d_code, -1, None)
        md = matrix(d_shape, strides)
        result = None
    if batch <= 1:
        md = md[:5] + (0,)

    # C: read only when beta != 0; it must have D's order (the C API's rule), so a torch C of
    # another order is copied into D's.
    if use_c:
        dc = describe(c, "c", stream, need_data)
        if dc[6] is not None:
            keep = (keep or []) + [dc[6]]
        ndc = len(dc[2])
        if ndc not in (2, 3) or dc[2][-2:] != (m, n) or (ndc == 3 and dc[2][0] not in (1, batch)):
            raise _shape_error(f"c has shape {dc[2]}, expected ({m}, {n}) or (batch, {m}, {n})")
        mc = matrix(dc[2], dc[3])
        if mc is None or mc[3] != md[3]:
            if not isinstance(c, _PLAIN_TENSORS):
                raise _shape_error("c must be stored in out's order (row- or column-major with a "
                                   "unit stride) for arrays that are not torch tensors")
            dc = describe(_torch_in_order(c, md[3]), "c", stream, need_data)
            mc = matrix(dc[2], dc[3])
            keep = (keep or []) + [dc[0]]
        c_ptr, c_code, ldc = dc[1], dc[4], mc[4]
        sc = (mc[5] if mc[0] == batch else L.BATCH_BROADCAST) if batch > 1 else 0
    else:
        c_ptr, c_code, ldc, sc = 0, d_code, 0, 0

    # Bias: n elements, unit stride.
    bias_ptr, bias_code = 0, L.DTYPES["f32"]
    if bias is not None:
        dbias = describe(bias, "bias", stream, need_data)
        if dbias[6] is not None:
            keep = (keep or []) + [dbias[6]]
        if dbias[2] != (n,):
            raise _shape_error(f"bias has shape {dbias[2]}, expected ({n},)")
        if n > 1 and dbias[3][0] != 1:
            if not isinstance(bias, _PLAIN_TENSORS):
                raise _shape_error("bias must have unit stride")
            dbias = describe(bias.contiguous(), "bias", stream, need_data)
            keep = (keep or []) + [dbias[0]]
        bias_ptr, bias_code = dbias[1], dbias[4]

    # fp8 scales: one set per batch of an operand that is not shared by every batch.
    if scales is None:
        scale_fields = _NO_SCALES
    else:
        sets_a = batch if batch > 1 and sa != L.BATCH_BROADCAST else 1
        sets_b = batch if batch > 1 and sb != L.BATCH_BROADCAST else 1
        *scale_fields, keep = _scales(scales, a_code, b_code, m, n, k, sets_a, sets_b, dev,
                                      stream, need_data, keep)
        scale_fields = tuple(scale_fields)

    fields = (m, n, k, batch, a_code, b_code, c_code, d_code,
              _compute(compute, a_code) if compute is not None else _DEFAULT_COMPUTE[a_code],
              ma[3], mb[3], md[3], ma[4], mb[4], ldc, md[4], sa, sb, sc, md[5], alpha, beta,
              _epilogue(bias is not None, activation), bias_ptr, bias_code,
              _kernel_address(kernel) if kernel is not None else 0) + scale_fields
    return Request(fields, da[1], db[1], c_ptr, dd[1], dev, result, copy_back, keep, alloc)


def _scalars_error(alpha, beta):
    return TypeError(f"tilegemm: alpha and beta must be real numbers, not "
                     f"{type(alpha).__name__} and {type(beta).__name__}")


def run(r, stream):
    """tg_matmul for a built request on `stream` (an integer cudaStream_t)."""
    h = _state.handles.get(r.device) or handle(r.device)
    st = _state
    try:
        L.GEMM_PACKER.pack_into(st.buf, 0, *r.fields)
    except struct.error:
        raise _scalars_error(r.fields[_ALPHA], r.fields[_BETA]) from None
    s = L.tg_matmul(h.ptr, st.addr, r.a, r.b, r.c, r.d, stream)
    if s != L.OK:
        raise _fail(h.ptr, s)
    if r.copy_back is not None:
        r.copy_back[0].copy_(r.copy_back[1])
    return r.result


# ---- plain torch tensors on the current stream ---------------------------------------------
# A request's tg_gemm follows from its operands' shapes, strides and dtypes and from the call's
# other arguments; of those, only alpha, beta and the bias pointer are written per call: the data
# pointers and the stream are tg_matmul's own arguments, and the device picks the handle. So a
# call like one made before (same request key) skips build: its tg_gemm is copied from the bytes
# kept then, those fields written, and D allocated as then. Only requests that build took without
# a copy (of an operand, C, bias, or D through a temporary) are kept; the first call of each key,
# and every call that is not plain torch tensors on one device, takes build and run.
#
# A kept request seen again with the same alpha, beta and bias pointer on the same device (the
# plan key: the usual case, a layer run again) is planned (tg_plan_create, on this thread's
# handle): its later calls are tg_plan_run, which launches without checking and planning the
# request again. A kept request's first call under a plan key only marks the key, so calls whose
# alpha, beta or bias pointer change every time keep taking tg_matmul instead of making plans
# they never reuse; a request's very first call (build) marks nothing, so calls of ever new
# shapes pay nothing for plans.
_REQUESTS = {}          # request key (see torch_matmul) -> (tg_gemm bytes, epilogue code, D's alloc)
_REQUESTS_LIMIT = 4096  # then they are forgotten, all at once
_REQUEST_KEY_ITEMS = 11  # the request key: the plan key's first items
_PLAN_KEY_ALPHA = 12    # alpha's place in the plan key
_PLANS_LIMIT = 1024     # plans per thread; then they are destroyed, all at once
_SEEN_LIMIT = 4096      # plan keys marked per thread; then the marks are forgotten


class _Plan:
    """One tg_matmul_plan of a thread's handle; destroyed with its last reference (not at
    interpreter exit). tg_plan_destroy frees host memory alone: work enqueued or captured from the
    plan does not refer to it."""
    __slots__ = ("ptr",)

    def __init__(self, ptr):
        self.ptr = ptr

    def __del__(self, _exiting=_shutting_down):
        if self.ptr and not _exiting[0]:
            L.tg_plan_destroy(self.ptr)
            self.ptr = None


def _operand_key(x, dev):
    """(shape, strides, dtype) of c, bias or out when it may take the kept request of a and b on
    device dev, else False."""
    if type(x) not in _PLAIN_TENSORS or x.get_device() != dev:
        return False
    return x.shape, x.stride(), x.dtype


def _untracked(key):
    """A key (request or plan key, see torch_matmul) as kept: equal to it and hashed alike, its
    shapes (torch.Size) made plain tuples. The garbage collector soon stops tracking a tuple of
    numbers, dtypes and strings, but tracks a torch.Size for good; thousands of kept ones would
    make its full collections of the heap come often."""
    def operand(k):  # _operand_key's
        return None if k is None else (tuple(k[0]), k[1], k[2])

    extra = key[10]
    if extra is not None:
        kc, use_c, kbias, kout = extra
        extra = (operand(kc), use_c, operand(kbias), operand(kout))
    return (tuple(key[0]),) + key[1:3] + (tuple(key[3]),) + key[4:10] + (extra,) + key[11:]


def _plan(st, h, pkey, alloc):
    """Plans the request packed in this thread's buffer on handle h under plan key pkey: the
    plan's entry (plan pointer, handle pointer, D's alloc, owner), or None when tg_plan_create
    refuses (tg_matmul then reports why)."""
    p = ctypes.c_void_p()
    if L.tg_plan_create(h.ptr, st.addr, p) != L.OK or not p.value:
        return None
    plans = st.plans
    if len(plans) >= _PLANS_LIMIT:
        plans.clear()
    entry = plans[_untracked(pkey)] = (p.value, h.ptr, alloc, _Plan(p.value))
    return entry


def torch_matmul(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute):
    """matmul of plain torch tensors a and b, without fp8 scales, on the current torch stream:
    D (out, or a new tensor). Runs the plan of the plan key when this thread has one, else takes
    a request built before when the request key matches."""
    dev = a.get_device()
    key = entry = None
    use_c = c is not None and beta != 0
    st = _state
    if dev >= 0 and b.get_device() == dev:
        # The key's item 10: None without c, bias and out, else (c's, use_c, bias's, out's);
        # False: an operand that takes build.
        if c is None and bias is None and out is None:
            extra, bias_ptr = None, 0
        else:
            kc = None if c is None else _operand_key(c, dev)
            kbias = None if bias is None else _operand_key(bias, dev)
            kout = None if out is None else _operand_key(out, dev)
            extra = (False if kc is False or kbias is False or kout is False
                     else (kc, use_c, kbias, kout))
            bias_ptr = 0 if bias is None or extra is False else bias.data_ptr()
        if extra is not False:
            key = (a.shape, a.stride(), a.dtype, b.shape, b.stride(), b.dtype, activation,
                   out_dtype, kernel, compute, extra, dev, alpha, beta, bias_ptr)
            try:
                plan = st.plans.get(key)
            except TypeError:  # an unhashable argument, which build names
                key = plan = None
            if plan is not None:
                alloc = plan[2]  # new_d, written out: this is the path of most calls
                if alloc is None:
                    d = out
                else:
                    d = a.new_empty(alloc[0], dtype=alloc[1])
                    if alloc[2]:
                        d = d.mT
                s = L.tg_plan_run(plan[0], a.data_ptr(), b.data_ptr(),
                                  c.data_ptr() if use_c else 0, d.data_ptr(), _raw_stream(dev))
                if s != L.OK:
                    raise _fail(plan[1], s)
                return d
            if key is not None:
                entry = _REQUESTS.get(key[:_REQUEST_KEY_ITEMS])
    if entry is None:
        r = build(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute, None)
        result = run(r, _raw_stream(r.device))
        if key is not None and r.keep is None and r.copy_back is None:
            if len(_REQUESTS) >= _REQUESTS_LIMIT:
                _REQUESTS.clear()
            _REQUESTS[_untracked(key[:_REQUEST_KEY_ITEMS])] = (
                L.GEMM_PACKER.pack(*r.fields), r.fields[_EPILOGUE], r.alloc)
        return result
    gemm, epilogue, alloc = entry
    d = out if alloc is None else new_d(a, alloc)
    h = st.handles.get(dev) or handle(dev)
    # The buffer is filled last: allocating D may run Python code (a torch dispatch mode) that
    # calls tilegemm on this thread, with the same buffer.
    st.view[:] = gemm
    try:
        L.SCALARS_PACKER.pack_into(st.buf, L.SCALARS_AT, alpha, beta, epilogue,
                                   0 if bias is None else bias.data_ptr())
    except struct.error:
        raise _scalars_error(alpha, beta) from None
    c_ptr = c.data_ptr() if use_c else 0
    if key in st.seen:
        plan = _plan(st, h, key, alloc)
        if plan is not None:
            s = L.tg_plan_run(plan[0], a.data_ptr(), b.data_ptr(), c_ptr, d.data_ptr(),
                              _raw_stream(dev))
            if s != L.OK:
                raise _fail(h.ptr, s)
            return d
    else:
        _mark_seen(st, key)
    s = L.tg_matmul(h.ptr, st.addr, a.data_ptr(), b.data_ptr(), c_ptr, d.data_ptr(),
                    _raw_stream(dev))
    if s != L.OK:
        raise _fail(h.ptr, s)
    return d


def _mark_seen(st, key):
    """Marks a plan key as seen once on this thread (its next call is planned); not when alpha
    is zero: 0.0 and -0.0 are one key, and a plan keeps its alpha's sign."""
    if not key[_PLAN_KEY_ALPHA]:
        return
    seen = st.seen
    if len(seen) >= _SEEN_LIMIT:
        seen.clear()
    seen.add(_untracked(key))


def torch_stream(stream, device):
    """The torch stream of a cudaStream_t (an integer), to allocate and copy on: a call given
    `stream=` with torch tensors runs under it, so that its D and any copies belong to it."""
    if stream == 0:
        return torch.cuda.default_stream(device)
    return torch.cuda.ExternalStream(stream, device=device)


def last_kernel(device=-1):
    """The kernel this thread's handle on `device` ran last ("" if none)."""
    h = _state.handles.get(device)
    return L.tg_last_kernel(h.ptr).decode() if h is not None else ""


_DEFAULT_COMPUTE.update({code: L.COMPUTE["s32"] if name == "s8" else L.COMPUTE["f32"]
                         for name, code in L.DTYPES.items()})
