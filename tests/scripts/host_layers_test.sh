#!/usr/bin/env bash
# Tests that each host layer (host/CMakeLists.txt) uses only the layers below it: every
# platform::host symbol a layer's library leaves undefined must be defined in that library or in
# one it may link, and no source or public header of a layer includes a higher layer's headers. A static library links nothing itself, so without this check a call upwards
# would only fail in an executable that lacks the upper layer (platform-worker).
#
#   tests/scripts/host_layers_test.sh name=path/to/libhost_<name>.a ...
#
# The libraries may come in any order; the allowed links are written below and must match
# host/CMakeLists.txt. As a control, host_server must be seen using host_http (server.cpp starts
# the HTTP server): a checker that sees no reference across layers proves nothing.
set -euo pipefail

declare -A may_use=(
    [outbound]=""
    [core]="outbound"
    [isolation]="core outbound"
    [mcp]="core outbound"
    [acme]=""
    [http]="mcp acme core outbound"
    [xmpp]="core outbound"
    [smtp]="http mcp acme core outbound"
    [server]="smtp http isolation mcp acme xmpp core outbound"
)
declare -A lib
for arg in "$@"; do
    name=${arg%%=*}
    path=${arg#*=}
    [[ -n ${may_use[$name]+x} ]] || {
        echo "FAIL: unknown layer '$name' (one of ${!may_use[*]})"
        exit 1
    }
    [[ -f $path ]] || {
        echo "FAIL: $path is missing"
        exit 1
    }
    lib[$name]=$path
done
for name in "${!may_use[@]}"; do
    [[ -n ${lib[$name]+x} ]] || {
        echo "FAIL: no library given for layer $name"
        exit 1
    }
done

scratch=$(mktemp -d "${TMPDIR:-/tmp}/host-layers-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
# The host's own symbols (namespace platform::host: _ZN8platform4host, _ZNK8platform4host...).
own='^_ZN[KVR]*8platform4host'
for name in "${!lib[@]}"; do
    nm -g --defined-only "${lib[$name]}" 2>/dev/null | awk 'NF == 3 {print $3}' | grep -E "$own" |
        sort -u >"$scratch/$name.defined" || true
    nm -g --undefined-only "${lib[$name]}" 2>/dev/null | awk '{print $NF}' | grep -E "$own" |
        sort -u >"$scratch/$name.undefined" || true
done

failures=0
for name in "${!lib[@]}"; do
    # Undefined here and not defined in this library or one it may use.
    cat "$scratch/$name.defined" >"$scratch/$name.reach"
    for below in ${may_use[$name]}; do cat "$scratch/$below.defined" >>"$scratch/$name.reach"; done
    sort -u -o "$scratch/$name.reach" "$scratch/$name.reach"
    comm -23 "$scratch/$name.undefined" "$scratch/$name.reach" >"$scratch/$name.missing"
    while read -r sym; do
        where=""
        for other in "${!lib[@]}"; do
            grep -qxF -- "$sym" "$scratch/$other.defined" && where+=" host_$other"
        done
        [[ -n $where ]] || continue  # defined outside the host (another library links it)
        echo "FAIL: host_$name uses $(c++filt -- "$sym"), defined in${where}: not below it"
        failures=$((failures + 1))
    done <"$scratch/$name.missing"
done

# Headers too: a source or public header of a layer includes only its own layer's public headers
# and those of the layers below (an inline function in a higher header would link without a trace
# in the libraries).
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
declare -A layer_of_dir=([core]=core [auth]=core [payment]=core [plugins]=core [outbound]=outbound
    [isolation]=isolation [mcp]=mcp [acme]=acme [http]=http [xmpp]=xmpp [smtp]=smtp [runtime]=server)
check_includes() {  # check_includes <layer> <files...>
    local layer=$1 file area
    shift
    for file in "$@"; do
        while read -r area; do
            [[ $area == "$layer" || " ${may_use[$layer]} " == *" $area "* ]] && continue
            echo "FAIL: ${file#"$top"/} (host_$layer) includes platform/host/$area/: not below it"
            failures=$((failures + 1))
        done < <(sed -n 's|^#include <platform/host/\([a-z_]*\)/.*|\1|p' "$file" | sort -u)
    done
}
checked=0
for dir in "${!layer_of_dir[@]}"; do
    layer=${layer_of_dir[$dir]}
    mapfile -t files < <(find "$top/host/src/$dir" "$top/host/include/platform/host/$layer" \
        -name '*.[ch]pp' 2>/dev/null)
    checked=$((checked + ${#files[@]}))
    check_includes "$layer" "${files[@]}"
done
check_includes server "$top/host/src/server.cpp"
((checked > 50)) || {
    echo "FAIL: only $checked host sources and headers found under $top/host"
    failures=$((failures + 1))
}

comm -12 "$scratch/server.undefined" "$scratch/http.defined" | grep -q . ||
    {
        echo "FAIL: host_server is not seen using host_http: the check cannot see references"
        failures=$((failures + 1))
    }

if ((failures)); then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok: every host layer uses only the layers below it ($checked sources and headers read)"
