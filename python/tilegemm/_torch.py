"""PyTorch support: dtypes, the current stream, and the custom ops `tilegemm::matmul` and
`tilegemm::matmul_out` (with fake implementations) that torch.compile and CUDA graphs see.

Eager calls of tilegemm.matmul on plain tensors go straight to the C library (the op's dispatch
costs more host time than the product's launch); under torch.compile, and for tensor subclasses
(fake, functional, ...), tilegemm.matmul calls the ops.
"""
import torch

from . import _core
from . import _lib as L


def install():
    _core.torch = torch
    _core.Tensor = torch.Tensor
    _core._PLAIN_TENSORS = (torch.Tensor, torch.nn.Parameter)
    names = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "e4m3": "float8_e4m3fn",
             "e5m2": "float8_e5m2", "s8": "int8", "s32": "int32"}
    for tg_name, torch_name in names.items():
        dtype = getattr(torch, torch_name, None)
        if dtype is not None:
            _core.TORCH_DTYPES[dtype] = L.DTYPES[tg_name]
            _core.TORCH_FROM_CODE[L.DTYPES[tg_name]] = dtype
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    _core._raw_stream = raw if raw is not None else (
        lambda device: torch.cuda.current_stream(device).cuda_stream)
    compiling = getattr(getattr(torch, "compiler", None), "is_compiling", None)
    if compiling is not None:
        _core.is_compiling = compiling


def _out_spec(a, b, c, beta, out_dtype):
    """Shape, dtype and column-majorness of the D that tilegemm.matmul allocates."""
    batched = a.dim() == 3 or b.dim() == 3
    m, n = a.shape[-2], b.shape[-1]
    if batched:
        batch = max(a.shape[0] if a.dim() == 3 else 1, b.shape[0] if b.dim() == 3 else 1)
        shape = (batch, m, n)
    else:
        shape = (m, n)
    if out_dtype is None:
        code = _core.default_out_code(_core._dtype_code(a.dtype, "a"))
        out_dtype = _core.TORCH_FROM_CODE[code]
    return shape, out_dtype, _core.torch_d_col_major(c, beta)


# The ops are defined on the dispatcher directly, each with one Python kernel: torch's
# custom_op decorator would wrap every call in Python layers of its own (an autograd kernel, a
# backend wrapper, an aliasing check), which cost more host time than the product's launch. The
# autograd key falls through: D never requires grad, whatever its inputs do (no backward exists).
# torch.compile and meta tensors see the fake implementations.
_MATMUL_SCHEMA = (
    "matmul(Tensor a, Tensor b, Tensor? c, Tensor? bias, float alpha, float beta, "
    "str? activation, ScalarType? out_dtype, str? kernel, str? compute, Tensor? scale_a=None, "
    "Tensor? scale_b=None, str? scale_mode=None, bool fast_accum=False) -> Tensor")
_MATMUL_OUT_SCHEMA = (
    "matmul_out(Tensor a, Tensor b, Tensor? c, Tensor? bias, float alpha, float beta, "
    "str? activation, str? kernel, str? compute, Tensor(a!) out, Tensor? scale_a=None, "
    "Tensor? scale_b=None, str? scale_mode=None, bool fast_accum=False) -> ()")


def matmul_op(a, b, c, bias, alpha, beta, activation, out_dtype, kernel, compute, scale_a=None,
              scale_b=None, scale_mode=None, fast_accum=False):
    """tilegemm::matmul: D = act(alpha * a @ b + beta * c + bias) on the current stream, into a
    new tensor."""
    scales = _core.scale_args(scale_a, scale_b, scale_mode, fast_accum)
    if scales is None:
        return _core.torch_matmul(a, b, c, alpha, beta, bias, activation, None, out_dtype, kernel,
                                  compute)
    r = _core.build(a, b, c, alpha, beta, bias, activation, None, out_dtype, kernel, compute, None,
                    scales=scales)
    return _core.run(r, _core._raw_stream(r.device))


