"""python -m tilegemm.bench — tilegemm against torch.matmul (and torch._scaled_mm for fp8) in one
process, on the same tensors, with ratios; then the host time per call of each entry point.

Throughput: for each shape and dtype, each library runs `--iterations` back-to-back calls timed
with CUDA events (warm L2, the same buffers), alternating for `--rounds` rounds; the median per
call is kept. Results are compared (largest difference relative to the largest |D|).

Host overhead: the time the host takes to issue one call, measured over `--calls` back-to-back
calls with a host clock (perf_counter), synchronized once after the loop (so that the launch
queue never fills and blocks), median of `--rounds` rounds. Rows: torch.matmul, tilegemm.matmul,
both with out=, the custom op torch.ops.tilegemm.matmul, and bare ctypes calls of tg_matmul (the
request built once) and of tg_plan_run (the request planned once): the floors under the Python
layer, without and with a plan.
"""
import argparse
import csv
import statistics
import sys
import time

DEFAULT_SHAPES = ["4096,4096,4096", "8192,8192,8192", "8192,8192,1024", "4096,14336,4096",
                  "16,4096,4096", "1024,1024,1024"]
OVERHEAD_SHAPES = ["64,64,64", "16,4096,4096", "4096,4096,4096"]


def _shape(text):
    parts = [int(p) for p in text.split(",")]
    if len(parts) not in (3, 4):
        raise argparse.ArgumentTypeError(f"shape {text!r}: M,N,K or M,N,K,L")
    return tuple(parts) if len(parts) == 4 else tuple(parts) + (1,)


def _tensors(torch, m, n, k, batch, dtype):
    lead = (batch,) if batch > 1 else ()
    g = torch.Generator(device="cuda")
    g.manual_seed(1234)
    if dtype == torch.int8:
        a = torch.randint(-8, 8, lead + (m, k), generator=g, device="cuda").to(dtype)
        b = torch.randint(-8, 8, lead + (k, n), generator=g, device="cuda").to(dtype)
    else:
        a = torch.randn(lead + (m, k), generator=g, device="cuda").to(dtype)
        b = torch.randn(lead + (k, n), generator=g, device="cuda").to(dtype)
    return a, b


def _event_time(torch, fn, iterations, warmup, budget_us=300000.0):
    """Microseconds per call over `iterations` back-to-back calls (fewer when one call is slow:
    a round stays near `budget_us`)."""
    fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    stop.record()
    stop.synchronize()
    one = start.elapsed_time(stop) * 1000.0
    iterations = max(2, min(iterations, int(budget_us / max(one, 1.0))))
    warmup = min(warmup, iterations)
    for _ in range(warmup):
        fn()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iterations):
        fn()
    stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1000.0 / iterations  # us per call


def _host_time(torch, fn, calls, rounds):
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        times.append((t1 - t0) * 1e6 / calls)
    return statistics.median(times)


