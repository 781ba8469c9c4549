#!/bin/sh
# ccache_launch.sh <ccache> <compiler> <args...> — the compiler launcher of cmake/ccache.cmake.
#
# Every compile goes through ccache unchanged, except one that writes a precompiled header
# (`-o <name>.gch`), which gets two extra steps so that the header and everything compiled with it
# hit the cache from any checkout:
#
#   1. Before: the old <name>.gch and <name>.gch.sum are removed. The header's compile includes its
#      own header (`-include <name>`), so with an old .gch next to it ccache would hash that file
#      into the key, and the key would depend on what the folder built last.
#   2. After: <name>.gch.sum is written: the SHA-256 of the header's preprocessed text (line
#      markers kept, so a moved line changes it too) and of this compile's arguments, both with
#      the checkout's path removed. With
#      pch_external_checksum (CCACHE_PCH_EXTSUM=1), ccache hashes this file instead of the .gch in every
#      compile that uses the header. The .gch itself holds the checkout's paths, so its bytes differ
#      between folders even when its content is the same; the checksum does not.
#
# CCACHE_BASEDIR (set by the launcher's environment) is the checkout's path.
set -e
out=
prev=
for arg in "$@"; do
    [ "$prev" = "-o" ] && out=$arg
    prev=$arg
done
case $out in
    *.gch) ;;
    *) exec "$@" ;;
esac

rm -f "$out" "$out.sum"
"$@"

# The same compile, preprocessing only, to stdout: without ccache, -o <file>, -c and the
# dependency-file options.
shift  # ccache
args=
skip=0
for arg in "$@"; do
    if [ $skip = 1 ]; then
        skip=0
        continue
    fi
    case $arg in
        -o | -MF | -MT | -MQ) skip=1 ;;
        -c | -MD | -MMD) ;;
        *) args="$args '$(printf '%s' "$arg" | sed "s/'/'\\\\''/g")'" ;;
    esac
done
base=${CCACHE_BASEDIR:-/nonexistent}
{
    printf '%s\n' "$args"
    eval "set -- $args"
    "$@" -E -o -
} | sed "s|$base||g" | sha256sum | cut -d' ' -f1 >"$out.sum.tmp"
mv "$out.sum.tmp" "$out.sum"