def _matmul_fake(a, b, c, bias, alpha, beta, activation, out_dtype, kernel, compute, scale_a=None,
                 scale_b=None, scale_mode=None, fast_accum=False):
    shape, dtype, col = _out_spec(a, b, c, beta, out_dtype)
    if col:
        return a.new_empty(shape[:-2] + (shape[-1], shape[-2]), dtype=dtype).mT
    return a.new_empty(shape, dtype=dtype)


def matmul_out_op(a, b, c, bias, alpha, beta, activation, kernel, compute, out, scale_a=None,
                  scale_b=None, scale_mode=None, fast_accum=False):
    """tilegemm::matmul_out: the same, into `out`."""
    scales = _core.scale_args(scale_a, scale_b, scale_mode, fast_accum)
    if scales is None:
        _core.torch_matmul(a, b, c, alpha, beta, bias, activation, out, None, kernel, compute)
        return
    r = _core.build(a, b, c, alpha, beta, bias, activation, out, None, kernel, compute, None,
                    scales=scales)
    _core.run(r, _core._raw_stream(r.device))


def _matmul_out_fake(a, b, c, bias, alpha, beta, activation, kernel, compute, out, scale_a=None,
                     scale_b=None, scale_mode=None, fast_accum=False):
    return None


def _define(lib, schema, kernel, fake):
    name = schema[:schema.index("(")]
    lib.define(schema)
    lib.impl(name, kernel, "CompositeExplicitAutograd")
    lib.impl(name, torch.library.fallthrough_kernel, "Autograd")
    torch.library.register_fake("tilegemm::" + name, fake, lib=lib)


_LIB = torch.library.Library("tilegemm", "FRAGMENT")  # kept: the registrations live with it
_define(_LIB, _MATMUL_SCHEMA, matmul_op, _matmul_fake)
_define(_LIB, _MATMUL_OUT_SCHEMA, matmul_out_op, _matmul_out_fake)


def op_call(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute, stream,
            scales=None):
    """tilegemm.matmul through the custom ops (torch.compile, tensor subclasses); scales is
    _core.scale_args(...) of the call, or None."""
    if stream is not None:
        raise ValueError("tilegemm: stream= is not taken under torch.compile or with tensor "
                         "subclasses (the op runs on the current stream)")
    scale_a, scale_b, scale_mode, fast_accum = scales or (None, None, None, False)
    fast_accum = bool(fast_accum)
    if out is None:
        return torch.ops.tilegemm.matmul(a, b, c, bias, alpha, beta, activation, out_dtype,
                                         kernel, compute, scale_a, scale_b, scale_mode,
                                         fast_accum)
    if out_dtype is not None and out_dtype != out.dtype:
        raise ValueError(f"tilegemm: out_dtype {out_dtype} differs from out's dtype {out.dtype}")
    torch.ops.tilegemm.matmul_out(a, b, c, bias, alpha, beta, activation, kernel, compute, out,
                                  scale_a, scale_b, scale_mode, fast_accum)
    return out


