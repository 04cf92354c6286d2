#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One pairing and a four-pair check: czk_bench_pairing and @noble/curves run back to back on the
# same machine; prints the ratio noble/czk per curve and operation.
# Usage: bench/pairing_vs_noble.sh <build-dir-with-bench>
set -euo pipefail
cd "$(dirname "$0")/.."
b="${1:-build-bench}"
{ "$b/bench/czk_bench_pairing"; node bench/noble_pairing.mjs; } | tee /tmp/czk_pairing_bench.txt |
python3 -c '
import re, sys
r = {}
for line in sys.stdin:
    m = re.match(r"bench: pairing curve=(\S+) op=(\S+) impl=(\S+) ns=([\d.]+)", line)
    if m:
        r[(m[1], m[2], m[3])] = float(m[4])
print("| curve | op | czk us | noble us | noble/czk |")
print("|---|---|---:|---:|---:|")
for (c, op, impl), ns in sorted(r.items()):
    if impl == "czk" and (c, op, "noble") in r:
        n = r[(c, op, "noble")]
        print(f"| {c} | {op} | {ns/1e3:.1f} | {n/1e3:.1f} | {n/ns:.1f} |")
'
