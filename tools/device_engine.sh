#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The engine on the GPU host: `czk demo` (CPU and CUDA proofs, a 7-job batch on every
# visible device), then the same multi-partition batch through the engine on the CPU
# device and on the CUDA device (throughput, GPU_TIMING lines, completion order), then
# `czk bench prove --compare` against rapidsnark at 2^18. Runs from the repository root
# with the binaries packed by `bench/prove_compare_device.sh --pack CZK RAPIDSNARK DIR`
# (czk built with -DCZK_CUDA=ON). Logs to $OUT (or ./out-dev-engine); a table last.
# Usage: tools/device_engine.sh [DIR [quick]]   (default build-dev-eng; quick: no prove bench)
set -u
B="${1:-$PWD/build-dev-eng}"
O="${OUT:-$PWD/out-dev-engine}"
W="${TMPDIR:-/tmp}/czk-dev-engine"
mkdir -p "$O" "$W"
chmod +x "$B/czk" "$B/rapidsnark-prover" 2>/dev/null
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export XDG_CACHE_HOME="$W/cache"
czk="$B/czk"
summary="$O/summary.txt"
: >"$summary"
STEP_PATTERN='^(demo|batch):'
. "$(dirname "$0")/device_lib.sh"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a "$summary"
echo "czk commit: $(cat "$B/COMMIT" 2>/dev/null)" | tee -a "$summary"
step demo 240 "$czk" demo --dir "$W/demo" --vectors tests/vectors/groth16
# 4 jobs x 8 partitions of a BN254 2^16 circuit at four priorities
c="$W/bn16"
if [ ! -f "$c/circuit.zkey" ]; then
    "$czk" gen-circuit --curve bn254 --domain-log 16 --shape mul --witnesses 8 --out "$c" >/dev/null &&
        "$czk" setup --dev "$c/circuit.r1cs" "$c/circuit.zkey" >/dev/null 2>&1
fi
ws=$(for i in "" -1 -2 -3 -4 -5 -6 -7; do printf '"bn16/witness%s.wtns",' "$i"; done)
ws="[${ws%,}]"
cat >"$W/jobs.json" <<JSON
{"circuits": {"bn16": "bn16/circuit.zkey"},
 "jobs": [
  {"label": "low", "circuit": "bn16", "priority": "low", "witnesses": $ws},
  {"label": "normal", "circuit": "bn16", "priority": "normal", "witnesses": $ws},
  {"label": "high", "circuit": "bn16", "priority": "high", "submit_at_ms": 300, "witnesses": $ws},
  {"label": "critical", "circuit": "bn16", "priority": "critical", "submit_at_ms": 600, "witnesses": $ws}
 ]}
JSON
step batch_cpu 200 "$czk" batch --devices cpu --log-level info "$W/jobs.json"
step batch_cuda 200 "$czk" batch --devices cuda --log-level info "$W/jobs.json"
[ "${2:-full}" = quick ] || step bench_prove 240 bash bench/prove_compare_device.sh --dir "$B" --runs 3 18
echo "==== batch tables"
for n in batch_cpu batch_cuda; do
    echo "-- $n"
    grep -E '^\| (low|normal|high|critical|g[0-9]|s[0-9]|f[0-9]) |^engine:|^  (critical|high|normal|low) ' "$O/$n.log"
    echo "GPU_TIMING lines: $(grep -c GPU_TIMING "$O/$n.log")"
done
echo "==== prove compare"
grep -E '^\| 2\^18' "$O/bench_prove.log" 2>/dev/null
echo "==== summary"
cat "$summary"
