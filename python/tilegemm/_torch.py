"""PyTorch support: dtypes, the current stream, and the custom ops `tilegemm::matmul` and
`tilegemm::matmul_out` (with fake implementations) that torch.compile and CUDA graphs see.

Eager calls of tilegemm.matmul on plain tensors go straight to the C library (the op's dispatch
costs more host time than the product's launch); under torch.compile, and for tensor subclasses
(fake, functional, ...), tilegemm.matmul calls the ops.
"""
from typing import Optional

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


@torch.library.custom_op("tilegemm::matmul", mutates_args=())
def matmul_op(a: torch.Tensor, b: torch.Tensor, c: Optional[torch.Tensor], bias: Optional[torch.Tensor],
              alpha: float, beta: float, activation: Optional[str], out_dtype: Optional[torch.dtype],
              kernel: Optional[str], compute: Optional[str]) -> torch.Tensor:
    """D = act(alpha * a @ b + beta * c + bias) on the current stream, into a new tensor."""
    r = _core.build(a, b, c, alpha, beta, bias, activation, None, out_dtype, kernel, compute, None)
    return _core.run(r, _core._raw_stream(r.device))


@matmul_op.register_fake
def _matmul_fake(a, b, c, bias, alpha, beta, activation, out_dtype, kernel, compute):
    shape, dtype, col = _out_spec(a, b, c, beta, out_dtype)
    if col:
        return a.new_empty(shape[:-2] + (shape[-1], shape[-2]), dtype=dtype).mT
    return a.new_empty(shape, dtype=dtype)


@torch.library.custom_op("tilegemm::matmul_out", mutates_args=("out",))
def matmul_out_op(a: torch.Tensor, b: torch.Tensor, c: Optional[torch.Tensor],
                  bias: Optional[torch.Tensor], alpha: float, beta: float,
                  activation: Optional[str], kernel: Optional[str], compute: Optional[str],
                  out: torch.Tensor) -> None:
    """The same, into `out`."""
    r = _core.build(a, b, c, alpha, beta, bias, activation, out, None, kernel, compute, None)
    _core.run(r, _core._raw_stream(r.device))


@matmul_out_op.register_fake
def _matmul_out_fake(a, b, c, bias, alpha, beta, activation, kernel, compute, out):
    return None


def op_call(a, b, c, alpha, beta, bias, activation, out, out_dtype, kernel, compute, stream):
    """tilegemm.matmul through the custom ops (torch.compile, tensor subclasses)."""
    if stream is not None:
        raise ValueError("tilegemm: stream= is not taken under torch.compile or with tensor "
                         "subclasses (the op runs on the current stream)")
    if out is None:
        return torch.ops.tilegemm.matmul(a, b, c, bias, alpha, beta, activation, out_dtype,
                                         kernel, compute)
    if out_dtype is not None and out_dtype != out.dtype:
        raise ValueError(f"tilegemm: out_dtype {out_dtype} differs from out's dtype {out.dtype}")
    torch.ops.tilegemm.matmul_out(a, b, c, bias, alpha, beta, activation, kernel, compute, out)
    return out


_U_OUT = {"f32": 0.0, "f16": 2.0 ** -11, "bf16": 2.0 ** -8}
_ABS = {"f32": 2.0 ** -149, "f16": 2.0 ** -24, "bf16": 2.0 ** -133}


def error_bound(a, b, *, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, out_dtype=None,
                compute=None):
    """Per element, the bound tilegemm's tests hold matmul(a, b, ...) to (docs/python.md,
    tools/common/tolerance.c): |D - exact| <= 4 (2 u_in + K 2^-24 + u_out + u_epi) mag + abs,
    with mag = |alpha| |a| @ |b| + |beta| |c| + |bias| computed in fp64 (torch tensors only)."""
    code = (_core._dtype_code(out_dtype, "out_dtype") if out_dtype is not None
            else _core.default_out_code(_core._dtype_code(a.dtype, "a")))
    d_name = L.DTYPE_NAMES[code]
    ints = a.dtype == torch.int8
    k = a.shape[-1]
    epilogue = alpha != 1.0 or beta != 0.0 or bias is not None or activation is not None
    u_in = 2.0 ** -11 if compute == "tf32" else 0.0
    rel = 4.0 * (2.0 * u_in + (0.0 if ints else k * 2.0 ** -24) + _U_OUT.get(d_name, 0.0)
                 + (4.0 * 2.0 ** -24 if epilogue else 0.0))
    if activation == "gelu":
        rel = rel * 1.13 + 2.0 ** -20
    mag = abs(alpha) * torch.matmul(a.double().abs(), b.double().abs())
    if c is not None and beta != 0:
        mag = mag + abs(beta) * c.double().abs()
    if bias is not None:
        mag = mag + bias.double().abs()
    return rel * mag + _ABS.get(d_name, 1.0)
