#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Turn the `bench: ...` lines of czk_bench_ff / czk_bench_ec runs into Markdown.

Reads one or more output files (several runs of the same benchmark: each figure is
the median over the runs, so one noisy run does not move it) and prints the tables
of docs/PERF.md. Lines look like

    bench: ff field=fp_bn254 op=mul mode=lat impl=czk ns=21.40
    bench: ec group=g1_bn254 op=add impl=czk ns=412.3

Usage: perf_table.py ff|ec FILE... [--label TEXT]
"""
import statistics
import sys
from collections import OrderedDict

TARGET = 1.3


def parse(paths, kind):
    runs = OrderedDict()
    loads = []
    for path in paths:
        with open(path) as f:
            for line in f:
                if not line.startswith("bench: " + kind + " "):
                    continue
                kv = dict(tok.split("=", 1) for tok in line.split()[2:] if "=" in tok)
                if "load" in kv:
                    loads.append(float(kv["load"]))
                if "ns" not in kv:
                    continue
                key = tuple(kv.get(k, "") for k in ("field", "group", "op", "mode", "impl"))
                runs.setdefault(key, []).append(float(kv["ns"]))
    med = OrderedDict((k, statistics.median(v)) for k, v in runs.items())
    nruns = max((len(v) for v in runs.values()), default=0)
    load = f"load average {min(loads):.1f}-{max(loads):.1f}" if loads else "load unknown"
    return med, f"{nruns} run(s), {load}"


def ff_table(med, nruns, label):
    rows = OrderedDict()
    for (field, _, op, mode, impl), ns in med.items():
        rows.setdefault((field, op, mode), {})[impl] = ns
    print(f"{label} (median of {nruns}; ns/op; lat = dependent chain, "
          "thr = 1024 independent elements)\n")
    print("| field | op | mode | czk ns | ffiasm ns | czk/ffiasm |")
    print("|---|---|---|---:|---:|---:|")
    worst = 0.0
    for (field, op, mode), d in rows.items():
        c, f = d.get("czk"), d.get("ffiasm")
        if f:
            ratio = c / f
            if op == "mul":
                worst = max(worst, ratio)
            print(f"| {field} | {op} | {mode} | {c:.2f} | {f:.2f} | {ratio:.2f} |")
        else:
            print(f"| {field} | {op} | {mode} | {c:.1f} | - | - |")
    status = "met" if worst <= TARGET else "MISSED"
    print(f"\nTarget czk mul <= {TARGET}x ffiasm: **{status}** (worst mul ratio {worst:.2f}).\n")


def ec_table(med, nruns, label):
    print(f"{label} (median of {nruns}; latency of a dependent chain)\n")
    print("| group | op | ns/op | us/op |")
    print("|---|---|---:|---:|")
    for (_, group, op, _, _), ns in med.items():
        print(f"| {group} | {op} | {ns:.1f} | {ns / 1e3:.2f} |")
    print()


def main(argv):
    if len(argv) < 3 or argv[1] not in ("ff", "ec"):
        sys.exit(__doc__)
    kind, args, label = argv[1], argv[2:], ""
    if "--label" in args:
        i = args.index("--label")
        label = args[i + 1]
        args = args[:i] + args[i + 2:]
    med, nruns = parse(args, kind)
    if not med:
        sys.exit(f"no 'bench: {kind}' lines in {args}")
    (ff_table if kind == "ff" else ec_table)(med, nruns, label)


if __name__ == "__main__":
    main(sys.argv)
