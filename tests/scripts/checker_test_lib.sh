# shellcheck shell=bash disable=SC2154  # checker: set by the sourcing test
# checker_test_lib.sh — sourced by the tests of the repository's checking scripts
# (scripts/check-build-files, scripts/check-plugin-includes): a scratch folder for the trees they
# make, removed at exit; the checker run on one of them, its verdict counted in `failures`; and
# the closing summary. The caller sets `checker` (the command, an array: an interpreter may come
# first) before sourcing.
#
#   checker=(python3 "$top/scripts/check-plugin-includes")
#   source "$here/checker_test_lib.sh"
#   file one plugins/a/a.cpp '...'; expect one 1 "plugins/a/a.cpp:1"
#   report_failures

scratch=$(mktemp -d "${TMPDIR:-/tmp}/$(basename "${checker[-1]}").XXXXXX")
trap 'rm -rf "$scratch"' EXIT

failures=0

# expect_output NAME WANTED_EXIT EXIT OUTPUT PATTERN... — ok when EXIT is WANTED_EXIT and OUTPUT
# holds every PATTERN (grep -F); else prints why with OUTPUT and counts one failure.
expect_output() {
    local name=$1 want=$2 rc=$3 out=$4 p
    shift 4
    if ((rc != want)); then
        echo "FAIL $name: exit $rc, wanted $want"$'\n'"$out"
        failures=$((failures + 1))
        return
    fi
    for p in "$@"; do
        if ! grep -qF -- "$p" <<<"$out"; then
            echo "FAIL $name: output lacks '$p'"$'\n'"$out"
            failures=$((failures + 1))
            return
        fi
    done
    echo "ok   $name"
}

# expect NAME WANTED_EXIT PATTERN... — runs the checker on $scratch/NAME; the output must contain
# every PATTERN (grep -F).
expect() {
    local name=$1 want=$2 out rc=0
    shift 2
    out=$("${checker[@]}" --root "$scratch/$name" 2>&1) || rc=$?
    expect_output "$name" "$want" "$rc" "$out" "$@"
}

# report_failures — the summary line; exits 1 when anything failed.
report_failures() {
    if ((failures)); then
        echo "$failures failure(s)"
        exit 1
    fi
    echo "all passed"
}