def throughput(torch, tilegemm, args, rows):
    names = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
             "tf32": torch.float32, "e4m3": torch.float8_e4m3fn, "s8": torch.int8}
    print(f"{'shape':>22} {'dtype':>5} {'tilegemm us':>12} {'TFLOP/s':>8} {'torch us':>10} "
          f"{'TFLOP/s':>8} {'ratio':>6}  kernel / check")
    for m, n, k, batch in args.shapes:
        for dname in args.dtype:
            dtype = names[dname]
            a, b = _tensors(torch, m, n, k, batch, dtype)
            compute = "tf32" if dname == "tf32" else None
            tg_out = torch.empty((batch, m, n) if batch > 1 else (m, n), device="cuda",
                                 dtype=tilegemm._core.TORCH_FROM_CODE[
                                     tilegemm._core.default_out_code(
                                         tilegemm._core.TORCH_DTYPES[dtype])])

            tg_b = b  # the B tilegemm gets: the one the comparison gets

            def tg():
                tilegemm.matmul(a, tg_b, out=tg_out, compute=compute)

            if dname == "e4m3":  # torch's fp8 GEMM: B column-major, unit scales, bf16 out
                if batch > 1:
                    continue
                bt = tg_b = b.t().contiguous().t()
                one = torch.ones((), device="cuda")

                def ref():
                    return torch._scaled_mm(a, bt, scale_a=one, scale_b=one,
                                            out_dtype=torch.bfloat16)
                other = "torch._scaled_mm"
            elif dname == "s8":
                if batch > 1:
                    continue
                bt = tg_b = b.t().contiguous().t()

                def ref():
                    return torch._int_mm(a, bt)
                other = "torch._int_mm"
            else:
                def ref():
                    return torch.matmul(a, b)
                other = "torch.matmul"
            prev_tf32 = torch.backends.cuda.matmul.allow_tf32
            torch.backends.cuda.matmul.allow_tf32 = dname == "tf32"
            try:
                try:
                    expect = ref().float()
                except RuntimeError as e:  # a shape torch's kernel does not take
                    print(f"{m}x{n}x{k} {dname}: {other} refused it ({str(e).splitlines()[0]})")
                    continue
                tg_us, ref_us = [], []
                for _ in range(args.rounds):
                    tg_us.append(_event_time(torch, tg, args.iterations, args.warmup))
                    ref_us.append(_event_time(torch, ref, args.iterations, args.warmup))
            finally:
                torch.backends.cuda.matmul.allow_tf32 = prev_tf32
            t, r = statistics.median(tg_us), statistics.median(ref_us)
            flops = 2.0 * m * n * k * batch
            scale = expect.abs().max().item() or 1.0
            diff = (tg_out.float() - expect).abs().max().item() / scale
            kernel = tilegemm.last_kernel(a.device.index)
            shape = f"{m}x{n}x{k}" + (f"x{batch}" if batch > 1 else "")
            print(f"{shape:>22} {dname:>5} {t:12.1f} {flops / t / 1e6:8.1f} {r:10.1f} "
                  f"{flops / r / 1e6:8.1f} {r / t:6.3f}  {kernel} / max diff {diff:.2e} vs {other}",
                  flush=True)
            rows.append({"kind": "throughput", "shape": shape, "dtype": dname, "tilegemm_us": t,
                         "other": other, "other_us": r, "speedup": r / t, "kernel": kernel,
                         "max_rel_diff": diff})


