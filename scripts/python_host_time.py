#!/usr/bin/env python3
"""python_host_time.py — the Python side of one tilegemm.matmul call, timed without a GPU.

CPU torch tensors pose as CUDA tensors of device 0 (Tensor.get_device is replaced), the current
stream is a constant and the C calls that would launch (tg_matmul, and tg_plan_create, tg_plan_run
and tg_plan_destroy of the plans repeated calls make) are no-ops that return TG_OK, so what is
timed is the package's own work per call: reading the operands, finding its plan or building or
reusing the request, allocating D (here on the CPU) and the ctypes calls themselves, not the C
library's work nor the launch (`python -m tilegemm.bench` times whole calls on a GPU). Variants run interleaved, after a warm-up; prints the minimum and
median microseconds per call over the rounds, and with --profile the functions one variant spends
its time in (cProfile). Every variant repeats one call but the last, whose every call has a new
shape (the first call of its key).

    TILEGEMM_LIBRARY=build/libtilegemm.so PYTHONPATH=python python3 scripts/python_host_time.py
"""
import argparse
import cProfile
import itertools
import pstats
import statistics
import time

import torch

import tilegemm
from tilegemm import _core, _lib


def variants(m, n, k):
    bf16 = torch.bfloat16
    a, b = torch.zeros(m, k, dtype=bf16), torch.zeros(k, n, dtype=bf16)
    bt = torch.zeros(n, k, dtype=bf16).t()
    a3 = torch.zeros(4, m, k, dtype=bf16)
    out, bias = torch.empty(m, n, dtype=bf16), torch.zeros(n, dtype=bf16)
    mm, op = tilegemm.matmul, torch.ops.tilegemm.matmul
    # More shapes than the requests kept: every call is the first of its key.
    rows = torch.zeros(2 * getattr(_core, "_REQUESTS_LIMIT", 4096), k, dtype=bf16)
    fresh = itertools.cycle([rows[:i] for i in range(1, len(rows) + 1)])
    return {
        "new_empty alone": lambda: a.new_empty((m, n), dtype=bf16),
        "matmul": lambda: mm(a, b),
        "matmul out=": lambda: mm(a, b, out=out),
        "matmul b.t()": lambda: mm(a, bt),
        "matmul batch 4": lambda: mm(a3, b),
        "matmul bias gelu": lambda: mm(a, b, bias=bias, activation="gelu"),
        "matmul c beta=1 out=c": lambda: mm(a, b, c=out, beta=1.0, out=out),
        "custom op": lambda: op(a, b, None, None, 1.0, 0.0, None, None, None, None),
        "matmul, a new m each": lambda: mm(next(fresh), b),
    }


# What the stubbed tg_plan_create hands out: any non-NULL address.
FAKE_PLAN = 0x2000


def plan_create(handle, gemm, plan):
    plan.value = FAKE_PLAN
    return _lib.OK


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--shape", default="64,64,64", help="M,N,K (default %(default)s)")
    p.add_argument("--calls", type=int, default=1000, help="calls per round")
    p.add_argument("--rounds", type=int, default=30, help="rounds per variant")
    p.add_argument("--profile", metavar="VARIANT", help="profile this variant (a name above)")
    args = p.parse_args()
    m, n, k = (int(x) for x in args.shape.split(","))

    torch.Tensor.get_device = lambda self: 0
    _core._raw_stream = lambda device: 0
    _lib.tg_matmul = lambda *call: _lib.OK
    _lib.tg_plan_create = plan_create
    _lib.tg_plan_run = lambda *call: _lib.OK
    _lib.tg_plan_destroy = lambda plan: None
    fake = _core._Handle(0x1000, 0)
    _core._state.handles[0] = fake
    try:
        fns = variants(m, n, k)
        for fn in fns.values():
            for _ in range(200):
                fn()
        times = {name: [] for name in fns}
        for _ in range(args.rounds):
            for name, fn in fns.items():
                t0 = time.perf_counter()
                for _ in range(args.calls):
                    fn()
                times[name].append((time.perf_counter() - t0) * 1e6 / args.calls)
        print(f"us per call, {m}x{n}x{k} bf16, {args.rounds} rounds of {args.calls} calls "
              f"(the C calls stubbed out: CPU time of the Python side)")
        for name, ts in times.items():
            print(f"{name:>24}  min {min(ts):6.2f}  median {statistics.median(ts):6.2f}")
        if args.profile:
            fn = fns[args.profile]
            prof = cProfile.Profile()
            prof.enable()
            for _ in range(args.calls * 10):
                fn()
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(20)
    finally:
        fake.ptr = None  # a fake handle: never tg_destroy'ed


if __name__ == "__main__":
    main()
