"""CPU tests of the Python package (no GPU; torch and numpy optional): the ctypes mirror against
the C header, argument handling, layouts, explain on a virtual device, the kernel list, and with
torch the custom ops' fake implementations and torch.compile's tracing.

Run against a build tree: TILEGEMM_LIBRARY=build/libtilegemm.so TILEGEMM_ABI_PROBE=build/tests/
tg_abi_probe PYTHONPATH=python python3 -m pytest python/tests -m "not gpu" (ctest's python_cpu).
"""
import ctypes
import os
import subprocess

import pytest

import tilegemm
from tilegemm import _core, _lib as L
from tilegemm import spec


H100 = (90, 132)  # a virtual H100 SXM: sm_90, 132 SMs


def _has_device():
    n = ctypes.c_int(0)
    ok = L.lib.cudaGetDeviceCount(ctypes.byref(n)) == 0 and n.value > 0
    L.cudaGetLastError()
    return ok


# ---- the C ABI ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def probe():
    path = os.environ.get("TILEGEMM_ABI_PROBE")
    if not path:
        pytest.skip("TILEGEMM_ABI_PROBE is not set (ctest sets it to the build's tg_abi_probe)")
    facts = {"struct": {}, "field": {}, "const": {}}
    for line in subprocess.run([path], check=True, capture_output=True, text=True).stdout.splitlines():
        kind, *rest = line.split()
        if kind == "struct":
            facts["struct"][rest[0]] = int(rest[1])
        elif kind == "field":
            facts["field"].setdefault(rest[0], []).append((rest[1], int(rest[2]), int(rest[3])))
        else:
            facts["const"][rest[0]] = int(rest[1])
    return facts


def test_structs_match_the_header(probe):
    assert set(probe["struct"]) == set(L.STRUCTS)
    for name, cls in L.STRUCTS.items():
        assert ctypes.sizeof(cls) == probe["struct"][name], name
        mirror = [(f, getattr(cls, f).offset, getattr(cls, f).size) for f, _ in cls._fields_]
        assert mirror == probe["field"][name], name
    assert L.GEMM_PACKER.size == probe["struct"]["tg_gemm"]


def test_constants_match_the_header(probe):
    c = probe["const"]
    for code, name in L.STATUS_NAMES.items():
        assert c[name] == code
    for name, code in L.DTYPES.items():  # read from the library's tg_dtype_name
        assert c["TG_" + name.upper()] == code
    assert len(L.DTYPES) == c["TG_DTYPE_COUNT"]
    for name, code in L.EPILOGUES.items():  # read from tg_epilogue_name
        assert c["TG_EPI_" + name.upper().replace("-", "_")] == code
    assert (c["TG_ROW_MAJOR"], c["TG_COL_MAJOR"]) == (L.ROW_MAJOR, L.COL_MAJOR)
    for name, code in L.COMPUTE.items():
        assert c["TG_COMPUTE_" + name.upper()] == code
    assert c["TG_BATCH_BROADCAST"] == L.BATCH_BROADCAST
    assert c["TG_EXPLAIN_BYTES"] == L.EXPLAIN_BYTES
    assert c["TG_TUNE_MAX_CANDIDATES"] == L.TUNE_MAX_CANDIDATES
    for name, code in L.SCALE_MODES.items():
        assert c["TG_SCALE_" + {"rowcol": "ROW_COL"}.get(name, name.upper())] == code
    assert c["TG_SCALE_BLOCK_K"] == L.SCALE_BLOCK_K
    assert c["sizeof(tg_dtype)"] == c["sizeof(tg_status)"] == ctypes.sizeof(ctypes.c_int)
    header_version = "%d.%d.%d" % (c["TILEGEMM_VERSION_MAJOR"], c["TILEGEMM_VERSION_MINOR"],
                                   c["TILEGEMM_VERSION_PATCH"])
    assert tilegemm.version() == header_version == tilegemm.__version__


def test_packer_writes_what_ctypes_reads():
    values = (1, 2, 3, 4, 5, 6, 0, 1, 2, 1, 0, 1, 11, 12, 13, 14, -1, 16, 17, 18, 0.5, -2.0, 4,
              0x1234, 2, 0, 3, 0x5678, 0x9abc, 1)
    assert len(values) == len(L.Gemm._fields_)
    buf = ctypes.create_string_buffer(L.GEMM_PACKER.size)
    L.GEMM_PACKER.pack_into(buf, 0, *values)
    g = L.Gemm.from_buffer(buf)
    assert tuple(getattr(g, f) or 0 for f, _ in L.Gemm._fields_) == values
    assert (g.scale_mode, g.scale_a, g.scale_b, g.fp8_fast_accum) == (3, 0x5678, 0x9abc, 1)


def test_scalars_packer_writes_alpha_to_bias():
    """SCALARS_PACKER rewrites alpha, beta, epilogue and bias of a packed tg_gemm, nothing else."""
    values = tuple(range(1, 21)) + (0.5, -2.0, 4, 0x1234, 2, 0x42, 3, 0x5678, 0x9abc, 1)
    buf = ctypes.create_string_buffer(L.GEMM_PACKER.size)
    L.GEMM_PACKER.pack_into(buf, 0, *values)
    L.SCALARS_PACKER.pack_into(buf, L.SCALARS_AT, 3.0, 0.25, 1, 0xfeed)
    g = L.Gemm.from_buffer(buf)
    got = tuple(getattr(g, f) or 0 for f, _ in L.Gemm._fields_)
    i = _core.FIELD_INDEX
    assert got[i["alpha"]:i["bias"] + 1] == (3.0, 0.25, 1, 0xfeed)
    assert got[:i["alpha"]] == values[:i["alpha"]] and got[i["bias"] + 1:] == values[i["bias"] + 1:]


def test_requests_fill_every_field():
    """build's tg_gemm fields are GEMM_PACKER's, the fp8 ones last: none without scales."""
    r = _core.build(spec((8, 4), "f16"), spec((4, 8), "f16"), None, 1.0, 0.0, None, None, None,
                    None, None, None, 0, need_data=False)
    assert len(r.fields) == len(L.Gemm._fields_)
    L.GEMM_PACKER.pack_into(ctypes.create_string_buffer(L.GEMM_PACKER.size), 0, *r.fields)
    assert r.fields[_core.FIELD_INDEX["scale_mode"]:] == (L.SCALE_MODES["none"], 0, 0, 0)


def test_gemm_init_agrees_with_the_library():
    g = L.Gemm()
    L.tg_gemm_init(g, 5, 6, 7, L.DTYPES["s8"], L.DTYPES["s32"])
    assert (g.m, g.n, g.k, g.batch, g.compute) == (5, 6, 7, 1, L.COMPUTE["s32"])
    assert (g.alpha, g.beta, g.epilogue, g.a_order) == (1.0, 0.0, L.EPILOGUES["none"], L.ROW_MAJOR)