def overhead(torch, tilegemm, args, rows):
    from tilegemm import _core, _lib
    print(f"\nhost time per call (us; {args.calls} back-to-back calls, median of {args.rounds}):")
    print(f"{'shape':>16} {'torch.matmul':>13} {'tilegemm':>9} {'ratio':>6} "
          f"{'torch out=':>11} {'tilegemm out=':>14} {'custom op':>10} {'bare ctypes':>12} "
          f"{'bare planned':>13}")
    for m, n, k, batch in args.overhead_shapes:
        a, b = _tensors(torch, m, n, k, batch, torch.bfloat16)
        out = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
        out2 = torch.empty_like(out)
        op = torch.ops.tilegemm.matmul
        r = _core.build(a, b, None, 1.0, 0.0, None, None, out, None, None, None, None)
        h = _core.handle(r.device)
        gemm = _core.ctypes.create_string_buffer(_lib.GEMM_PACKER.size)  # its own tg_gemm
        _lib.GEMM_PACKER.pack_into(gemm, 0, *r.fields)
        stream = _core._raw_stream(r.device)
        bare_fn, hp, addr = _lib.tg_matmul, h.ptr, _core.ctypes.addressof(gemm)
        plan = _core.ctypes.c_void_p()
        status = _lib.tg_plan_create(hp, addr, plan)
        if status != _lib.OK:
            raise _core._fail(hp, status)
        plan_fn, pp = _lib.tg_plan_run, plan.value

        t = {
            "torch": _host_time(torch, lambda: torch.matmul(a, b), args.calls, args.rounds),
            "tilegemm": _host_time(torch, lambda: tilegemm.matmul(a, b), args.calls, args.rounds),
            "torch_out": _host_time(torch, lambda: torch.matmul(a, b, out=out2), args.calls,
                                    args.rounds),
            "tilegemm_out": _host_time(torch, lambda: tilegemm.matmul(a, b, out=out), args.calls,
                                       args.rounds),
            "op": _host_time(torch, lambda: op(a, b, None, None, 1.0, 0.0, None, None, None, None),
                             args.calls, args.rounds),
            "bare": _host_time(torch, lambda: bare_fn(hp, addr, r.a, r.b, 0, r.d, stream),
                               args.calls, args.rounds),
            "bare_plan": _host_time(torch, lambda: plan_fn(pp, r.a, r.b, 0, r.d, stream),
                                    args.calls, args.rounds),
        }
        _lib.tg_plan_destroy(pp)
        shape = f"{m}x{n}x{k}"
        print(f"{shape:>16} {t['torch']:13.2f} {t['tilegemm']:9.2f} {t['tilegemm'] / t['torch']:6.2f} "
              f"{t['torch_out']:11.2f} {t['tilegemm_out']:14.2f} {t['op']:10.2f} {t['bare']:12.2f} "
              f"{t['bare_plan']:13.2f}", flush=True)
        rows.append({"kind": "host_overhead", "shape": shape, "dtype": "bf16",
                     "tilegemm_us": t["tilegemm"], "other": "torch.matmul", "other_us": t["torch"],
                     "speedup": t["torch"] / t["tilegemm"], "kernel": "",
                     "max_rel_diff": "", "tilegemm_out_us": t["tilegemm_out"],
                     "torch_out_us": t["torch_out"], "custom_op_us": t["op"],
                     "bare_ctypes_us": t["bare"], "bare_ctypes_plan_us": t["bare_plan"]})


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m tilegemm.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--shapes", nargs="+", type=_shape, default=[_shape(s) for s in DEFAULT_SHAPES],
                   metavar="M,N,K[,L]", help="throughput shapes (default: %(default)s)")
    p.add_argument("--dtype", default="bf16,f16,e4m3",
                   help="comma list of bf16, f16, f32, tf32, e4m3, s8 (default: %(default)s)")
    p.add_argument("--iterations", type=int, default=20, help="timed calls per round")
    p.add_argument("--warmup", type=int, default=5, help="untimed calls before each round")
    p.add_argument("--rounds", type=int, default=5, help="rounds (median kept)")
    p.add_argument("--overhead-shapes", nargs="+", type=_shape,
                   default=[_shape(s) for s in OVERHEAD_SHAPES], metavar="M,N,K")
    p.add_argument("--calls", type=int, default=200, help="calls per host-overhead round")
    p.add_argument("--skip-throughput", action="store_true")
    p.add_argument("--skip-overhead", action="store_true")
    p.add_argument("--csv", help="also write the rows to this CSV file")
    args = p.parse_args(argv)
    args.dtype = [d.strip() for d in args.dtype.split(",") if d.strip()]

    import torch
    import tilegemm
    if not torch.cuda.is_available():
        print("no CUDA device", file=sys.stderr)
        return 2
    props = torch.cuda.get_device_properties(0)
    print(f"device: {props.name}, torch {torch.__version__} (CUDA {torch.version.cuda}), "
          f"tilegemm {tilegemm.version()} ({tilegemm.library_path})", flush=True)
    rows = []
    if not args.skip_throughput:
        throughput(torch, tilegemm, args, rows)
    if not args.skip_overhead:
        overhead(torch, tilegemm, args, rows)
    if args.csv:
        fields = []
        for row in rows:
            fields += [f for f in row if f not in fields]
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=["device"] + fields)
            w.writeheader()
            for row in rows:
                w.writerow({"device": props.name, **row})
    return 0


if __name__ == "__main__":
    sys.exit(main())
