#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Build rapidsnark's CPU Groth16 prover (github.com/iden3/rapidsnark), the baseline of
# `czk bench prove --compare`, from its public source, OUTSIDE this repository.
#
#   tools/build_rapidsnark.sh [--src DIR] [--ffiasm DIR] [--jobs N] OUTDIR
#
# What it does:
#  1. Installs, when missing, the Debian 12 packages rapidsnark needs (apt-get; as root or
#     through sudo): g++, cmake, git, nasm (its x86-64 field assembly), libgmp-dev (instead
#     of the GMP rapidsnark's build_gmp.sh downloads and builds), nlohmann-json3-dev
#     (instead of its depends/json submodule) and libomp-dev/libgomp (OpenMP runtime).
#     CI never builds rapidsnark, so these packages are not in tools/deps.sh.
#  2. Gets the source into OUTDIR/src:
#       --src DIR     a pre-extracted rapidsnark source tree (e.g. `git archive` of a
#                     mirror); copied, the original is not modified;
#       (default)     `git clone` of https://github.com/iden3/rapidsnark at the commit
#                     pinned below, with its ffiasm submodule.
#     rapidsnark's git submodules: depends/ffiasm is required (the prover's curve, MSM and
#     FFT code, C++ templates over the generated Fr/Fq in build/); --ffiasm DIR supplies an
#     ffiasm source tree (the repository root, with c/) when the source has none.
#     depends/json is replaced by Debian's nlohmann-json3-dev; depends/pistache and
#     depends/circom_runtime only serve the proof server and are not needed.
#  3. Configures rapidsnark's own CMake project for the x86_64 host with its assembly
#     field code (USE_ASM=ON: build/fr.asm and build/fq.asm assembled with nasm, the
#     BN254 fields only) and OpenMP, Release, and builds the `prover` target only.
#  4. Copies the binary to OUTDIR/prover and checks that it starts (usage message).
#
# Usage of the result: OUTDIR/prover circuit.zkey witness.wtns proof.json public.json
# rapidsnark proves BN254 (snarkjs "bn128") keys only: its Fr/Fq are generated for that
# curve and it rejects keys of other primes.
# Thread count: ffiasm's thread pool takes std::thread::hardware_concurrency(); OpenMP
# parts take OMP_NUM_THREADS. `czk bench prove` sets both the CPU affinity and
# OMP_NUM_THREADS of the child so that the thread counts of the provers match.
set -euo pipefail

RAPIDSNARK_URL=https://github.com/iden3/rapidsnark
RAPIDSNARK_COMMIT=81eddf1 # 2026-04-16, master at the time of writing
FFIASM_URL=https://github.com/iden3/ffiasm

usage() {
    echo "usage: tools/build_rapidsnark.sh [--src DIR] [--ffiasm DIR] [--jobs N] OUTDIR" \
        "(--help: details)" >&2
    exit 2
}

src="" ffiasm="" jobs=$(nproc 2>/dev/null || echo 2) out=""
while [ $# -gt 0 ]; do
    case "$1" in
    --src) [ $# -ge 2 ] || usage; src=$2; shift 2 ;;
    --ffiasm) [ $# -ge 2 ] || usage; ffiasm=$2; shift 2 ;;
    --jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
    -h | --help) sed -n '3,34p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "build_rapidsnark.sh: unknown option '$1'" >&2; usage ;;
    *) [ -z "$out" ] || usage; out=$1; shift ;;
    esac
