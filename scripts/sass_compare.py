#!/usr/bin/env python3
"""sass_compare.py — whether two builds hold the same machine code for every sm90 kernel.

    python3 scripts/sass_compare.py [--encodings] [--dump DIR] [--all] BASE NEW

BASE, NEW: object files, libraries, or folders searched for *.o (a build's
CMakeFiles/tilegemm_sm90a_objects.dir, say). Each is disassembled with `cuobjdump -sass` (found as
sass_check.py finds it: $CUOBJDUMP, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin); no GPU is needed.

Kernels are matched by what they compute, not by their mangled names, so that a renamed or
recomposed template still meets its old self: the key is the input type, the tile (BM, BN),
stages, operand orders, cluster, schedule and epilogue set, read from the demangled template
arguments (c++filt). Both spellings are understood: the single template of before
(Sm90Gemm<E, BM, BN, STAGES, A_KMAJOR, B_KMAJOR, CLUSTER_M, CLUSTER_N, SCHEDULE, EPILOGUES>,
schedule and set as numbers) and the composed one (its input type, the literals in the same
order, and the schedule and epilogue set as named policies, e.g. Sm90Cooperative, Sm90EpiLean).
Kernels of neither spelling are matched by their demangled name (--all: compare those too).

Per matched kernel the instruction text is compared with addresses and encodings stripped
(--encodings: the 128-bit encodings too). The report lists the identical count, every kernel
whose code differs (with its first differing instruction and the instruction counts), and the
kernels found on one side only. --dump DIR writes each side's normalized listing per key, for diff.

Exit status: 0 every kernel identical and none missing, 1 otherwise, 77 no cuobjdump.
"""
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
FUNCTION = re.compile(r"^\s*Function : (\S+)")
INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;\s*(?:/\*\s*(0x[0-9a-f]+)\s*\*/)?\s*$")
ENCODING_ONLY = re.compile(r"^\s+/\*\s*(0x[0-9a-f]+)\s*\*/\s*$")
OLD_SCHEDULES = {"0": "cooperative", "1": "pingpong"}
OLD_SETS = {"0": "lean", "1": "cast", "2": "rest", "3": "bias", "4": "resid", "5": "act"}
LITERAL = re.compile(r"(?<![\w.])(-?\d+|true|false)(?![\w.])")


def find_tool(name, env):
    candidates = [os.environ.get(env), shutil.which(name)]
    for home in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"):
        if home:
            candidates.append(os.path.join(home, "bin", name))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


def objects(path):
    if os.path.isdir(path):
        found = []
        for root, _, files in os.walk(path):
            found += [os.path.join(root, f) for f in files if f.endswith(".o")]
        return sorted(found)
    return [path]


