#!/usr/bin/env python3
"""sass_rows.py — the compiled sm90 kernels are exactly those the configuration table promises.

    python3 scripts/sass_rows.py PROGRAM FILE...

PROGRAM prints the kernel instances of every configuration of kernels/sm90/sm90_configs.h, one
key per line (tests' test_sm90_rows --instances: read from the compiled templates); FILE...: the
objects or libraries holding the sm90 kernels. Each object is disassembled with `cuobjdump -sass`
(as scripts/sass_compare.py finds it) and its sm90 kernels keyed the same way. Every promised
instance must be present, and no other sm90 kernel.

Exit status: 0 they agree, 1 they do not, 77 no cuobjdump (skipped; say so).
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sass_compare  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print("usage: " + __doc__.strip().splitlines()[2].strip())
        return 1
    program, files = argv[0], argv[1:]
    cuobjdump = sass_compare.find_tool("cuobjdump", "CUOBJDUMP")
    if not cuobjdump:
        print("sass_rows: SKIPPED: no cuobjdump (set CUOBJDUMP or put the toolkit's bin on PATH)")
        return sass_compare.SKIP
    promised = subprocess.run([program, "--instances"], stdout=subprocess.PIPE, universal_newlines=True,
                              check=True).stdout.splitlines()
    paths = [o for f in files for o in sass_compare.objects(f)]
    compiled = sass_compare.keyed(sass_compare.listing(cuobjdump, paths), False)
    missing = sorted(set(promised) - set(compiled))
    extra = sorted(set(compiled) - set(promised))
    for k in missing:
        print("MISSING %s" % k)
    for k in extra:
        print("NOT IN THE TABLE %s" % k)
    if len(set(promised)) != len(promised):
        print("the table promises an instance twice")
        return 1
    print("sass_rows: %d instances promised, %d sm90 kernels compiled, %d missing, %d not in the table" % (
        len(promised), len(compiled), len(missing), len(extra)))
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