done
[ -n "$out" ] || usage
case "$jobs" in '' | *[!0-9]*) echo "build_rapidsnark.sh: --jobs: '$jobs' is not a number" >&2; exit 2 ;; esac
[ "$(uname -m)" = x86_64 ] || { echo "build_rapidsnark.sh: x86_64 hosts only (asm field code)" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd -P)
out=$(realpath -m "$out")
case "$out/" in
"$repo"/*) echo "build_rapidsnark.sh: OUTDIR must be outside the repository ($repo)" >&2; exit 2 ;;
esac
if [ -n "$src" ]; then
    [ -f "$src/CMakeLists.txt" ] && [ -f "$src/src/main_prover.cpp" ] ||
        { echo "build_rapidsnark.sh: --src $src is not a rapidsnark source tree" >&2; exit 2; }
    src=$(cd "$src" && pwd -P)
fi
if [ -n "$ffiasm" ]; then
    [ -f "$ffiasm/c/alt_bn128.cpp" ] ||
        { echo "build_rapidsnark.sh: --ffiasm $ffiasm has no c/alt_bn128.cpp" >&2; exit 2; }
    ffiasm=$(cd "$ffiasm" && pwd -P)
fi

mkdir -p "$out"

# 1. Debian packages.
pkgs=(g++ cmake make git nasm libgmp-dev nlohmann-json3-dev libomp-dev)
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "build_rapidsnark.sh: installing ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# 2. Source.
rm -rf "$out/src" "$out/build"
if [ -n "$src" ]; then
    cp -a "$src" "$out/src"
else
    git clone -q "$RAPIDSNARK_URL" "$out/src"
    git -C "$out/src" checkout -q "$RAPIDSNARK_COMMIT"
    [ -n "$ffiasm" ] || git -C "$out/src" submodule update -q --init depends/ffiasm
fi
if [ -n "$ffiasm" ]; then
    rm -rf "$out/src/depends/ffiasm"
    mkdir -p "$out/src/depends"
    cp -a "$ffiasm" "$out/src/depends/ffiasm"
fi
if [ ! -f "$out/src/depends/ffiasm/c/alt_bn128.cpp" ]; then
    echo "build_rapidsnark.sh: no ffiasm in $out/src/depends/ffiasm: pass --ffiasm DIR" \
        "(a checkout of $FFIASM_URL)" >&2
    exit 2
fi
# depends/json: Debian's single header, where rapidsnark's include path expects it.
if [ ! -f "$out/src/depends/json/single_include/nlohmann/json.hpp" ]; then
    mkdir -p "$out/src/depends/json/single_include"
    rm -rf "$out/src/depends/json/single_include/nlohmann"
    cp -a /usr/include/nlohmann "$out/src/depends/json/single_include/nlohmann"
fi

# 3. Configure and build the prover (system GMP: the CMake project falls back to -lgmp
# when depends/gmp/package is absent). BUILD_TESTS stays at its default: with OFF their
# CMakeLists fails (it links test_public_size unconditionally); only `prover` is built.
cmake -S "$out/src" -B "$out/build" -DCMAKE_BUILD_TYPE=Release -DUSE_ASM=ON -DUSE_OPENMP=ON \
    >"$out/cmake.log" 2>&1 ||
    { tail -n 30 "$out/cmake.log" >&2; echo "build_rapidsnark.sh: cmake failed ($out/cmake.log)" >&2; exit 1; }
cmake --build "$out/build" -j"$jobs" --target prover >"$out/build.log" 2>&1 ||
    { tail -n 30 "$out/build.log" >&2; echo "build_rapidsnark.sh: build failed ($out/build.log)" >&2; exit 1; }

# 4. Result.
cp "$out/build/src/prover" "$out/prover"
set +e
"$out/prover" >/dev/null 2>"$out/usage.txt"
set -e
grep -q "Usage: prover" "$out/usage.txt" ||
    { echo "build_rapidsnark.sh: $out/prover does not run" >&2; exit 1; }
{
    echo "rapidsnark: $(git -C "$out/src" rev-parse HEAD 2>/dev/null || echo "source tree $src")"
    echo "ffiasm: $(git -C "$out/src/depends/ffiasm" rev-parse HEAD 2>/dev/null ||
        echo "${ffiasm:-submodule}")"
    echo "built: $(date -u '+%F %T UTC') on $(uname -srm), $(g++ --version | head -n 1)"
} >"$out/BUILD-INFO"
echo "build_rapidsnark.sh: built $out/prover"
cat "$out/BUILD-INFO"