# ---- the library's facts ----------------------------------------------------------------------------
def test_list_kernels():
    kernels = tilegemm.list_kernels()
    assert kernels[0].name == "ref" and kernels[0].family == "ref"
    names = [k.name for k in kernels]
    assert len(names) == len(set(names)) == L.tg_kernel_count()
    assert all(k.sm_min <= k.sm_max and k.summary for k in kernels)


def test_library_path():
    assert os.path.exists(tilegemm.library_path)


# ---- layouts ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape, strides, expect", [
    ((4, 6), (6, 1), (1, 4, 6, L.ROW_MAJOR, 6, 0)),
    ((4, 6), (8, 1), (1, 4, 6, L.ROW_MAJOR, 8, 0)),                 # padded rows
    ((4, 6), (1, 4), (1, 4, 6, L.COL_MAJOR, 4, 0)),                 # a transposed view
    ((4, 6), (1, 5), (1, 4, 6, L.COL_MAJOR, 5, 0)),
    ((1, 6), (99, 1), (1, 1, 6, L.ROW_MAJOR, 6, 0)),                # one row: any row stride
    ((4, 1), (1, 99), (1, 4, 1, L.ROW_MAJOR, 1, 0)),                # one column
    ((3, 4, 6), (24, 6, 1), (3, 4, 6, L.ROW_MAJOR, 6, 24)),
    ((3, 4, 6), (0, 6, 1), (3, 4, 6, L.ROW_MAJOR, 6, L.BATCH_BROADCAST)),  # expand()ed batch
    ((3, 4, 6), (30, 1, 4), (3, 4, 6, L.COL_MAJOR, 4, 30)),
    ((1, 4, 6), (0, 6, 1), (1, 4, 6, L.ROW_MAJOR, 6, 0)),
    ((4, 6), (2, 1), None),                                         # overlapping rows
    ((4, 6), (12, 2), None),                                        # no unit stride
    ((4, 6), (0, 1), None),                                         # a broadcast row
    ((3, 4, 6), (-24, 6, 1), None),
])
def test_matrix_forms(shape, strides, expect):
    assert _core.matrix(shape, strides) == expect


def _request_line(text):
    return text.splitlines()[0]


def test_explain_virtual_h100():
    text = tilegemm.explain(spec((4096, 4096), "bf16"), spec((4096, 4096), "bf16"), device=H100)
    assert "request: m=4096 n=4096 k=4096 batch=1, A bf16 row-major, B bf16 row-major" in text
    assert "device: sm_90, 132 SMs (virtual)" in text
    picked = [line for line in text.splitlines() if line.startswith("kernel: ")]
    assert len(picked) == 1
    name = picked[0].split()[1]
    assert name in {k.name for k in tilegemm.list_kernels()}
    if any(k.family == "sm90" for k in tilegemm.list_kernels()):
        assert name.startswith("sm90_")


def test_explain_maps_strides_to_orders():
    # a is the transpose of a row-major k x m matrix: column-major, no copy; b is a batch of 3
    # broadcast from one matrix; D follows C's column-major order.
    a = spec((64, 32), "f16", strides=(1, 64))
    b = spec((3, 32, 48), "f16", strides=(0, 48, 1))
    c = spec((64, 48), "f32", strides=(1, 64))
    out = spec((3, 64, 48), "f16", strides=(64 * 48, 1, 64))
    text = tilegemm.explain(a, b, c=c, beta=1.0, out=out, device=H100)
    line = _request_line(text)
    assert "m=64 n=48 k=32 batch=3" in line
    assert "A f16 column-major, B f16 row-major, C f32, D f16 column-major" in line
    assert "beta 1" in line


def test_explain_epilogue_and_compute():
    a, b = spec((128, 64), "f32"), spec((64, 256), "f32")
    text = tilegemm.explain(a, b, bias=spec((256,), "bf16"), activation="gelu", compute="tf32",
                            alpha=0.5, device=H100)
    assert "epilogue bias-gelu" in _request_line(text)
    assert "alpha 0.5" in _request_line(text)


def test_explain_int8_defaults_to_s32():
    text = tilegemm.explain(spec((64, 64), "s8"), spec((64, 64), "s8"), device=H100)
    assert "A s8 row-major, B s8 row-major, C s32, D s32" in _request_line(text)


def test_explain_fp8_defaults_to_bf16():
    text = tilegemm.explain(spec((64, 64), "e4m3"), spec((64, 64), "e5m2"), device=H100)
    assert "A e4m3 row-major, B e5m2 row-major, C bf16, D bf16" in _request_line(text)


def test_explain_names_what_cannot_serve():
    text = tilegemm.explain(spec((64, 64), "f16"), spec((64, 64), "f16"), kernel="ref",
                            device=(80, 108))
    assert "kernel: ref (named by the request)" in text


# ---- errors ------------------------------------------------------------------------------------------
def test_invalid_request_raises_with_the_library_text():
    with pytest.raises(tilegemm.TilegemmValueError) as e:
        tilegemm.explain(spec((8, 8), "f16"), spec((8, 8), "f16"), kernel="no_such_kernel",
                         device=H100)
    assert "parameter 'kernel'" in str(e.value) and "no_such_kernel" in str(e.value)
    assert e.value.status_name == "TG_ERR_INVALID_VALUE"
    assert isinstance(e.value, ValueError)


def test_unsupported_types_are_explained():
    text = tilegemm.explain(spec((8, 8), "f16"), spec((8, 8), "bf16"), device=H100)
    assert "b_type" in text


def test_shape_errors():
    with pytest.raises(ValueError, match="inner dimensions"):
        tilegemm.explain(spec((8, 4), "f16"), spec((5, 8), "f16"), device=H100)
    with pytest.raises(ValueError, match="batch counts"):
        tilegemm.explain(spec((2, 8, 4), "f16"), spec((3, 4, 8), "f16"), device=H100)
    with pytest.raises(ValueError, match="2-D or 3-D"):
        tilegemm.explain(spec((8,), "f16"), spec((8, 8), "f16"), device=H100)
    with pytest.raises(ValueError, match="out has shape"):
        tilegemm.explain(spec((8, 4), "f16"), spec((4, 8), "f16"), out=spec((8, 9), "f16"),
                         device=H100)
    with pytest.raises(ValueError, match="bias has shape"):
        tilegemm.explain(spec((8, 4), "f16"), spec((4, 8), "f16"), bias=spec((9,), "f16"),
                         device=H100)
    with pytest.raises(ValueError, match="c has shape"):
        tilegemm.explain(spec((8, 4), "f16"), spec((4, 8), "f16"), c=spec((8, 7), "f16"),
                         beta=1.0, device=H100)


