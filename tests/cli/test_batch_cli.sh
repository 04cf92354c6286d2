#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# `czk batch` end to end on the committed vectors: a multi-partition, two-circuit,
# four-priority run whose proofs are written (--out) and then verified again with
# `czk verify`; bad input (malformed JSON, unknown members, unknown circuit, bad priority,
# missing witness, a witness of the other curve) exits 2 or 1 with a message naming it.
# Usage: tests/cli/test_batch_cli.sh <path-to-czk> <vectors-dir>
set -u
[[ $# -eq 2 ]] || { echo "usage: $0 <path-to-czk> <vectors-dir>" >&2; exit 2; }
czk="$1"
v="$(cd "$2" && pwd)/groth16"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/czk-batch-cli.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

# run WANT NAME TEXT JSON: write JSON to a file, run czk batch on it
run() {
    local want="$1" name="$2" text="$3"
    printf '%s\n' "$4" >"$tmp/jobs.json"
    local out rc
    out="$("$czk" batch --threads 2 "$tmp/jobs.json" 2>&1)"
    rc=$?
    if [[ $rc -ne $want ]]; then
        bad "$name: exit $rc, expected $want: $out"
    elif [[ -n "$text" && "$out" != *"$text"* ]]; then
        bad "$name: output lacks '$text': $out"
    else
        ok "$name"
    fi
}

bn="$v/bn254/mulchain" bls="$v/bls12_381/cubic"
good='{"circuits": {"bn": "'$bn'/circuit.zkey", "bls": "'$bls'/circuit.zkey"},
 "jobs": [
  {"label": "l", "circuit": "bn", "priority": "low", "witnesses": ["'$bn'/witness.wtns", "'$bn'/witness.wtns", "'$bn'/witness.wtns"]},
  {"label": "n", "circuit": "bls", "witnesses": ["'$bls'/witness.wtns", "'$bls'/witness.wtns"]},
  {"label": "h", "circuit": "bn", "priority": "high", "submit_at_ms": 20, "witnesses": ["'$bn'/witness.wtns"]},
  {"label": "c", "circuit": "bls", "priority": "CRITICAL", "submit_at_ms": 40, "witnesses": ["'$bls'/witness.wtns"]}
 ]}'
printf '%s\n' "$good" >"$tmp/good.json"
out="$("$czk" batch --threads 2 --out "$tmp/out" "$tmp/good.json" 2>&1)"
rc=$?
if [[ $rc -eq 0 && "$out" == *"batch: 4 of 4 jobs done and verified"* ]]; then
    ok "four jobs at four priorities done and verified"
else
    bad "good batch: exit $rc: $out"
fi
[[ "$out" == *"order of completion per priority"* && "$out" == *"worker timeline"* &&
    "$out" == *"mutex acquisitions per partition 1.000"* ]] &&
    ok "summary: order, timeline, lock count" || bad "summary incomplete: $out"
nv=0
for j in l:bn n:bls h:bn c:bls; do
    label=${j%%:*} dir=$bn
    [[ ${j#*:} == bls ]] && dir=$bls
    for p in "$tmp/out/$label"/proof-*.json; do
        i=${p##*proof-}
        i=${i%.json}
        if "$czk" verify "$dir/verification_key.json" "$tmp/out/$label/public-$i.json" "$p" \
            >/dev/null 2>&1 && cmp -s "$tmp/out/$label/public-$i.json" "$dir/public.json"; then
            nv=$((nv + 1))
        fi
    done
done
[[ $nv -eq 7 ]] && ok "7 written proofs verify, public.json as committed" ||
    bad "$nv of 7 written proofs verify"
out="$("$czk" batch --threads 2 --log-level info --no-verify "$tmp/good.json" 2>&1)"
n=$(grep -c "GPU_TIMING" <<<"$out")
[[ $n -eq 7 && "$out" == *SYNTH_TIMING* && "$out" == *FIN_TIMING* ]] &&
    ok "7 GPU_TIMING lines, SYNTH_TIMING and FIN_TIMING at --log-level info" ||
    bad "timing logs ($n GPU_TIMING)"

run 2 "malformed JSON" "line" '{"circuits": {'
run 2 "unknown top-level member" 'unknown member "job"' '{"circuits": {"bn": "x"}, "job": []}'
run 2 "unknown job member" 'unknown member "priorty"' \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "bn", "priorty": "low", "witnesses": ["w"]}]}'
run 2 "unknown circuit" '"circuit" must name' \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "zz", "witnesses": ["w"]}]}'
run 2 "bad priority" 'priority' \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "bn", "priority": "urgent", "witnesses": ["w"]}]}'
run 2 "no witnesses" 'witnesses' \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "bn", "witnesses": []}]}'
run 2 "bad circuit id" 'id is 1-63' \
    '{"circuits": {"a b": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "a b", "witnesses": ["w"]}]}'
run 2 "zkey that is not a zkey" 'circuit bn' \
    '{"circuits": {"bn": "'$bn'/witness.wtns"}, "jobs": [{"circuit": "bn", "witnesses": ["w"]}]}'
run 2 "duplicate label" 'duplicate label' \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"label": "a", "circuit": "bn", "witnesses": ["w"]}, {"label": "a", "circuit": "bn", "witnesses": ["w"]}]}'
run 1 "missing witness file fails the job" "missing.wtns" \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "bn", "witnesses": ["'$tmp'/missing.wtns"]}]}'
run 1 "witness of the other curve fails the job" "failed" \
    '{"circuits": {"bn": "'$bn'/circuit.zkey"}, "jobs": [{"circuit": "bn", "witnesses": ["'$bls'/witness.wtns"]}]}'
out="$("$czk" batch 2>&1)"
[[ $? -eq 2 && "$out" == *usage* ]] && ok "usage without JOBS.json" || bad "no-argument run: $out"
out="$("$czk" batch --gpu-workers 0 "$tmp/good.json" 2>&1)"
[[ $? -eq 2 ]] && ok "--gpu-workers 0 rejected" || bad "--gpu-workers 0: $out"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
