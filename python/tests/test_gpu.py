"""GPU tests of the Python package (torch with a CUDA device; skipped without one): every dtype,
layout, batch form, epilogue and fp8 scale mode against an fp64 torch reference with the
library's error bound (docs/python.md; tools/common/tolerance.c), out= and out_dtype, errors,
arrays through DLPack and __cuda_array_interface__, streams, threads, torch.compile and CUDA
graph capture.
"""
import math
import threading
import zlib

import pytest

import tilegemm

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")]

DT = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16,
      "e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2, "s8": torch.int8, "s32": torch.int32}
U_OUT = {torch.float32: 0.0, torch.float16: 2.0 ** -11, torch.bfloat16: 2.0 ** -8,
         torch.int32: 0.0, torch.int8: 0.0}
ABS = {torch.float32: 2.0 ** -149, torch.float16: 2.0 ** -24, torch.bfloat16: 2.0 ** -133,
       torch.int32: 1.0, torch.int8: 1.0}
INT_RANGE = {torch.int32: (-2.0 ** 31, 2.0 ** 31 - 1), torch.int8: (-128.0, 127.0)}
FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)
BLOCK_K = 128  # k covered by one block scale (TG_SCALE_BLOCK_K)


def make(shape, dtype, layout="row", seed=None):
    """A CUDA tensor of random values exactly representable in `dtype`, stored row-major
    ("row"), as the transpose of a row-major tensor ("col"), inside a wider row-major tensor
    ("pad": leading dimension 8 elements past the extent), or with an odd leading dimension
    ("odd": rows 1 element apart from 16-byte alignment)."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed if seed is not None else zlib.crc32(repr((shape, dtype, layout)).encode()))
    if len(shape) == 1:
        return make((1,) + tuple(shape), dtype, seed=seed)[0]
    *batch, rows, cols = shape
    stored = (*batch, cols, rows) if layout == "col" else (*batch, rows,
                                                          cols + {"pad": 8, "odd": 1}.get(layout, 0))
    if dtype in (torch.int8, torch.int32):
        x = torch.randint(-128, 128, stored, generator=g, device="cuda").to(dtype)
    else:
        x = (torch.randn(stored, generator=g, device="cuda") * 2).to(dtype)
    if layout == "col":
        return x.mT
    return x[..., :cols]


def gelu(v):
    return 0.5 * v * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v ** 3)))


def reference(a, b, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, scales=None):
    """fp64 result before D's rounding, and the bound's scale |alpha|·Σ|a||b| + |beta||c| + |bias|
    (a and b times their fp8 scales: `scales` holds each element's, see scale_grid)."""
    A, B = a.double(), b.double()
    if scales is not None:
        A, B = A * scales[0], B * scales[1]
    v = alpha * torch.matmul(A, B)
    mag = abs(alpha) * torch.matmul(A.abs(), B.abs())
    if c is not None and beta != 0:
        v = v + beta * c.double()
        mag = mag + abs(beta) * c.double().abs()
    if bias is not None:
        v = v + bias.double()
        mag = mag + bias.double().abs()
    if activation == "relu":
        v = torch.where(v < 0, torch.zeros_like(v), v)
    elif activation == "gelu":
        v = gelu(v)
    return v, mag


def check(d, a, b, c=None, alpha=1.0, beta=0.0, bias=None, activation=None, compute=None,
          scales=None, fast_accum=False):
    """Every element of d within the library's bound of the fp64 reference (tolerance.c,
    interface/measure.h): |d - ref| <= 4 (2 u_in + K u_acc + u_fp8 + u_out + u_epi) mag + abs,
    GELU's slope and tanh slack on top; integer D exact after saturation (up to 1 where an fp32
    epilogue rounds). fp8: u_fp8 = min(K, 128) 2^-13 (K 2^-13 with fast accumulation, but for
    block scales) + 3 2^-24 with scales; scales = (scale of each element of a, of b, mode)."""
    ref, mag = reference(a, b, c, alpha, beta, bias, activation, scales)
    k = a.shape[-1]
    ints = a.dtype == torch.int8
    u_in = 2.0 ** -11 if compute == "tf32" else 0.0
    u_acc = 0.0 if ints else 2.0 ** -24
    epilogue = alpha != 1.0 or beta != 0.0 or bias is not None or activation is not None
    u_epi = 4 * 2.0 ** -24 if epilogue else 0.0
    u_fp8 = 0.0
    if a.dtype in FP8 and b.dtype in FP8:
        block = scales is not None and scales[2] == "block"
        u_fp8 = (k if fast_accum and not block else min(k, BLOCK_K)) * 2.0 ** -13
        u_fp8 += 3 * 2.0 ** -24 if scales is not None else 0.0
    rel = 4 * (2 * u_in + k * u_acc + u_fp8 + U_OUT[d.dtype] + u_epi)
    if activation == "gelu":
        rel = rel * 1.13 + 2.0 ** -20
    if d.dtype in INT_RANGE:
        ref = ref.clamp(*INT_RANGE[d.dtype])
        if not epilogue:
            assert torch.equal(d.double(), ref), "integer D is not exact"
            return 0.0
    err = (d.double() - ref).abs()
    bound = rel * mag + ABS[d.dtype]
    assert not torch.isnan(d.double()).any(), "NaN in D"
    ratio = (err / bound).max().item() if err.numel() else 0.0
    assert ratio <= 1.0, f"worst error/bound {ratio:.3g}"
    return ratio


# ---- dtypes -------------------------------------------------------------------------------------
@pytest.mark.parametrize("a_t, b_t, compute, out_dtype", [
    ("f32", "f32", None, None), ("f32", "f32", "tf32", None), ("f32", "f32", None, "bf16"),
    ("f16", "f16", None, None), ("f16", "f16", None, "f32"),
    ("bf16", "bf16", None, None), ("bf16", "bf16", None, "f32"), ("bf16", "bf16", None, "f16"),
    ("e4m3", "e4m3", None, None), ("e5m2", "e5m2", None, "f32"), ("e4m3", "e5m2", None, "f16"),
    ("s8", "s8", None, None), ("s8", "s8", None, "s8"),
])
@pytest.mark.parametrize("mnk", [(197, 130, 264), (256, 384, 512)])
def test_dtypes(a_t, b_t, compute, out_dtype, mnk):
    m, n, k = mnk
    a, b = make((m, k), DT[a_t]), make((k, n), DT[b_t])
    d = tilegemm.matmul(a, b, compute=compute, out_dtype=DT[out_dtype] if out_dtype else None)
    expect = DT[out_dtype] if out_dtype else {"e4m3": torch.bfloat16, "e5m2": torch.bfloat16,
                                              "s8": torch.int32}.get(a_t, DT[a_t])
    assert d.dtype == expect and d.shape == (m, n) and d.is_contiguous()
    check(d, a, b, compute=compute)


# ---- layouts --------------------------------------------------------------------------------------
@pytest.mark.parametrize("la", ["row", "col", "pad", "odd"])
@pytest.mark.parametrize("lb", ["row", "col", "pad", "odd"])
@pytest.mark.parametrize("dtype", ["bf16", "f16"])
def test_layouts(la, lb, dtype):
    m, n, k = 200, 136, 300
    a, b = make((m, k), DT[dtype], la), make((k, n), DT[dtype], lb)
    check(tilegemm.matmul(a, b), a, b)


def test_views_are_not_copied():
    a = make((128, 64), torch.bfloat16, "col")
    b = make((64, 96), torch.bfloat16, "pad")
    before = torch.cuda.memory_allocated()
    d = tilegemm.matmul(a, b)
    assert torch.cuda.memory_allocated() - before == d.untyped_storage().nbytes()


@pytest.mark.parametrize("lo", ["row", "col", "pad", "strided"])
def test_out_layouts(lo):
    m, n, k = 160, 96, 128
    a, b = make((m, k), torch.bfloat16), make((k, n), torch.bfloat16, "col")
    if lo == "strided":  # no (order, ld) form: computed apart and copied in
        out = torch.full((m, 2 * n), 7.0, dtype=torch.bfloat16, device="cuda")[:, ::2]
    else:
        out = make((m, n), torch.bfloat16, lo)
    r = tilegemm.matmul(a, b, out=out)
    assert r is out
    check(out, a, b)


# ---- batches ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["both", "a2d", "b2d", "a_expand", "b_expand", "a_one", "col"])
def test_batches(form):
    L, m, n, k = 3, 96, 80, 136
    t = torch.bfloat16
    a, b = make((L, m, k), t), make((L, k, n), t)
    if form == "a2d":
        a = make((m, k), t)
    elif form == "b2d":
        b = make((k, n), t)
    elif form == "a_expand":
        a = make((m, k), t)[None].expand(L, m, k)  # batch stride 0: shared
    elif form == "b_expand":
        b = make((k, n), t, "col")[None].expand(L, k, n)
    elif form == "a_one":
        a = make((1, m, k), t)
    elif form == "col":
        a, b = make((L, m, k), t, "col"), make((L, k, n), t, "pad")
    d = tilegemm.matmul(a, b)
    assert d.shape == (L, m, n)
    check(d, a, b)


def test_batch_of_c_broadcast():
    L, m, n, k = 2, 64, 72, 40
    a, b = make((L, m, k), torch.float16), make((L, k, n), torch.float16)
    c = make((m, n), torch.float32)
    d = tilegemm.matmul(a, b, c=c, beta=0.5)
    check(d, a, b, c=c, beta=0.5)


# ---- epilogues ------------------------------------------------------------------------------------
@pytest.mark.parametrize("activation", [None, "relu", "gelu"])
@pytest.mark.parametrize("bias_t", [None, "f32", "bf16"])
@pytest.mark.parametrize("scalars", [(1.0, 0.0), (0.5, 0.75)])
def test_epilogues(activation, bias_t, scalars):
    alpha, beta = scalars
    m, n, k = 136, 200, 264
    a, b = make((m, k), torch.bfloat16), make((k, n), torch.bfloat16, "col")
    c = make((m, n), torch.bfloat16) if beta else None
    bias = make((n,), DT[bias_t]) if bias_t else None
    d = tilegemm.matmul(a, b, c=c, alpha=alpha, beta=beta, bias=bias, activation=activation)
    check(d, a, b, c, alpha, beta, bias, activation)


def test_repeated_calls_reuse_the_request():
    """A call like one made before (same shapes, strides, dtypes and arguments) reuses its
    request with this call's pointers, alpha, beta and bias: the same bits into a D of the same
    form, and new inputs computed right."""
    m, n, k = 200, 136, 300
    t = torch.bfloat16
    a, b = make((m, k), t), make((k, n), t, "col")
    c, bias = make((m, n), torch.float32, "col"), make((n,), torch.float32)
    cases = [
        (a, b, {}),
        (make((m, k), t, "odd"), make((k, n), t, "pad"), {"activation": "gelu"}),
        (make((3, m, k), t), make((k, n), t)[None].expand(3, k, n), {"out_dtype": torch.float32}),
        (a, b, {"c": c, "beta": 0.5, "bias": bias, "activation": "relu", "alpha": 2.0}),
        (a, b, {"out": torch.empty(n, m, dtype=t, device="cuda").t(), "bias": bias}),
    ]
    for x, y, kw in cases:
        first = tilegemm.matmul(x, y, **kw).clone()
        again = tilegemm.matmul(x, y, **kw)
        assert torch.equal(first, again)  # clone() keeps the strides of a dense tensor
        assert (again.shape, again.stride(), again.dtype) == (first.shape, first.stride(),
                                                              first.dtype)
        check(again, x, y, kw.get("c"), kw.get("alpha", 1.0), kw.get("beta", 0.0),
              kw.get("bias"), kw.get("activation"))
    a2, c2, bias2 = make((m, k), t, seed=1), make((m, n), torch.float32, "col", seed=2), make(
        (n,), torch.float32, seed=3)
    d = tilegemm.matmul(a2, b, c=c2, beta=-1.0, bias=bias2, activation="relu", alpha=0.25)
    assert d.mT.is_contiguous()  # D takes C's order, as the first call's did
    check(d, a2, b, c2, 0.25, -1.0, bias2, "relu")


def test_c_of_another_type_and_order():
    m, n, k = 128, 96, 64
    a, b = make((m, k), torch.float16), make((k, n), torch.float16)
    c = make((m, n), torch.float32, "col")
    d = tilegemm.matmul(a, b, c=c, beta=1.0)
    assert d.mT.is_contiguous()  # D takes C's column-major order
    check(d, a, b, c=c, beta=1.0)
    out = torch.empty(m, n, dtype=torch.float16, device="cuda")  # row-major: C is copied
    tilegemm.matmul(a, b, c=c, beta=1.0, out=out)
    check(out, a, b, c=c, beta=1.0)


def test_c_in_place():
    m, n, k = 128, 128, 96
    a, b = make((m, k), torch.float32), make((k, n), torch.float32)
    c = make((m, n), torch.float32)
    d = c.clone()
    tilegemm.matmul(a, b, c=d, beta=1.0, out=d)
    check(d, a, b, c=c, beta=1.0)


def test_int8_epilogue_saturates():
    m, n, k = 64, 64, 512
    a, b = make((m, k), torch.int8), make((k, n), torch.int8)
    bias = make((n,), torch.float32)
    d = tilegemm.matmul(a, b, bias=bias, activation="relu", alpha=0.01, out_dtype=torch.int8)
    check(d, a, b, alpha=0.01, bias=bias, activation="relu")


def test_zero_sizes():
    a, b = make((0, 8), torch.bfloat16), make((8, 5), torch.bfloat16)
    assert tilegemm.matmul(a, b).shape == (0, 5)
    a, b = make((4, 0), torch.bfloat16), make((0, 5), torch.bfloat16)
    c = make((4, 5), torch.bfloat16)
    d = tilegemm.matmul(a, b, c=c, beta=2.0)
    assert torch.equal(d.float(), 2 * c.float())
    assert tilegemm.last_kernel(a.device.index) == "epilogue"


# ---- errors ------------------------------------------------------------------------------------------
def test_errors():
    a, b = make((64, 32), torch.bfloat16), make((32, 48), torch.bfloat16)
    with pytest.raises(ValueError, match="inner dimensions"):
        tilegemm.matmul(a, a)
    with pytest.raises(ValueError, match="needs CUDA tensors"):
        tilegemm.matmul(a.cpu(), b)
    with pytest.raises(tilegemm.TilegemmError, match="b_type"):
        tilegemm.matmul(a, b.half())
    with pytest.raises(tilegemm.TilegemmValueError, match="'C' is NULL"):
        tilegemm.matmul(a, b, beta=1.0)
    with pytest.raises(ValueError, match="out_dtype"):
        tilegemm.matmul(a, b, out=torch.empty(64, 48, device="cuda"), out_dtype=torch.float16)
    with pytest.raises(ValueError, match="scales apply to fp8 inputs"):
        tilegemm.matmul(a, b, scale_a=torch.ones((), device="cuda"),
                        scale_b=torch.ones((), device="cuda"))
    fast = [k.name for k in tilegemm.list_kernels() if k.family in ("sm90", "sm80")]
    if fast:  # no tensor-core kernel takes f32 inputs at full precision
        with pytest.raises(tilegemm.TilegemmError) as e:
            tilegemm.matmul(a.float(), b.float(), kernel=fast[0])
        assert e.value.status_name == "TG_ERR_NOT_SUPPORTED" and fast[0] in str(e.value)
    with pytest.raises(tilegemm.TilegemmValueError, match="kernel"):
        tilegemm.matmul(a, b, kernel="no_such_kernel")


def test_named_kernel_and_last_kernel():
    a, b = make((64, 32), torch.float16), make((32, 48), torch.float16)
    d = tilegemm.matmul(a, b, kernel="ref")
    assert tilegemm.last_kernel() == "ref"
    check(d, a, b)


# ---- other arrays, streams, threads ------------------------------------------------------------
class _CAI:
    def __init__(self, t):
        self._t = t
        self.__cuda_array_interface__ = t.__cuda_array_interface__


class _DLPack:
    def __init__(self, t):
        self._t = t

    def __dlpack__(self, stream=None, **kw):
        return self._t.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self._t.__dlpack_device__()


@pytest.mark.parametrize("wrap", [_CAI, _DLPack])
def test_array_protocols(wrap):
    m, n, k = 96, 64, 80
    a, b = make((m, k), torch.float16), make((k, n), torch.float16, "col")
    out = torch.empty(m, n, dtype=torch.float16, device="cuda")
    r = tilegemm.matmul(wrap(a), wrap(b), out=wrap(out), stream=torch.cuda.current_stream())
    assert isinstance(r, wrap)
    torch.cuda.synchronize()
    check(out, a, b)
    if wrap is _DLPack:  # bf16 has a DLPack code, not a typestr
        a, b = a.bfloat16(), b.bfloat16()
        out = torch.empty(m, n, dtype=torch.bfloat16, device="cuda")
        tilegemm.matmul(wrap(a), wrap(b), out=wrap(out))
        torch.cuda.synchronize()
        check(out, a, b)
    with pytest.raises(TypeError, match="out= is required"):
        tilegemm.matmul(wrap(a), wrap(b))


def test_side_stream():
    a, b = make((512, 256), torch.bfloat16), make((256, 384), torch.bfloat16)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        d = tilegemm.matmul(a, b)
    s.synchronize()
    check(d, a, b)


def test_stream_argument_with_copies():
    """stream= with torch tensors: an operand without a copy-free layout and a strided out are
    copied on that stream (it is made current for the call)."""
    m, n, k = 128, 96, 64
    a = make((m, 2 * k), torch.float16)[:, ::2]  # no unit stride: copied
    b = make((k, n), torch.float16)
    out = torch.zeros(m, 2 * n, dtype=torch.float16, device="cuda")[:, ::2]  # computed apart
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    r = tilegemm.matmul(a, b, out=out, stream=s)
    assert r is out and torch.cuda.current_stream() != s
    s.synchronize()
    check(out, a, b)


def test_threads_have_their_own_handles():
    results, errors = {}, []

    def work(i):
        try:
            a, b = make((128 + i, 96), torch.float16, seed=i), make((96, 64), torch.float16, seed=99)
            for _ in range(5):
                d = tilegemm.matmul(a, b)
            torch.cuda.synchronize()
            results[i] = (d, a, b)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for d, a, b in results.values():
        check(d, a, b)


# ---- explain, tune --------------------------------------------------------------------------------
def test_explain_on_the_device():
    a, b = make((4096, 4096), torch.bfloat16), make((4096, 4096), torch.bfloat16)
    text = tilegemm.explain(a, b)
    major, minor = torch.cuda.get_device_capability()
    assert f"device: sm_{major}{minor}," in text and "kernel: " in text


def test_tune():
    a, b = make((256, 256), torch.bfloat16), make((256, 256), torch.bfloat16)
    out = torch.empty(256, 256, dtype=torch.bfloat16, device="cuda")
    r = tilegemm.tune(a, b, out=out, warmup=1, iterations=3)
    assert r.kernel and r.us > 0 and r.worst_ratio <= 1.0
    assert r.kernel in [c.kernel for c in r.candidates]
    check(out, a, b)


# ---- fp8 scales -----------------------------------------------------------------------------------
def make_scales(mode, m, n, k, sets_a=None, sets_b=None, seed=0):
    """scale_a and scale_b of `mode`, random in [0.5, 2), float32 on the GPU, in the layout
    tilegemm reads without a copy (block: torch._scaled_mm's strides); sets_a/sets_b prepend a
    batch dimension."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    kb, nb = -(-k // BLOCK_K), -(-n // BLOCK_K)

    def rand(shape):
        return 0.5 + 1.5 * torch.rand(shape, generator=g, device="cuda")

    def batched(sets, shape, transposed):
        lead = (sets,) if sets else ()
        if transposed:  # the last two dimensions stored the other way round
            return rand(lead + shape[::-1]).mT
        return rand(lead + shape)

    if mode == "tensor":
        return batched(sets_a, (), False), batched(sets_b, (), False)
    if mode == "rowcol":
        return batched(sets_a, (m,), False), batched(sets_b, (n,), False)
    return batched(sets_a, (m, kb), True), batched(sets_b, (kb, nb), True)


def scale_grid(s, mode, operand, rows, cols):
    """The scale of each element of one batch of op(a) (rows = m, cols = k) or op(b) (rows = k,
    cols = n) as the header defines it, in fp64, indexed independently of the library: tensor
    s, rowcol s[i] or s[j], block s[i, kk/128] for a and s[kk/128, j/128] for b."""
    s = s.double()
    if mode == "tensor":
        return s.reshape(())
    if mode == "rowcol":
        return s.reshape(rows, 1) if operand == "a" else s.reshape(1, cols)
    if operand == "a":
        return s[:, torch.arange(cols, device=s.device) // BLOCK_K]
    kk = torch.arange(rows, device=s.device)[:, None] // BLOCK_K
    jj = torch.arange(cols, device=s.device)[None, :] // BLOCK_K
    return s[kk, jj]


@pytest.mark.parametrize("mode", ["tensor", "rowcol", "block"])
@pytest.mark.parametrize("la, lb", [("row", "col"), ("row", "row"), ("col", "col")])
@pytest.mark.parametrize("fast_accum", [False, True])
@pytest.mark.parametrize("types", [("e4m3", "e4m3", None), ("e4m3", "e5m2", "f32")])
@pytest.mark.parametrize("mnk", [(197, 130, 264), (256, 384, 512)])
def test_fp8_scales(mode, la, lb, fast_accum, types, mnk):
    m, n, k = mnk
    a_t, b_t, out_t = types
    a, b = make((m, k), DT[a_t], la), make((k, n), DT[b_t], lb)
    sa, sb = make_scales(mode, m, n, k, seed=m + n)
    d = tilegemm.matmul(a, b, scale_a=sa, scale_b=sb, fast_accum=fast_accum,
                        out_dtype=DT[out_t] if out_t else None)
    grids = (scale_grid(sa, mode, "a", m, k), scale_grid(sb, mode, "b", k, n), mode)
    check(d, a, b, scales=grids, fast_accum=fast_accum)
    # tilegemm.error_bound says the same.
    ref, _ = reference(a, b, scales=grids)
    bound = tilegemm.error_bound(a, b, scale_a=sa, scale_b=sb, fast_accum=fast_accum,
                                 out_dtype=DT[out_t] if out_t else None)
    assert ((d.double() - ref).abs() <= bound).all()
    # The mode named gives the bits of the mode inferred.
    assert torch.equal(d, tilegemm.matmul(a, b, scale_a=sa, scale_b=sb, scale_mode=mode,
                                          fast_accum=fast_accum,
                                          out_dtype=DT[out_t] if out_t else None))


@pytest.mark.parametrize("mode", ["tensor", "rowcol", "block"])
def test_fp8_scales_batched_with_epilogue(mode):
    L, m, n, k = 3, 96, 144, 392
    a, b = make((L, m, k), torch.float8_e4m3fn), make((k, n), torch.float8_e4m3fn, "col")
    c, bias = make((m, n), torch.bfloat16), make((n,), torch.float32)
    sa, sb = make_scales(mode, m, n, k, sets_a=L, seed=7)  # a's batches have their own; b one
    d = tilegemm.matmul(a, b, c=c, alpha=0.5, beta=0.25, bias=bias, activation="relu",
                        scale_a=sa, scale_b=sb)
    assert d.shape == (L, m, n)
    for i in range(L):
        grids = (scale_grid(sa[i], mode, "a", m, k), scale_grid(sb, mode, "b", k, n), mode)
        check(d[i], a[i], b, c, 0.5, 0.25, bias, "relu", scales=grids)


def test_fp8_scales_of_other_strides_are_copied():
    m, n, k = 128, 256, 384
    a, b = make((m, k), torch.float8_e4m3fn), make((k, n), torch.float8_e4m3fn, "col")
    sa, sb = make_scales("block", m, n, k, seed=3)
    d = tilegemm.matmul(a, b, scale_a=sa, scale_b=sb)
    # The same scales stored row-major: copied into the layout, the same bits.
    assert torch.equal(d, tilegemm.matmul(a, b, scale_a=sa.contiguous(), scale_b=sb.contiguous()))
    # Expanded per-batch scales (batch stride 0) are copied too.
    a3 = make((2, m, k), torch.float8_e4m3fn)
    d3 = tilegemm.matmul(a3, b, scale_a=sa[None].expand(2, m, -1), scale_b=sb)
    grids = (scale_grid(sa, "block", "a", m, k), scale_grid(sb, "block", "b", k, n), "block")
    for i in range(2):
        check(d3[i], a3[i], b, scales=grids)


def test_fp8_scale_errors():
    a, b = make((64, 256), torch.float8_e4m3fn), make((256, 48), torch.float8_e4m3fn, "col")
    sa, sb = make_scales("rowcol", 64, 48, 256)
    with pytest.raises(ValueError, match="needs CUDA tensors"):
        tilegemm.matmul(a, b, scale_a=sa.cpu(), scale_b=sb)
    with pytest.raises(ValueError, match="scale_b has shape"):
        tilegemm.matmul(a, b, scale_a=sa, scale_b=sb[:7])
    with pytest.raises(ValueError, match="scale_b is None"):
        tilegemm.matmul(a, b, scale_a=sa)
    with pytest.raises(TypeError, match="float32"):
        tilegemm.matmul(a, b, scale_a=sa.half(), scale_b=sb)


def test_fp8_scales_compile_and_graph():
    torch._dynamo.reset()
    m, n, k = 256, 384, 512
    a, b = make((m, k), torch.float8_e4m3fn), make((k, n), torch.float8_e4m3fn, "col")
    sa, sb = make_scales("block", m, n, k, seed=5)

    def f(a, b, sa, sb):
        return tilegemm.matmul(a, b, scale_a=sa, scale_b=sb)

    eager = f(a, b, sa, sb)
    assert torch.equal(torch.compile(f, fullgraph=True)(a, b, sa, sb), eager)
    torch._dynamo.reset()
    out = torch.empty_like(eager)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        tilegemm.matmul(a, b, scale_a=sa, scale_b=sb, out=out)
    sa.mul_(2.0)  # scales are read when the work runs
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(out, f(a, b, sa, sb))


# ---- torch.compile and CUDA graphs ----------------------------------------------------------------
def _block(a, b, bias):
    return tilegemm.matmul(a, b, bias=bias, activation="gelu") * 2


def test_torch_compile_fullgraph():
    torch._dynamo.reset()
    a, b = make((256, 512), torch.bfloat16), make((512, 384), torch.bfloat16, "col")
    bias = make((384,), torch.bfloat16)
    compiled = torch.compile(_block, fullgraph=True)
    assert torch.equal(compiled(a, b, bias), _block(a, b, bias))
    out = torch.empty(256, 384, dtype=torch.float32, device="cuda")

    def into(a, b, out):
        tilegemm.matmul(a, b, out=out, beta=0.0)
        return out.sum()

    torch.compile(into, fullgraph=True)(a, b, out)
    check(out, a, b)
    torch._dynamo.reset()


def test_torch_compile_reduce_overhead():
    torch._dynamo.reset()
    a, b = make((256, 512), torch.bfloat16), make((512, 384), torch.bfloat16)
    bias = make((384,), torch.bfloat16)
    compiled = torch.compile(_block, mode="reduce-overhead", fullgraph=True)
    for _ in range(3):  # warm-up, record, replay
        got = compiled(a, b, bias)
    assert torch.equal(got, _block(a, b, bias))
    torch._dynamo.reset()


@pytest.mark.parametrize("mnk, la", [((256, 384, 512), "row"), ((3072, 3072, 3072), "row"),
                                     ((200, 136, 300), "odd"), ((8192, 8192, 1024), "col")])
def test_cuda_graph_replay_matches_eager(mnk, la):
    """Capture after a warm-up call on a side stream (torch's usual practice), replay on new
    inputs: bitwise what an eager call gives."""
    m, n, k = mnk
    a, b = make((m, k), torch.bfloat16, la), make((k, n), torch.bfloat16)
    bias = make((n,), torch.float32)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        tilegemm.matmul(a, b, bias=bias, activation="relu")  # warm-up
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        d = tilegemm.matmul(a, b, bias=bias, activation="relu")
    for seed in (1, 2):
        a.copy_(make((m, k), torch.bfloat16, seed=seed))
        graph.replay()
        eager = tilegemm.matmul(a, b, bias=bias, activation="relu")
        torch.cuda.synchronize()
        assert torch.equal(d, eager)
    check(d, a, b, bias=bias, activation="relu")


def test_cuda_graph_capture_without_warm_up():
    """A thread's first call inside a capture: its handle is created and its workspace grown
    during the capture (the C library allows both); replays equal eager, bitwise."""
    m, n, k = 1000, 1000, 700  # odd leading dimensions: the repacks need workspace
    a, b = make((m, k), torch.bfloat16, "odd"), make((k, n), torch.bfloat16, "odd")
    done = {}

    def work():
        try:
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                d = tilegemm.matmul(a, b, activation="gelu")
            graph.replay()
            eager = tilegemm.matmul(a, b, activation="gelu")
            torch.cuda.synchronize()
            done["equal"] = torch.equal(d, eager)
            done["d"] = d
        except Exception as e:  # noqa: BLE001
            done["error"] = e

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert "error" not in done, done.get("error")
    assert done["equal"]
    check(done["d"], a, b, activation="gelu")
