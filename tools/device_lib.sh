# SPDX-License-Identifier: Apache-2.0
#
# Sourced by the tools/device_*.sh scripts (runs on the GPU machine): the timed, logged step.
#   O        folder of the logs (one NAME.log per step)
#   summary  file the one-line results are appended to
#   STEP_PATTERN  extended regex of the log line that a step's summary line quotes (the last match)
#   STEP_WIDTH    width of the name column (default 14)
# step NAME TIMEOUT CMD...: runs CMD under `timeout TIMEOUT`, its output in $O/NAME.log, then
# prints "NAME rc=RC MSms <last matching line>" and appends it to $summary.
step() {
    local name="$1" t="$2"
    shift 2
    local t0
    t0=$(date +%s%N)
    timeout "$t" "$@" >"$O/$name.log" 2>&1
    local rc=$?
    local dt=$((($(date +%s%N) - t0) / 1000000))
    printf "%-${STEP_WIDTH:-14}s rc=%-3s %7sms  %s\n" "$name" "$rc" "$dt" \
        "$(grep -E "${STEP_PATTERN:-PASSED|FAILED|passed|skipped}" "$O/$name.log" | tail -1 |
            sed -e 's/scratch_bytes=[0-9]* //' -e 's/bases_ms=[0-9.]* //' | cut -c1-250)" | tee -a "$summary"
}

# device_setup DIR SUMMARY_NAME: unpacks DIR.tar.xz into DIR when DIR is absent, makes its
# binaries executable, puts DIR on LD_LIBRARY_PATH (libcmocka, libjansson travel in it), creates
# $O and an empty summary file $O/SUMMARY_NAME (sets summary).
device_setup() {
    local b="$1"
    mkdir -p "$O"
    if [ ! -d "$b" ] && [ -f "$b.tar.xz" ]; then
        mkdir -p "$b" && tar -xJf "$b.tar.xz" -C "$b"
    fi
    chmod +x "$b"/czk* "$b"/test_* 2>/dev/null
    export LD_LIBRARY_PATH="$b${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    summary="$O/$2"
    : >"$summary"
}
