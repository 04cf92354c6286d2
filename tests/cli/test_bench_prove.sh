#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk bench prove`: argument validation (exit 2 with a message), a tiny czk-only run
# (2^6, one run) and its output tables, reuse of the generated inputs, --keep, and the
# --compare plumbing with stand-in provers (shell scripts that prove with `czk prove`, so
# no node or rapidsnark is needed): honest stand-ins are timed and verified, one that
# writes wrong public signals or exits non-zero fails the bench (exit 1), and rapidsnark
# is skipped for BLS12-381.
#
# Usage: tests/cli/test_bench_prove.sh <path-to-czk>
# Prints "N passed, N failed" last and exits non-zero if anything failed.
set -u

if [[ $# -ne 1 ]]; then
    echo "usage: $0 <path-to-czk>" >&2
    exit 2
fi
czk="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[[ -x "$czk" ]] || { echo "not executable: $czk" >&2; exit 2; }

tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-bench-prove.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# run NAME WANT_RC CMD...: exit status WANT_RC; output in $tmp/out.
run() {
    local name="$1" want="$2"
    shift 2
    "$@" >"$tmp/out" 2>&1
    local rc=$?
    if [[ $rc -eq $want ]]; then
        ok "$name"
    else
        bad "$name: exit $rc, expected $want: $(head -c 800 "$tmp/out")"
    fi
}

# has NAME PATTERN: the last output contains PATTERN (grep -E).
has() {
    if grep -Eq -- "$2" "$tmp/out"; then ok "$1"; else bad "$1: no '$2' in: $(head -c 800 "$tmp/out")"; fi
}

wd="$tmp/work"
b() { "$czk" bench prove "$@"; }

# ---- argument validation ----
run "help" 0 b --help
has "help text" "usage: czk bench prove"
run "curve bad" 2 b --curve bn256 --workdir "$wd"
has "curve message" "expected bn254 or bls12_381"
run "curve missing" 2 b --curve
run "shape bad" 2 b --shape square --workdir "$wd"
run "domain-log missing" 2 b --domain-log
run "domain-log followed by option" 2 b --domain-log --runs 1
run "domain-log not a number" 2 b --domain-log 1x
run "domain-log too small" 2 b --domain-log 1 --workdir "$wd"
has "domain-log range message" "out of range 2\.\.28"
run "domain-log porep too small" 2 b --shape porep --domain-log 8 --workdir "$wd"
run "domain-log too large bn254" 2 b --domain-log 29 --workdir "$wd"
run "runs 0" 2 b --runs 0
run "runs too many" 2 b --runs 1001
run "runs negative" 2 b --runs -1
run "threads 0" 2 b --threads 0
run "threads junk" 2 b --threads two
run "backend bad" 2 b --backend gpu
run "unknown option" 2 b --fast
run "stray argument" 2 b 16
run "rapidsnark without compare" 2 b --rapidsnark /bin/true
run "snarkjs without compare" 2 b --snarkjs /bin/true
run "rapidsnark missing file" 2 b --compare --rapidsnark "$tmp/nope" --domain-log 6 --workdir "$wd"
has "rapidsnark message" "is not an executable file"
run "snarkjs missing file" 2 b --compare --snarkjs "$tmp/nope.js" --domain-log 6 --workdir "$wd"
printf 'x\n' >"$tmp/notexec"
run "snarkjs not executable" 2 b --compare --snarkjs "$tmp/notexec" --domain-log 6 --workdir "$wd"
run "workdir empty" 2 b --workdir ""
[[ ! -e "$wd" ]] && ok "no work directory created by bad arguments" ||
    bad "bad arguments created $wd"

# ---- tiny czk-only run ----
start=$(date +%s.%N)
run "tiny run" 0 b --domain-log 6 --runs 1 --threads 1 --workdir "$wd"
end=$(date +%s.%N)
echo "     (tiny run: $(echo "$end - $start" | bc 2>/dev/null || echo "?") s)"
has "table header" "^\| size \| prover \| median ms \| min ms \| peak RSS MiB \| time / czk \|$"
has "czk row" "^\| 2\^6 \| czk \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| 1\.00 \|$"
has "stage rows" "^\| synth \| [0-9.]+ \|$"
has "msm_b2 row" "^\| msm_b2 \| [0-9.]+ \|$"
has "peak RSS row" "^\| peak RSS MiB \| [0-9.]+ \|$"
has "logfmt line" "^bench: prove curve=bn254 shape=mul k=6 threads=1 prover=czk runs=1 median_ms="
has "verified" "all 1 proofs verify"
if grep -q "rapidsnark\|snarkjs" <(grep '^| 2^6' "$tmp/out"); then bad "other provers ran without --compare"; else ok "czk only"; fi
[[ -f "$wd/bn254-mul-k6/circuit.zkey" && -f "$wd/bn254-mul-k6/ready" ]] && ok "inputs cached" ||
    bad "inputs not in $wd/bn254-mul-k6"
[[ ! -e "$wd/bn254-mul-k6/runs" ]] && ok "run outputs removed without --keep" || bad "runs kept"

run "rerun" 0 b --domain-log 6 --runs 2 --threads 1 --workdir "$wd" --keep
has "inputs reused" "reusing .*bn254-mul-k6"
[[ -f "$wd/bn254-mul-k6/runs/proof-czk-2.json" ]] && ok "--keep keeps proofs" || bad "--keep"

# ---- --compare with stand-in provers ----
cat >"$tmp/rs-good" <<EOF
#!/bin/sh
# rapidsnark's arguments: zkey wtns proof public
exec "$czk" prove --threads 1 "\$1" "\$2" "\$3" "\$4"
EOF
cat >"$tmp/sj-good" <<EOF
#!/bin/sh
# snarkjs's arguments: groth16 prove zkey wtns proof public
[ "\$1" = groth16 ] && [ "\$2" = prove ] || exit 9
exec "$czk" prove --threads 1 "\$3" "\$4" "\$5" "\$6"
EOF
cat >"$tmp/rs-wrong-public" <<EOF
#!/bin/sh
"$czk" prove --threads 1 "\$1" "\$2" "\$3" "\$4" || exit 1
printf '["1","2"]' >"\$4"
EOF
cat >"$tmp/rs-fails" <<EOF
#!/bin/sh
echo "stand-in prover failing on purpose" >&2
exit 3
EOF
chmod +x "$tmp/rs-good" "$tmp/sj-good" "$tmp/rs-wrong-public" "$tmp/rs-fails"

run "compare" 0 b --compare --rapidsnark "$tmp/rs-good" --snarkjs "$tmp/sj-good" --domain-log 6 \
    --runs 2 --threads 1 --workdir "$wd"
has "rapidsnark row" "^\| 2\^6 \| rapidsnark \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$"
has "snarkjs row" "^\| 2\^6 \| snarkjs \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$"
has "six proofs verified" "all 6 proofs verify"

run "compare, wrong public signals" 1 b --compare --rapidsnark "$tmp/rs-wrong-public" \
    --snarkjs "$tmp/sj-good" --domain-log 6 --runs 1 --threads 1 --workdir "$wd"
has "wrong public message" "rapidsnark proof of run 1 does not verify"
run "compare, failing prover" 1 b --compare --rapidsnark "$tmp/rs-fails" --snarkjs "$tmp/sj-good" \
    --domain-log 6 --runs 1 --threads 1 --workdir "$wd"
has "failing prover message" "rapidsnark run warmup failed \(exit 3\)"
has "failing prover log shown" "failing on purpose"
CZK_RAPIDSNARK="$tmp/rs-good" run "compare, rapidsnark from CZK_RAPIDSNARK" 0 \
    b --compare --snarkjs "$tmp/sj-good" --domain-log 6 --runs 1 --threads 1 --workdir "$wd"
has "env rapidsnark used" "^\| 2\^6 \| rapidsnark \|"

run "bls12_381 compare" 0 b --curve bls12_381 --compare --rapidsnark "$tmp/rs-good" \
    --snarkjs "$tmp/sj-good" --domain-log 6 --runs 1 --threads 1 --workdir "$wd"
has "rapidsnark skipped for bls12_381" "rapidsnark proves BN254 keys only"
has "bls12_381 snarkjs row" "^\| 2\^6 \| snarkjs \|"
if grep -q '^| 2^6 | rapidsnark' "$tmp/out"; then bad "rapidsnark ran on bls12_381"; else ok "no rapidsnark row"; fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