def test_argument_errors():
    a, b = spec((8, 4), "f16"), spec((4, 8), "f16")
    with pytest.raises(ValueError, match="activation"):
        tilegemm.explain(a, b, activation="tanh", device=H100)
    with pytest.raises(ValueError, match="compute"):
        tilegemm.explain(a, b, compute="f64", device=H100)
    with pytest.raises(TypeError, match="dtype"):
        tilegemm.explain(spec((8, 4), "f64"), b, device=H100)
    with pytest.raises(TypeError, match="takes torch tensors"):
        tilegemm.explain([[1.0]], b, device=H100)
    with pytest.raises(TypeError, match="needs data"):
        tilegemm.matmul(a, b, out=spec((8, 8), "f16"))
    with pytest.raises(TypeError, match="stream"):
        tilegemm.matmul(a, b, stream="default")
    with pytest.raises(tilegemm.TilegemmValueError, match="sm"):
        tilegemm.explain(a, b, device=(70, 80))


# ---- fp8 scales: modes, shapes and their errors (explain reads shapes only) ---------------------
M, N, K = 256, 384, 640           # k spans 5 blocks of 128, n 3
KB, NB = 5, 3
E4 = spec((M, K), "e4m3")
E5T = spec((K, N), "e5m2", strides=(1, K))  # k-major B


def _f32(shape, strides=None):
    return spec(shape, "f32", strides=strides)


SCALES = {  # mode: (scale_a, scale_b) as tilegemm.h lays them out
    "tensor": (_f32(()), _f32((1,))),
    "rowcol": (_f32((M, 1)), _f32((N,))),
    "block": (_f32((M, KB), strides=(1, M)), _f32((KB, NB), strides=(1, KB))),
}


@pytest.mark.parametrize("mode", sorted(SCALES))
@pytest.mark.parametrize("named", [False, True])
def test_scales_reach_the_library(mode, named):
    sa, sb = SCALES[mode]
    text = tilegemm.explain(E4, E5T, scale_a=sa, scale_b=sb, scale_mode=mode if named else None,
                            fast_accum=True, device=H100)
    assert "m=256 n=384 k=640 batch=1, A e4m3 row-major, B e5m2 column-major" in text
    assert len([line for line in text.splitlines() if line.startswith("kernel: ")]) == 1


@pytest.mark.parametrize("sa, sb, mode, name", [
    ((3, 4), (N,), None, "scale_a"),                  # fits no mode
    ((M,), (N, 2), None, "scale_b"),
    ((M,), (KB, NB), None, "must agree"),             # rowcol against block
    ((1,), (1,), "block", "scale_a has shape"),       # the named mode decides
    ((M, KB), (KB, NB), "rowcol", "scale_a has shape"),
    ((M,), (NB, KB), "block", "scale_a has shape"),
    ((M, KB), (NB, KB), "block", "scale_b has shape"),  # block B is (KB, NB), not its transpose
])
def test_scale_shape_errors(sa, sb, mode, name):
    with pytest.raises(ValueError, match=name):
        tilegemm.explain(E4, E5T, scale_a=_f32(sa), scale_b=_f32(sb), scale_mode=mode,
                         device=H100)


def test_scale_mode_inferred_only_when_one_fits():
    # m = n = 1: one scale each fits tensor and rowcol scales alike.
    a, b = spec((1, 64), "e4m3"), spec((64, 1), "e4m3")
    with pytest.raises(ValueError, match="pass scale_mode="):
        tilegemm.explain(a, b, scale_a=_f32((1,)), scale_b=_f32((1,)), device=H100)
    tilegemm.explain(a, b, scale_a=_f32((1,)), scale_b=_f32((1,)), scale_mode="rowcol",
                     device=H100)


def test_scale_argument_errors():
    sa, sb = SCALES["tensor"]
    with pytest.raises(ValueError, match="scale_b is None"):
        tilegemm.explain(E4, E5T, scale_a=sa, device=H100)
    with pytest.raises(ValueError, match="scale_a is None"):
        tilegemm.explain(E4, E5T, scale_b=sb, device=H100)
    with pytest.raises(ValueError, match="scale_mode='block' needs scale_a and scale_b"):
        tilegemm.explain(E4, E5T, scale_mode="block", device=H100)
    with pytest.raises(ValueError, match="scale_mode must be"):
        tilegemm.explain(E4, E5T, scale_a=sa, scale_b=sb, scale_mode="row", device=H100)
    with pytest.raises(ValueError, match="takes no scale_a"):
        tilegemm.explain(E4, E5T, scale_a=sa, scale_b=sb, scale_mode="none", device=H100)
    with pytest.raises(TypeError, match="scale_b is bf16; scales are float32"):
        tilegemm.explain(E4, E5T, scale_a=sa, scale_b=spec((), "bf16"), device=H100)
    f16 = spec((8, 8), "f16")
    with pytest.raises(ValueError, match="scales apply to fp8 inputs"):
        tilegemm.explain(f16, f16, scale_a=sa, scale_b=sb, device=H100)
    with pytest.raises(ValueError, match="fast_accum applies to fp8 inputs"):
        tilegemm.explain(f16, f16, fast_accum=True, device=H100)
    with pytest.raises(TypeError, match="fast_accum must be True or False"):
        tilegemm.explain(E4, E5T, fast_accum="yes", device=H100)
    # No scales and scale_mode "none" (or fast accumulation alone) is a plain request.
    tilegemm.explain(E4, E5T, scale_mode="none", device=H100)
    tilegemm.explain(E4, E5T, fast_accum=True, device=H100)


def test_batched_scales():
    """One set of scales per batch of an operand with batches of its own; one set for an
    operand shared by every batch (2-D, or a batch stride of 0)."""
    a3 = spec((2, M, K), "e4m3")
    ok = [(_f32((2, M)), _f32((N,))), (_f32((2, M, 1)), _f32((1, N))),
          (_f32((2,)), _f32(())), (_f32((2, 1)), _f32((1,)))]
    for sa, sb in ok:
        text = tilegemm.explain(a3, E5T, scale_a=sa, scale_b=sb, device=H100)
        assert "batch=2" in text
    block = (_f32((2, M, KB), strides=(M * KB, 1, M)), _f32((KB, NB), strides=(1, KB)))
    tilegemm.explain(a3, E5T, scale_a=block[0], scale_b=block[1], device=H100)
    with pytest.raises(ValueError, match="one set per batch of a's 2"):
        tilegemm.explain(a3, E5T, scale_a=_f32((M,)), scale_b=_f32((N,)), device=H100)
    with pytest.raises(ValueError, match="scale_b has shape"):
        tilegemm.explain(a3, E5T, scale_a=_f32((2, M)), scale_b=_f32((2, N)), device=H100)
    shared = spec((2, M, K), "e4m3", strides=(0, K, 1))  # every batch the same a: one set
    tilegemm.explain(shared, spec((2, K, N), "e4m3"), scale_a=_f32((M,)), scale_b=_f32((2, N)),
                     device=H100)


class _CudaArray:
    """An object exposing only __cuda_array_interface__ (fake pointers: never dereferenced)."""

    def __init__(self, shape, typestr, ptr, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3}


