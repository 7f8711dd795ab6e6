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
    assert c["sizeof(tg_dtype)"] == c["sizeof(tg_status)"] == ctypes.sizeof(ctypes.c_int)
    header_version = "%d.%d.%d" % (c["TILEGEMM_VERSION_MAJOR"], c["TILEGEMM_VERSION_MINOR"],
                                   c["TILEGEMM_VERSION_PATCH"])
    assert tilegemm.version() == header_version == tilegemm.__version__


def test_packer_writes_what_ctypes_reads():
    values = (1, 2, 3, 4, 5, 6, 0, 1, 2, 1, 0, 1, 11, 12, 13, 14, -1, 16, 17, 18, 0.5, -2.0, 4,
              0x1234, 2, 0)
    buf = ctypes.create_string_buffer(L.GEMM_PACKER.size)
    L.GEMM_PACKER.pack_into(buf, 0, *values)
    g = L.Gemm.from_buffer(buf)
    assert tuple(getattr(g, f) or 0 for f, _ in L.Gemm._fields_) == values


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
    with pytest.raises(NotImplementedError, match="not yet in the C API"):
        tilegemm.matmul(a, b, scale_a=1.0)
    with pytest.raises(TypeError, match="needs data"):
        tilegemm.matmul(a, b, out=spec((8, 8), "f16"))
    with pytest.raises(TypeError, match="stream"):
        tilegemm.matmul(a, b, stream="default")
    with pytest.raises(tilegemm.TilegemmValueError, match="sm"):
        tilegemm.explain(a, b, device=(70, 80))


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


def test_compile_refuses_scales(torch_mod):
    torch = torch_mod

    def f(a, b):
        return tilegemm.matmul(a, b, scale_a=torch.ones(()))

    torch._dynamo.reset()
    with pytest.raises(Exception, match="not yet in the C API"):
        torch.compile(f, fullgraph=True, backend="eager")(torch.zeros(4, 4), torch.zeros(4, 4))
    torch._dynamo.reset()