_U_OUT = {"f32": 0.0, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
_ABS = {"f32": 2.0 ** -149, "f16": 2.0 ** -24, "bf16": 2.0 ** -133}
# fp8 (interface/measure.h): the tensor cores' own accumulation of fp8 products keeps about 14
# bits; it runs over at most _FP8_PROMOTE_K of k before fp32 takes over (all of k with fast
# accumulation, except under block scales); scales add _SCALE_ROUNDINGS fp32 roundings.
_U_FP8_TENSOR_ACC = 2.0 ** -13
_FP8_PROMOTE_K = 128
_SCALE_ROUNDINGS = 3.0
_U_F32 = 2.0 ** -24


def operand_scales(s, mode, rows, cols, is_a, batched):
    """The fp8 scale of every element of an operand (rows x cols per batch), in fp64, shaped to
    broadcast against it: s is a scale tensor in a shape tilegemm.matmul takes under `mode`
    ("tensor", "rowcol" or "block"), is_a says whether it scales a (rows = m, cols = k) or b
    (rows = k, cols = n), batched whether the operand is 3-D."""
    s = s.double()
    block = L.SCALE_BLOCK_K
    if mode == "tensor":
        e = s.reshape(-1, 1, 1)
    elif mode == "rowcol":
        e = s.reshape(-1, rows, 1) if is_a else s.reshape(-1, 1, cols)
    elif is_a:  # block: one per 1 x 128 slice of a row
        e = s.reshape(-1, rows, -(-cols // block)).repeat_interleave(block, -1)[..., :cols]
    else:  # block: one per 128 x 128 block
        e = s.reshape(-1, -(-rows // block), -(-cols // block))
        e = e.repeat_interleave(block, -2).repeat_interleave(block, -1)[..., :rows, :cols]
    return e if batched else e[0]


def error_bound(a, b, *, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, out_dtype=None,
                compute=None, scale_a=None, scale_b=None, scale_mode=None, fast_accum=False):
    """Per element, the bound tilegemm's tests hold matmul(a, b, ...) to (docs/python.md,
    tools/common/tolerance.c): |D - exact| <= 4 (2 u_in + K 2^-24 + u_fp8 + u_out + u_epi) mag
    + abs, with mag = |alpha| |sa a| @ |b sb| + |beta| |c| + |bias| computed in fp64 (torch
    tensors only; sa, sb the fp8 scales, 1 without)."""
    code = (_core._dtype_code(out_dtype, "out_dtype") if out_dtype is not None
            else _core.default_out_code(_core._dtype_code(a.dtype, "a")))
    d_name = L.DTYPE_NAMES[code]
    ints = a.dtype == torch.int8
    k = a.shape[-1]
    epilogue = alpha != 1.0 or beta != 0.0 or bias is not None or activation is not None
    u_in = 2.0 ** -11 if compute == "tf32" else 0.0
    mode = "none"
    scales = _core.scale_args(scale_a, scale_b, scale_mode, fast_accum)
    if scales is not None:  # the mode the call would run, checked as matmul checks it
        r = _core.build(a, b, None, 1.0, 0.0, None, None, None, out_dtype, None, compute, 0,
                        need_data=False, scales=scales)
        mode = {code: name for name, code in L.SCALE_MODES.items()}[
            r.fields[_core.FIELD_INDEX["scale_mode"]]]
    fp8 = (L.DTYPE_NAMES[_core._dtype_code(a.dtype, "a")] in _core.FP8_NAMES
           and L.DTYPE_NAMES[_core._dtype_code(b.dtype, "b")] in _core.FP8_NAMES)
    fast_run = k if fast_accum and mode != "block" else min(k, _FP8_PROMOTE_K)
    u_fp8 = (fast_run * _U_FP8_TENSOR_ACC
             + (_SCALE_ROUNDINGS * _U_F32 if mode != "none" else 0.0)) if fp8 else 0.0
    rel = 4.0 * (2.0 * u_in + (0.0 if ints else k * _U_F32) + u_fp8 + _U_OUT.get(d_name, 0.0)
                 + (4.0 * _U_F32 if epilogue else 0.0))
    if activation == "gelu":
        rel = rel * 1.13 + 2.0 ** -20
    sa, sb = a.double().abs(), b.double().abs()
    if mode != "none":
        batched = a.dim() == 3 or b.dim() == 3
        m, n = a.shape[-2], b.shape[-1]
        sa = sa * operand_scales(scale_a, mode, m, k, True, batched).abs()
        sb = sb * operand_scales(scale_b, mode, k, n, False, batched).abs()
    mag = abs(alpha) * torch.matmul(sa, sb)
    if c is not None and beta != 0:
        mag = mag + abs(beta) * c.double().abs()
    if bias is not None:
        mag = mag + bias.double().abs()
    return rel * mag + _ABS.get(d_name, 1.0)