def test_cuda_array_interface_operands():
    a = _CudaArray((64, 32), "<f2", 0x10000)
    b = _CudaArray((32, 48), "<f2", 0x20000, strides=(2, 64))  # column-major, bytes
    text = tilegemm.explain(a, b, device=H100)
    assert "A f16 row-major, B f16 column-major" in _request_line(text)
    with pytest.raises(TypeError, match="typestr"):
        tilegemm.explain(_CudaArray((4, 4), "<f8", 0x10000), b, device=H100)
    with pytest.raises(TypeError, match="out= is required"):
        tilegemm.matmul(a, b)


@pytest.mark.skipif(_has_device(), reason="checks the no-device error")
def test_matmul_without_a_device_raises_no_device():
    a = _CudaArray((64, 32), "<f2", 0x10000)
    b = _CudaArray((32, 48), "<f2", 0x20000)
    d = _CudaArray((64, 48), "<f2", 0x30000)
    with pytest.raises(tilegemm.TilegemmError) as e:
        tilegemm.matmul(a, b, out=d)
    assert e.value.status_name == "TG_ERR_NO_DEVICE"
    assert "no CUDA device" in str(e.value)


def test_numpy_through_dlpack():
    np = pytest.importorskip("numpy")
    a = np.zeros((16, 8), dtype=np.float16)
    b = np.zeros((8, 24), dtype=np.float16).T.copy().T  # column-major
    text = tilegemm.explain(a, b, device=H100)
    assert "m=16 n=24 k=8" in text and "B f16 column-major" in text
    with pytest.raises(ValueError, match="not in CUDA memory"):
        tilegemm.matmul(a, b, out=np.zeros((16, 24), dtype=np.float16))


# ---- torch on the CPU: dtypes, the custom ops' fake implementations, torch.compile's tracing -----
def test_torch_dtypes_and_cpu_tensors(torch_mod):
    torch = torch_mod
    a = torch.zeros(16, 8, dtype=torch.bfloat16)
    b = torch.zeros(8, 24, dtype=torch.bfloat16).t().contiguous().t()
    text = tilegemm.explain(a, b, device=H100)
    assert "A bf16 row-major, B bf16 column-major, C bf16, D bf16" in text
    for dtype, name in [(torch.float32, "f32"), (torch.float16, "f16"), (torch.int8, "s8"),
                        (torch.float8_e4m3fn, "e4m3"), (torch.float8_e5m2, "e5m2")]:
        x = torch.zeros(8, 8, dtype=dtype)
        assert f"A {name} row-major" in tilegemm.explain(x, x, device=H100)
    with pytest.raises(TypeError, match="dtype"):
        tilegemm.explain(torch.zeros(4, 4, dtype=torch.float64), a[:4, :4], device=H100)
    with pytest.raises(ValueError, match="needs CUDA tensors"):
        tilegemm.matmul(a, a.t())


def test_torch_ops_are_registered(torch_mod):
    torch = torch_mod
    assert hasattr(torch.ops.tilegemm, "matmul") and hasattr(torch.ops.tilegemm, "matmul_out")


@pytest.mark.parametrize("a_shape, b_shape, out_dtype, expect_shape, expect_dtype", [
    ((64, 32), (32, 48), None, (64, 48), "bfloat16"),
    ((4, 64, 32), (32, 48), None, (4, 64, 48), "bfloat16"),
    ((64, 32), (4, 32, 48), "float32", (4, 64, 48), "float32"),
])
def test_fake_matmul_shapes(torch_mod, a_shape, b_shape, out_dtype, expect_shape, expect_dtype):
    torch = torch_mod
    a = torch.empty(a_shape, dtype=torch.bfloat16, device="meta")
    b = torch.empty(b_shape, dtype=torch.bfloat16, device="meta")
    dt = getattr(torch, out_dtype) if out_dtype else None
    d = torch.ops.tilegemm.matmul(a, b, None, None, 1.0, 0.0, None, dt, None, None)
    assert tuple(d.shape) == expect_shape and d.dtype == getattr(torch, expect_dtype)
    assert d.is_contiguous()


def test_fake_matmul_types_and_orders(torch_mod):
    torch = torch_mod
    s8 = torch.empty(64, 32, dtype=torch.int8, device="meta")
    d = torch.ops.tilegemm.matmul(s8, s8.t(), None, None, 1.0, 0.0, None, None, None, None)
    assert d.dtype == torch.int32
    e4 = torch.empty(64, 32, dtype=torch.float8_e4m3fn, device="meta")
    d = torch.ops.tilegemm.matmul(e4, e4.t(), None, None, 1.0, 0.0, None, None, None, None)
    assert d.dtype == torch.bfloat16
    a = torch.empty(64, 32, dtype=torch.float16, device="meta")
    c = torch.empty(48, 64, dtype=torch.float16, device="meta").t()  # column-major C
    b = torch.empty(32, 48, dtype=torch.float16, device="meta")
    d = torch.ops.tilegemm.matmul(a, b, c, None, 1.0, 1.0, None, None, None, None)
    assert d.shape == (64, 48) and d.t().is_contiguous()  # D takes C's order
    d = torch.ops.tilegemm.matmul(a, b, c, None, 1.0, 0.0, None, None, None, None)
    assert d.is_contiguous()  # beta = 0: C is not read, D row-major


def test_compile_traces_one_graph(torch_mod):
    """torch.compile(fullgraph=True) sees tilegemm.matmul as the custom op (shapes from the fake
    implementation); the backend only records the graph (no GPU here)."""
    torch = torch_mod
    graphs = []

    def record(gm, example_inputs):
        graphs.append(gm)
        return lambda *args: (torch.zeros(()),)

    def f(a, b, bias, out):
        d = tilegemm.matmul(a, b, bias=bias, activation="relu")
        tilegemm.matmul(a, b, out=out, alpha=2.0)
        return d.float().sum() + out.float().sum()

    torch._dynamo.reset()
    compiled = torch.compile(f, fullgraph=True, backend=record)
    a = torch.zeros(16, 8, dtype=torch.bfloat16)
    b = torch.zeros(8, 24, dtype=torch.bfloat16)
    compiled(a, b, torch.zeros(24, dtype=torch.bfloat16), torch.zeros(16, 24, dtype=torch.bfloat16))
    assert len(graphs) == 1
    code = graphs[0].code
    assert "torch.ops.tilegemm.matmul(" in code and "torch.ops.tilegemm.matmul_out(" in code
    torch._dynamo.reset()


