#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# czk's CPU prover against rapidsnark on a machine without node or compilers of its own
# (the 16-core GPU host): `czk bench prove --compare` for BN254 (mul shape, 2 public
# signals) with czk and rapidsnark only. Two modes:
#
#   bench/prove_compare_device.sh --pack CZK RAPIDSNARK_PROVER [DIR]
#       here (the build machine): copy the czk binary (a Release build, CZK_CUDA=OFF is
#       enough: the bench runs the CPU backend), rapidsnark's prover
#       (tools/build_rapidsnark.sh) and the shared libraries they need beyond glibc
#       (libgmp, libjansson, libstdc++, libgcc_s) into DIR (default build-dev-prove/,
#       git-ignored, a few MiB: the circuits and keys are NOT carried, a 2^18 BN254 key
#       alone is 124 MB).
#
#   bench/prove_compare_device.sh [--dir DIR] [--threads N] [--runs N] [K ...]
#       there: run the bench from DIR on domains 2^K (default 16 18), N threads (default
#       all CPUs), N runs (default 5), twice: czk with its default flags, then with
#       --trust-key. `czk bench prove` generates each circuit and its
#       dev key there with the carried czk (gen-circuit + setup --dev, cached in
#       $TMPDIR/czk-bench-prove-device), times both provers round-robin as child
#       processes and verifies every proof with `czk verify`. The machine description and
#       the bench output go to stdout and, when $OUT is set, to $OUT/prove_compare.txt.
#       Exit status: the bench's (0 done, 1 a prover or a verification failed, 2 usage).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --pack ]; then
    [ $# -ge 3 ] || { sed -n '8,14p' "$0" >&2; exit 2; }
    czk=$2 rs=$3 dir=${4:-$root/build-dev-prove}
    [ -x "$czk" ] && [ -x "$rs" ] || { echo "not executable: $czk or $rs" >&2; exit 2; }
    rm -rf "$dir"
    mkdir -p "$dir/lib"
    cp "$czk" "$dir/czk"
    cp "$rs" "$dir/rapidsnark-prover"
    strip "$dir/czk" "$dir/rapidsnark-prover" 2>/dev/null || true
    # every non-glibc library either binary loads
    for lib in $(ldd "$dir/czk" "$dir/rapidsnark-prover" | awk '/=> \//{print $3}' | sort -u); do
        case "$(basename "$lib")" in
        libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux*) ;;
        *) cp -L "$lib" "$dir/lib/" ;;
        esac
    done
    git -C "$root" rev-parse --short HEAD >"$dir/COMMIT" 2>/dev/null || echo unknown >"$dir/COMMIT"
    du -sh "$dir"
    ls -l "$dir" "$dir/lib"
    exit 0
fi

dir=$root/build-dev-prove threads=$(nproc) runs=5 ks=()
while [ $# -gt 0 ]; do
    case "$1" in
    --dir) dir=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h | --help) sed -n '3,24p' "$0"; exit 0 ;;
    -*) echo "prove_compare_device.sh: unknown option $1" >&2; exit 2 ;;
    *) ks+=("$1"); shift ;;
    esac
done
[ ${#ks[@]} -gt 0 ] || ks=(16 18)
chmod +x "$dir/czk" "$dir/rapidsnark-prover" 2>/dev/null || true # a copy may lose the mode
[ -x "$dir/czk" ] && [ -x "$dir/rapidsnark-prover" ] ||
    { echo "prove_compare_device.sh: $dir lacks czk or rapidsnark-prover (run --pack first)" >&2; exit 2; }

export LD_LIBRARY_PATH="$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
work=${TMPDIR:-/tmp}/czk-bench-prove-device
mkdir -p "$work"
export XDG_CACHE_HOME="$work/cache" # czk's trust cache of checked keys

report=/dev/null
[ -n "${OUT:-}" ] && mkdir -p "$OUT" && report=$OUT/prove_compare.txt
{
    echo "date: $(date -u '+%F %T UTC')"
    echo "czk commit: $(cat "$dir/COMMIT" 2>/dev/null || echo unknown)"
    echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs," \
        "$(awk '/MemTotal/{printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -r)"
    echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "command: czk bench prove --curve bn254 --shape mul --domain-log ${ks[*]} --runs $runs" \
        "--threads $threads --compare --rapidsnark $dir/rapidsnark-prover [--trust-key]"
    echo
} | tee "$report"
set +e
rc=0
# czk as `czk prove` runs by default (subgroup checks of every key point in each
# process), then with --trust-key (no subgroup checks, like rapidsnark).
for mode in "" --trust-key; do
    echo "== czk bench prove ${mode:-(default czk prove flags)}" | tee -a "$report"
    # shellcheck disable=SC2086
    "$dir/czk" bench prove --curve bn254 --shape mul --domain-log "${ks[@]}" --runs "$runs" \
        --threads "$threads" --compare --rapidsnark "$dir/rapidsnark-prover" --workdir "$work" \
        $mode 2>&1 | tee -a "$report"
    r=${PIPESTATUS[0]}
    echo "exit status: $r" | tee -a "$report"
    [ "$r" -eq 0 ] || rc=$r
done
exit "$rc"