def listing(cuobjdump, paths):
    """{mangled name: [instruction text (, encoding)]} over every file."""
    kernels = {}
    for path in paths:
        proc = subprocess.run([cuobjdump, "-sass", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
        if proc.returncode != 0:
            if "does not contain device code" in proc.stderr:
                continue
            raise RuntimeError("%s -sass %s failed: %s" % (cuobjdump, path, proc.stderr.strip()))
        current = None
        for line in proc.stdout.splitlines():
            m = FUNCTION.match(line)
            if m:
                current = kernels.setdefault(m.group(1), [])
                continue
            if current is None:
                continue
            m = INSTRUCTION.match(line)
            if m:
                current.append([" ".join(m.group(1).split()), m.group(2) or ""])
                continue
            m = ENCODING_ONLY.match(line)
            if m and current:
                current[-1][1] += m.group(1)
    return kernels


def demangle(names):
    cxxfilt = shutil.which("c++filt") or shutil.which("cu++filt")
    if not cxxfilt or not names:
        return {n: n for n in names}
    proc = subprocess.run([cxxfilt], input="\n".join(names) + "\n", stdout=subprocess.PIPE,
                          universal_newlines=True)
    out = proc.stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def template_args(demangled):
    """The kernel's template arguments: the text between the name's first '<' and its match."""
    start = demangled.find("<")
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(demangled)):
        if demangled[i] == "<":
            depth += 1
        elif demangled[i] == ">":
            depth -= 1
            if depth == 0:
                return demangled[start + 1:i]
    return None


# tg_dtype numbers of the fp8 types (tilegemm.h), as Sm90F8's template arguments show them.
FP8_TYPES = {"3": "e4m3", "4": "e5m2"}


def key_of(demangled):
    """A key naming what an sm90 kernel computes, or None for other kernels."""
    if "sm90_gemm_kernel" not in demangled:
        return None
    args = template_args(demangled)
    if args is None:
        return None
    t = re.search(r"Sm90(BF16|F16|TF32|S8)\b", args)
    f8 = re.search(r"Sm90F8<(\d+), (\d+), (?:true|false)>", args)
    if not t and not f8:
        return None
    if f8:  # the fp8 atom's own arguments (tg_dtype numbers) are not the configuration's
        itype = "%s/%s" % (FP8_TYPES.get(f8.group(1), f8.group(1)), FP8_TYPES.get(f8.group(2), f8.group(2)))
        args = args[:f8.start()] + args[f8.end():]
    else:
        itype = t.group(1).lower()
    lits = LITERAL.findall(args)
    sched = re.search(r"Sm90(Cooperative|Pingpong)\b", args)
    epi = re.search(r"Sm90Epilogue(Lean|Cast|Rest|Bias|Resid|Act)\b", args)
    if sched and epi:
        if len(lits) < 7:
            return None
        schedule, eset, lits = sched.group(1).lower(), epi.group(1).lower(), lits[:7]
    else:
        if len(lits) < 9:
            return None
        schedule = OLD_SCHEDULES.get(lits[7], lits[7])
        eset = OLD_SETS.get(lits[8], lits[8])
        lits = lits[:7]
    bm, bn, stages, ak, bk, cm, cn = lits
    orders = ("K" if ak in ("true", "1") else "MN") + "/" + ("K" if bk in ("true", "1") else "MN")
    return "%s %sx%s %s stages, A/B %s-major, cluster %sx%s, %s, %s" % (
        itype, bm, bn, stages, orders, cm, cn, schedule, eset.upper())


def keyed(kernels, include_all):
    names = list(kernels)
    dem = demangle(names)
    out = {}
    for n in names:
        k = key_of(dem[n])
        if k is None:
            if not include_all:
                continue
            k = "other " + dem[n]
        if k in out:
            raise RuntimeError("two kernels share the key %s" % k)
        out[k] = kernels[n]
    return out


def main(argv):
    encodings, dump, include_all, paths = False, None, False, []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--encodings":
            encodings = True
        elif a == "--all":
            include_all = True
        elif a == "--dump" and args:
            dump = args.pop(0)
        elif a.startswith("-"):
            print("sass_compare: unknown option %s" % a)
            return 1
        else:
            paths.append(a)
    if len(paths) != 2:
        print("usage: " + __doc__.strip().splitlines()[2].strip())
        return 1
    cuobjdump = find_tool("cuobjdump", "CUOBJDUMP")
    if not cuobjdump:
        print("sass_compare: SKIPPED: no cuobjdump (set CUOBJDUMP or put the toolkit's bin on PATH)")
        return SKIP
    sides = [keyed(listing(cuobjdump, objects(p)), include_all) for p in paths]
    base, new = sides
    if dump:
        for label, side in (("base", base), ("new", new)):
            os.makedirs(os.path.join(dump, label), exist_ok=True)
            for k, code in side.items():
                fname = re.sub(r"[^\w.-]+", "_", k) + ".sass"
                with open(os.path.join(dump, label, fname), "w") as f:
                    f.write("\n".join(i[0] + ("  " + i[1] if encodings else "") for i in code) + "\n")
    same, differ = 0, []
    for k in sorted(set(base) & set(new)):
        a = [i if encodings else i[0] for i in base[k]]
        b = [i if encodings else i[0] for i in new[k]]
        if a == b:
            same += 1
            continue
        first = next((j for j in range(min(len(a), len(b))) if a[j] != b[j]), min(len(a), len(b)))
        differ.append((k, len(a), len(b), first, a[first] if first < len(a) else "(end)",
                       b[first] if first < len(b) else "(end)"))
    only_base, only_new = sorted(set(base) - set(new)), sorted(set(new) - set(base))
    for k, na, nb, j, x, y in differ:
        print("DIFFER %s: %d -> %d instructions, first at #%d:\n    base: %s\n    new:  %s" % (k, na, nb, j, x, y))
    for k in only_base:
        print("ONLY IN BASE %s" % k)
    for k in only_new:
        print("ONLY IN NEW %s" % k)
    print("sass_compare: %d kernels matched, %d identical%s, %d differ, %d only in base, %d only in new" % (
        same + len(differ), same, " (encodings too)" if encodings else "", len(differ), len(only_base),
        len(only_new)))
    return 0 if not differ and not only_base and not only_new else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