def test_compile_traces_scales(torch_mod):
    """fp8 scales and fast accumulation reach the custom op's arguments under torch.compile."""
    torch = torch_mod
    graphs = []

    def record(gm, example_inputs):
        graphs.append(gm)
        return lambda *args: (torch.zeros(()),)

    def f(a, b, sa, sb, out):
        d = tilegemm.matmul(a, b, scale_a=sa, scale_b=sb, fast_accum=True)
        tilegemm.matmul(a, b, scale_a=sa, scale_b=sb, scale_mode="rowcol", out=out)
        return d.float().sum() + out.float().sum()

    torch._dynamo.reset()
    a = torch.zeros(16, 32, dtype=torch.float8_e4m3fn)
    b = torch.zeros(32, 24, dtype=torch.float8_e4m3fn)
    compiled = torch.compile(f, fullgraph=True, backend=record)
    compiled(a, b, torch.ones(16), torch.ones(24), torch.zeros(16, 24, dtype=torch.bfloat16))
    assert len(graphs) == 1
    code = graphs[0].code
    assert "torch.ops.tilegemm.matmul(" in code and "torch.ops.tilegemm.matmul_out(" in code
    assert "'rowcol'" in code and "True" in code
    torch._dynamo.reset()


def test_fake_matmul_with_scales(torch_mod):
    torch = torch_mod
    a = torch.empty(64, 256, dtype=torch.float8_e4m3fn, device="meta")
    b = torch.empty(256, 48, dtype=torch.float8_e5m2, device="meta")
    sa = torch.empty(64, 2, device="meta").mT.contiguous().mT
    sb = torch.empty(1, 2, device="meta").mT
    d = torch.ops.tilegemm.matmul(a, b, None, None, 1.0, 0.0, None, None, None, None, sa, sb,
                                  "block", False)
    assert d.shape == (64, 48) and d.dtype == torch.bfloat16


def test_torch_scales_explained(torch_mod):
    """CPU torch tensors as scales: only their shapes are read by explain."""
    torch = torch_mod
    a = torch.zeros(M, K, dtype=torch.float8_e4m3fn)
    b = torch.zeros(N, K, dtype=torch.float8_e4m3fn).t()
    sa = torch.ones(KB, M).t()       # (M, KB), KB-major: torch._scaled_mm's 1x128 layout
    sb = torch.ones(NB, KB).t()      # (KB, NB), NB-major: its 128x128 layout
    assert "m=256 n=384 k=640" in tilegemm.explain(a, b, scale_a=sa, scale_b=sb, device=H100)
    with pytest.raises(ValueError, match="scale_b has shape"):
        tilegemm.explain(a, b, scale_a=sa, scale_b=sb.t(), scale_mode="block", device=H100)
    with pytest.raises(TypeError, match="scales are float32"):
        tilegemm.explain(a, b, scale_a=sa.bfloat16(), scale_b=sb, device=H100)


def test_scales_in_other_strides_are_copied(torch_mod):
    """A torch tensor of the right shape but other strides is copied into tilegemm.h's layout
    (the copy kept with the request); values stay where they were."""
    torch = torch_mod
    layout_a, layout_b = _core._scale_layouts("block", M, N, K)
    x = torch.arange(M * KB, dtype=torch.float32).reshape(M, KB)  # row-major: not the layout
    form = _core._fitting_form(x.shape, layout_a, 1)
    d = (x, x.data_ptr(), tuple(x.shape), x.stride(), L.DTYPES["f32"], -1, None)
    ptr, keep = _core._scale_operand(x, "scale_a", d, form, True, None)
    copy = keep[0]
    assert ptr == copy.data_ptr() and copy.stride() == (1, M) and torch.equal(copy, x)
    y = x.t().contiguous().t()  # already KB-major: no copy
    d = (y, y.data_ptr(), tuple(y.shape), y.stride(), L.DTYPES["f32"], -1, None)
    assert _core._scale_operand(y, "scale_a", d, form, True, None) == (y.data_ptr(), None)
    s = torch.ones(NB, KB).t().contiguous()  # (KB, NB) row-major: copied NB-major
    form = _core._fitting_form(s.shape, layout_b, 1)
    d = (s, s.data_ptr(), tuple(s.shape), s.stride(), L.DTYPES["f32"], -1, None)
    assert _core._scale_operand(s, "scale_b", d, form, True, None)[1][0].stride() == (1, KB)


