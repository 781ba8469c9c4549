# expect_output.sh — sourced by the tests of the repository's checking scripts: one verdict on a
# run of the checker (its exit status and what it printed), counted in `failures`, and the closing
# summary.
#
#   source "$here/expect_output.sh"
#   out=$(checker ...) || rc=$?; expect_output NAME WANTED_EXIT "$rc" "$out" PATTERN...
#   report_failures

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

# report_failures — the summary line; exits 1 when anything failed.
report_failures() {
    if ((failures)); then
        echo "$failures failure(s)"
        exit 1
    fi
    echo "all passed"
}