def _flat_scales(mode, operand, m, n, k, values):
    """Element scales of one operand from a flat buffer in tilegemm.h's layout, by its formulas:
    tensor s[0]; rowcol s[i] / s[j]; block s[kb·m + i] for A (m x k), s[(j/128)·KB + kb] for
    B (k x n)."""
    block = L.SCALE_BLOCK_K
    kbs = -(-k // block)
    rows, cols = (m, k) if operand == "a" else (k, n)
    out = [[0.0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if mode == "tensor":
                idx = 0
            elif mode == "rowcol":
                idx = r if operand == "a" else c
            elif operand == "a":
                idx = (c // block) * m + r
            else:
                idx = (c // block) * kbs + r // block
            out[r][c] = values[idx]
    return out


@pytest.mark.parametrize("mode", sorted(SCALES))
def test_operand_scales_follow_the_header(torch_mod, mode):
    """tilegemm's torch expansion of scales (error_bound's) against the header's formulas."""
    torch = torch_mod
    from tilegemm import _torch
    m, n, k = 5, 130, 300
    kb, nb = 3, 2
    shapes = {"tensor": ((), ()), "rowcol": ((m,), (1, n)), "block": ((m, kb), (kb, nb))}
    for operand, shape in zip("ab", shapes[mode]):
        count = max(1, torch.Size(shape).numel())
        flat = torch.arange(1, count + 1, dtype=torch.float32)
        if mode == "block":  # the tensor tilegemm reads: logical shape, strides of the layout
            t = flat.reshape(shape[::-1]).t()
        else:
            t = flat.reshape(shape)
        rows, cols = (m, k) if operand == "a" else (k, n)
        got = _torch.operand_scales(t, mode, rows, cols, operand == "a", False)
        want = torch.tensor(_flat_scales(mode, operand, m, n, k, flat.tolist()),
                            dtype=torch.float64)
        assert torch.equal(got.expand(rows, cols), want), operand


def test_error_bound_with_scales(torch_mod):
    """error_bound's mag applies the scales, and its rate adds the fp8 terms."""
    torch = torch_mod
    g = torch.Generator().manual_seed(3)
    m, n, k = 8, 16, 256
    a = (torch.rand(m, k, generator=g) * 2 - 1).to(torch.float8_e4m3fn)
    b = (torch.rand(k, n, generator=g) * 2 - 1).to(torch.float8_e4m3fn)
    sa = torch.rand(m, generator=g) + 0.5
    sb = torch.rand(n, generator=g) + 0.5
    plain = tilegemm.error_bound(a, b, out_dtype=torch.float32)
    scaled = tilegemm.error_bound(a, b, scale_a=sa, scale_b=sb, out_dtype=torch.float32)
    fast = tilegemm.error_bound(a, b, scale_a=sa, scale_b=sb, fast_accum=True,
                                out_dtype=torch.float32)
    mag = (sa.double()[:, None] * a.double()).abs() @ (b.double() * sb.double()[None, :]).abs()
    rel_plain = 4 * (k * 2.0 ** -24 + 128 * 2.0 ** -13)
    rel_scaled = rel_plain + 4 * 3 * 2.0 ** -24
    rel_fast = rel_scaled + 4 * (k - 128) * 2.0 ** -13
    unscaled_mag = a.double().abs() @ b.double().abs()
    assert torch.allclose(plain, rel_plain * unscaled_mag + 2.0 ** -149, rtol=1e-12, atol=0)
    assert torch.allclose(scaled, rel_scaled * mag + 2.0 ** -149, rtol=1e-12, atol=0)
    assert torch.allclose(fast, rel_fast * mag + 2.0 ** -149, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="scale_a has shape"):
        tilegemm.error_bound(a, b, scale_a=sa[:4], scale_b=sb)


# ---- kept requests: the direct path of plain torch tensors (no GPU: CPU tensors pose as CUDA
# ones, tg_matmul is replaced by a recorder) -------------------------------------------------
class _Recorder:
    """Stands in for tg_matmul and for plans (tg_plan_create, tg_plan_run, tg_plan_destroy):
    records each call's handle, tg_gemm bytes, pointers and stream, a planned run's as the handle
    and tg_gemm its plan was made with, so that both kinds of call compare alike; and the plans
    made, run and destroyed."""
    PLAN_BASE = 0x9000

    def __init__(self):
        self.calls = []
        self.status = L.OK
        self.plans = {}     # plan pointer -> (handle, tg_gemm bytes)
        self.planned = 0    # calls that were planned runs
        self.destroyed = []

    def __call__(self, handle, gemm, a, b, c, d, stream):
        self.calls.append((handle, ctypes.string_at(gemm, L.GEMM_PACKER.size), a or 0, b or 0,
                           c or 0, d or 0, stream))
        return self.status

    def plan_create(self, handle, gemm, out):
        if self.status != L.OK:
            return self.status
        out.value = self.PLAN_BASE + 16 * (len(self.plans) + len(self.destroyed))
        self.plans[out.value] = (handle, ctypes.string_at(gemm, L.GEMM_PACKER.size))
        return L.OK

    def plan_run(self, plan, a, b, c, d, stream):
        handle, gemm = self.plans[plan]
        self.planned += 1
        self.calls.append((handle, gemm, a or 0, b or 0, c or 0, d or 0, stream))
        return self.status

    def plan_destroy(self, plan):
        del self.plans[plan]
        self.destroyed.append(plan)


@pytest.fixture
def posing(torch_mod, monkeypatch):
    """CPU tensors report CUDA device `t.posing_device` (default 0); devices 0 and 1 have fake
    handles (0x100 + device) and current streams (0x500 + device); the kept requests and this
    thread's plans start empty. Yields the recorder."""
    torch = torch_mod
    monkeypatch.setattr(torch.Tensor, "get_device", lambda t: getattr(t, "posing_device", 0))
    monkeypatch.setattr(_core, "_raw_stream", lambda device: 0x500 + device)
    monkeypatch.setattr(_core, "_REQUESTS", {})
    monkeypatch.setattr(_core._state, "plans", {})
    monkeypatch.setattr(_core._state, "seen", set())
    monkeypatch.setattr(L, "tg_last_error", lambda handle: b"recorded failure")
    fakes = {}
    for dev in (0, 1):
        fakes[dev] = _core._Handle(0x100 + dev, dev)
        monkeypatch.setitem(_core._state.handles, dev, fakes[dev])
    rec = _Recorder()
    monkeypatch.setattr(L, "tg_matmul", rec)
    monkeypatch.setattr(L, "tg_plan_create", rec.plan_create)
    monkeypatch.setattr(L, "tg_plan_run", rec.plan_run)
    monkeypatch.setattr(L, "tg_plan_destroy", rec.plan_destroy)
    yield rec
    _core._state.plans.clear()  # destroyed by the recorder, before the library is back
    for h in fakes.values():
        h.ptr = None  # never tg_destroy'ed


def _built_call(a, b, kw):
    """What build and run would give tg_matmul for matmul(a, b, **kw): (tg_gemm bytes, A, B, C)."""
    args = {"c": None, "alpha": 1.0, "beta": 0.0, "bias": None, "activation": None, "out": None,
            "out_dtype": None, "kernel": None, "compute": None}
    args.update(kw)
    r = _core.build(a, b, args["c"], args["alpha"], args["beta"], args["bias"], args["activation"],
                    args["out"], args["out_dtype"], args["kernel"], args["compute"], None)
    return L.GEMM_PACKER.pack(*r.fields), r.a, r.b, r.c


def _cases(torch):
    bf, f32 = torch.bfloat16, torch.float32

    def t(*shape, dtype=bf):
        return torch.zeros(*shape, dtype=dtype)

    out = t(64, 48)
    c_col = t(48, 64).t()
    return [  # (a, b, matmul's keywords)
        (t(64, 32), t(32, 48), {}),
        (t(64, 32), t(48, 32).t(), {}),                               # b transposed
        (t(32, 64).t(), t(32, 48), {"alpha": 0.5}),                   # a transposed
        (t(64, 40)[:, :32], t(32, 56)[:, :48], {}),                   # padded leading dimensions
        (t(3, 64, 32), t(3, 32, 48), {}),
        (t(64, 32), t(3, 32, 48), {}),
        (t(64, 32), t(3, 32, 48), {"out_dtype": f32}),
        (t(3, 64, 32), t(32, 48)[None].expand(3, 32, 48), {}),        # batch stride 0
        (t(64, 32, dtype=f32), t(32, 48, dtype=f32), {}),
        (t(64, 32, dtype=f32), t(32, 48, dtype=f32), {"compute": "tf32"}),
        (t(64, 32, dtype=torch.int8), t(32, 48, dtype=torch.int8), {}),
        (t(64, 32), t(32, 48), {"bias": t(48), "activation": "gelu"}),
        (t(64, 32), t(32, 48), {"bias": t(48, dtype=f32), "activation": "relu", "alpha": 2.0}),
        (t(64, 32), t(32, 48), {"c": t(64, 48), "beta": 0.75}),
        (t(64, 32), t(32, 48), {"c": c_col, "beta": 1.0}),            # D takes C's order
        (t(64, 32), t(32, 48), {"c": c_col, "beta": 0.0}),            # C not read
        (t(64, 32), t(32, 48), {"out": out}),
        (t(64, 32), t(32, 48), {"out": t(48, 64).t()}),               # column-major out
        (t(64, 32), t(32, 48), {"c": out, "beta": 1.0, "out": out}),  # in place
        (t(64, 32), t(32, 48), {"kernel": "ref"}),
        (t(64, 32), t(32, 48), {"activation": "none"}),
    ]


def _walk(x):
    yield x
    if isinstance(x, tuple):
        for item in x:
            yield from _walk(item)


def test_kept_requests_give_what_build_gives(torch_mod, posing, monkeypatch):
    """Every call, the first of its key (build) and the repeats (the kept request), hands
    tg_matmul the tg_gemm and pointers that build gives, and returns a D of the same form."""
    torch = torch_mod
    cases = _cases(torch)
    runs = []
    run = _core.run
    monkeypatch.setattr(_core, "run", lambda r, stream: runs.append(r) or run(r, stream))
    for round_ in range(3):  # cases interleaved: a kept request serves only its own key
        for i, (a, b, kw) in enumerate(cases):
            posing.calls.clear()
            d = tilegemm.matmul(a, b, **kw)
            (handle, gemm, pa, pb, pc, pd, stream), = posing.calls
            want_gemm, want_a, want_b, want_c = _built_call(a, b, kw)
            assert (gemm, pa, pb, pc) == (want_gemm, want_a, want_b, want_c), (round_, i)
            assert (handle, stream) == (0x100, 0x500)
            if "out" in kw:
                assert d is kw["out"]
            else:
                want = _core.build(a, b, kw.get("c"), 1.0, kw.get("beta", 0.0), None, None, None,
                                   kw.get("out_dtype"), None, None, None).result
                assert (d.shape, d.stride(), d.dtype) == (want.shape, want.stride(), want.dtype)
            assert pd == d.data_ptr()
        assert len(_core._REQUESTS) == len(cases)
        assert len(runs) == len(cases)  # built in the first round only
    # Kept keys hold no torch.Size (which the garbage collector tracks for good).
    assert not any(isinstance(x, torch.Size) for key in _core._REQUESTS for x in _walk(key))


def test_kept_requests_write_alpha_beta_and_bias(torch_mod, posing):
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    c = torch.zeros(64, 48, dtype=torch.bfloat16)
    for alpha, beta in [(1.0, 0.5), (2, 0.25), (-0.0, -1.0), (float("inf"), 3)]:
        bias = torch.zeros(48, dtype=torch.bfloat16)  # a new pointer each call
        tilegemm.matmul(a, b, c=c, alpha=alpha, beta=beta, bias=bias)
        kw = {"c": c, "alpha": alpha, "beta": beta, "bias": bias}
        assert posing.calls[-1][1:5] == _built_call(a, b, kw)
    assert len(_core._REQUESTS) == 1
    with pytest.raises(TypeError, match="alpha and beta must be real numbers, not str and float"):
        tilegemm.matmul(a, b, c=c, alpha="2", beta=0.5, bias=bias)


def test_kept_requests_follow_the_device(torch_mod, posing):
    """The kept tg_gemm holds no device: each call takes its operands' device's handle and
    current stream; operands on different devices still fail as build says."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    tilegemm.matmul(a, b)
    tilegemm.matmul(a, b)
    a1, b1 = a.clone(), b.clone()
    a1.posing_device = b1.posing_device = 1
    tilegemm.matmul(a1, b1)
    assert [call[0] for call in posing.calls] == [0x100, 0x100, 0x101]
    assert [call[6] for call in posing.calls] == [0x500, 0x500, 0x501]
    assert len({call[1] for call in posing.calls}) == 1 and len(_core._REQUESTS) == 1
    with pytest.raises(ValueError, match=r"a and b are on different devices \(0 and 1\)"):
        tilegemm.matmul(a, b1)
    out = torch.zeros(64, 48, dtype=torch.bfloat16)
    tilegemm.matmul(a, b, out=out)
    out.posing_device = 1  # passed through as build passes it
    tilegemm.matmul(a, b, out=out)
    assert posing.calls[-1][0] == 0x100 and posing.calls[-1][5] == out.data_ptr()


def test_kept_requests_keep_the_errors(torch_mod, posing):
    """With a request kept, calls that differ from it fail as they always did."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    tilegemm.matmul(a, b, activation="relu")
    cpu = a.clone()
    cpu.posing_device = -1
    with pytest.raises(ValueError, match="a is on cpu; tilegemm needs CUDA tensors"):
        tilegemm.matmul(cpu, b, activation="relu")
    with pytest.raises(ValueError, match="activation must be None, 'relu' or 'gelu', not 'tanh'"):
        tilegemm.matmul(a, b, activation="tanh")
    with pytest.raises(ValueError, match="activation must be"):
        tilegemm.matmul(a, b, activation=["relu"])  # unhashable: build says what is wrong
    with pytest.raises(ValueError, match="out has shape"):
        tilegemm.matmul(a, b, out=torch.zeros(64, 47, dtype=torch.bfloat16))
    c, bias, out = (torch.zeros(64, 48, dtype=torch.bfloat16), torch.zeros(48),
                    torch.zeros(64, 48, dtype=torch.bfloat16))
    tilegemm.matmul(a, b, c=c, beta=1.0, bias=bias, out=out)
    for name, x in [("c", c), ("bias", bias), ("out", out)]:
        x.posing_device = -1
        with pytest.raises(ValueError, match=f"{name} is on cpu; tilegemm needs CUDA tensors"):
            tilegemm.matmul(a, b, c=c, beta=1.0, bias=bias, out=out)
        del x.posing_device
    posing.status = L.ERR_NOT_SUPPORTED
    with pytest.raises(tilegemm.TilegemmError, match=r"recorded failure \[TG_ERR_NOT_SUPPORTED\]"):
        tilegemm.matmul(a, b, activation="relu")
    assert len(_core._REQUESTS) == 2


def test_kept_requests_survive_calls_made_while_allocating_d(torch_mod, posing, monkeypatch):
    """Allocating D may run Python code that calls tilegemm on the same thread (a dispatch
    mode): the kept tg_gemm is written after it."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    x = torch.zeros(8, 16, dtype=torch.float32)
    tilegemm.matmul(a, b, alpha=0.5)
    tilegemm.matmul(x, x.t())
    want_ab, want_x = _built_call(a, b, {"alpha": 0.5})[:3], _built_call(x, x.t(), {})[:3]
    new_d = _core.new_d

    def reentrant(like, alloc):
        if like is a:
            tilegemm.matmul(x, x.t())
        return new_d(like, alloc)

    monkeypatch.setattr(_core, "new_d", reentrant)
    tilegemm.matmul(a, b, alpha=0.5)
    assert [call[1:4] for call in posing.calls[-2:]] == [want_x, want_ab]


def test_copies_are_not_kept(torch_mod, posing):
    """Requests whose build copies an operand (or computes D apart) are built every call."""
    torch = torch_mod
    a = torch.zeros(64, 64, dtype=torch.bfloat16)[:, ::2]  # no unit stride: copied
    b = torch.zeros(32, 48, dtype=torch.bfloat16)
    out = torch.zeros(64, 96, dtype=torch.bfloat16)[:, ::2]  # computed apart, copied in
    for _ in range(2):
        tilegemm.matmul(a, b)
        assert posing.calls[-1][2] != a.data_ptr()
        tilegemm.matmul(a.contiguous(), b, out=out)
        assert posing.calls[-1][5] != out.data_ptr()
    assert not _core._REQUESTS


def test_kept_requests_are_bounded(torch_mod, posing, monkeypatch):
    torch = torch_mod
    monkeypatch.setattr(_core, "_REQUESTS_LIMIT", 3)
    b = torch.zeros(32, 48, dtype=torch.bfloat16)
    for m in range(1, 8):
        tilegemm.matmul(torch.zeros(m, 32, dtype=torch.bfloat16), b)
        assert 1 <= len(_core._REQUESTS) <= 3


def test_custom_ops_take_kept_requests(torch_mod, posing):
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    bias = torch.zeros(48, dtype=torch.float32)
    out = torch.zeros(64, 48, dtype=torch.float32)
    for _ in range(2):
        d = torch.ops.tilegemm.matmul(a, b, None, bias, 0.5, 0.0, "gelu", None, None, None)
        assert posing.calls[-1][1:5] == _built_call(a, b, {"bias": bias, "activation": "gelu",
                                                           "alpha": 0.5})
        assert d.shape == (64, 48) and posing.calls[-1][5] == d.data_ptr()
        torch.ops.tilegemm.matmul_out(a, b, None, None, 1.0, 0.0, None, None, None, out)
        assert posing.calls[-1][1:6] == _built_call(a, b, {"out": out}) + (out.data_ptr(),)
    assert len(_core._REQUESTS) == 2


def test_repeated_calls_are_planned(torch_mod, posing):
    """A kept request's first call under a plan key (request, device, alpha, beta, bias pointer)
    marks it, the next makes a plan from what build gives, later calls run it; plans are per plan
    key. The request's very first call (build) marks nothing."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    biases = [torch.zeros(48, dtype=torch.bfloat16) for _ in range(2)]
    for round_ in range(4):
        for bias in biases:
            for alpha in (1.0, 0.5):
                tilegemm.matmul(a, b, bias=bias, alpha=alpha)
                kw = {"bias": bias, "alpha": alpha}
                assert posing.calls[-1][1:5] == _built_call(a, b, kw), (round_, alpha)
    assert len(posing.plans) == 4 and len(_core._state.plans) == 4
    # The plan key of the first call, built in round 0, is marked in round 1 and runs planned
    # in rounds 2 and 3; the three others from round 1 (made) to 3.
    assert posing.planned == 2 + 3 * 3
    assert len(_core._REQUESTS) == 1


def test_changing_scalars_are_not_planned(torch_mod, posing):
    """Calls whose bias pointer or alpha differ every time take tg_matmul, making no plans;
    neither does alpha = 0 (0.0 and -0.0 are one key)."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    keep = []
    for i in range(6):
        keep.append(torch.zeros(48, dtype=torch.bfloat16))  # a new pointer each call
        tilegemm.matmul(a, b, bias=keep[-1])
        tilegemm.matmul(a, b, alpha=1.0 + i)
        tilegemm.matmul(a, b, alpha=0.0 if i % 2 else -0.0)
        assert posing.calls[-1][1:5] == _built_call(a, b, {"alpha": 0.0 if i % 2 else -0.0})
    assert not posing.plans and posing.planned == 0


def test_plans_are_bounded_and_destroyed(torch_mod, posing, monkeypatch):
    torch = torch_mod
    monkeypatch.setattr(_core, "_PLANS_LIMIT", 3)
    b = torch.zeros(32, 48, dtype=torch.bfloat16)
    for m in range(1, 8):
        a = torch.zeros(m, 32, dtype=torch.bfloat16)
        for _ in range(3):
            tilegemm.matmul(a, b)
        assert 1 <= len(_core._state.plans) <= 3 and len(posing.plans) == len(_core._state.plans)
    assert len(posing.destroyed) == 7 - len(posing.plans)


def test_a_refused_plan_reports_through_tg_matmul(torch_mod, posing, monkeypatch):
    """tg_plan_create refusing a request leaves the call to tg_matmul, whose error is raised;
    a planned run's error is raised alike."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    tilegemm.matmul(a, b)
    posing.status = L.ERR_INVALID_VALUE
    with pytest.raises(tilegemm.TilegemmValueError, match=r"recorded failure"):
        tilegemm.matmul(a, b)
    assert not posing.plans and len(posing.calls) == 2
    posing.status = L.OK
    tilegemm.matmul(a, b)
    assert len(posing.plans) == 1
    posing.status = L.ERR_CUDA
    with pytest.raises(tilegemm.TilegemmError, match=r"recorded failure \[TG_ERR_CUDA\]"):
        tilegemm.matmul(a, b)
    assert posing.planned == 2


def test_ops_give_no_grad(torch_mod, posing):
    """The ops' autograd key falls through: D never requires grad."""
    torch = torch_mod
    a = torch.zeros(64, 32, dtype=torch.float32, requires_grad=True)
    b = torch.zeros(32, 48, dtype=torch.float32, requires_grad=True)
    d = torch.ops.tilegemm.matmul(a, b, None, None, 1.0, 0.0, None, None, None, None)
    assert not d.requires_grad and d.grad_fn is None
    out = torch.zeros(64, 48)
    torch.ops.tilegemm.matmul_out(a, b, None, None, 1.0, 0.0, None, None, None, out)
    assert not out.requires_grad


def test_kept_requests_across_threads(torch_mod, posing, monkeypatch):
    """A request kept by one thread serves another, with that thread's own handle."""
    import threading
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    tilegemm.matmul(a, b)
    other = _core._Handle(0x200, 0)
    monkeypatch.setattr(_core, "handle", lambda device: other)
    errors = []

    def work():
        try:
            tilegemm.matmul(a, b)
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    t = threading.Thread(target=work)
    try:
        t.start()
        t.join()
    finally:
        other.ptr = None  # never tg_destroy'ed
    assert not errors
    assert [call[0] for call in posing.calls] == [0x100, 0x200]
    assert posing.calls[0][1:5] == posing.calls[1][1:5]


def test_stream_argument_of_the_current_stream(torch_mod, posing, monkeypatch):
    """stream= naming the current stream takes the common path; another stream is made current
    for the call (torch_stream, stubbed here) and gets the request built anew."""
    torch = torch_mod
    a, b = torch.zeros(64, 32, dtype=torch.bfloat16), torch.zeros(32, 48, dtype=torch.bfloat16)
    made_current = []
    monkeypatch.setattr(_core, "torch_stream", lambda s, dev: made_current.append(s))
    tilegemm.matmul(a, b, stream=0x500)
    tilegemm.matmul(a, b, stream=0x500)
    assert len(_core._REQUESTS) == 1 and not made_current
    tilegemm.matmul(a, b, stream=0x777)
    assert made_current == [0x777]
    assert [call[6] for call in posing.calls] == [0x500, 0x500, 0x777]
    assert len({call[1] for call in posing.calls}) == 1
