#!/usr/bin/env bash
# Prints, one a line and sorted, the Debian packages holding the shared libraries that the ELF
# files under the given folders (or the given files) load — what the host image's runtime stage
# installs (profiles/kubernetes/Dockerfile). ldd resolves each file's libraries as the loader
# would; dpkg -S names each library's package. Fails naming the file when a library is not found,
# or naming the library when no package holds it (a library built here, not from Debian).
#
#   profiles/kubernetes/runtime-packages.sh /opt/platform
set -euo pipefail

(($# > 0)) || {
    echo "usage: runtime-packages.sh FOLDER|FILE..." >&2
    exit 2
}
libs=()
# Executables and shared objects only (not headers, static libraries or profiles).
while IFS= read -r -d '' file; do
    out=$(ldd "$file" 2>&1) || continue # not a dynamic ELF file: nothing to load
    if grep -q 'not found' <<<"$out"; then
        echo "runtime-packages: $file: $(grep 'not found' <<<"$out" | tr -s ' \t' ' ')" >&2
        exit 1
    fi
    while read -r lib; do libs+=("$lib"); done < <(awk '$2 == "=>" && $3 ~ /^\// { print $3 }' <<<"$out")
done < <(find "$@" -type f \( -perm -u+x -o -name '*.so' -o -name '*.so.*' \) -print0)
((${#libs[@]} > 0)) || {
    echo "runtime-packages: no dynamic ELF files in $*" >&2
    exit 1
}
mapfile -t libs < <(printf '%s\n' "${libs[@]}" | sort -u)

# Debian 12 merged /lib into /usr/lib, but dpkg knows each file by the path its package used: ask
# about the path ldd gave, its real path, and each with or without /usr, all in one dpkg-query.
candidates() {
    local real
    real=$(realpath -- "$1")
    printf '%s\n' "$1" "$real" "${1#/usr}" "/usr$1" "${real#/usr}" "/usr$real"
}
declare -A owner=()
while IFS= read -r line; do
    owner[${line#*: }]=${line%%:*}
done < <(for lib in "${libs[@]}"; do candidates "$lib"; done | sort -u | xargs dpkg-query -S 2>/dev/null || true)

declare -A packages=()
for lib in "${libs[@]}"; do
    found=""
    while read -r c; do
        [[ -n ${owner[$c]:-} ]] && found=${owner[$c]} && break
    done < <(candidates "$lib")
    if [[ -z $found ]]; then
        echo "runtime-packages: no Debian package holds $lib" >&2
        exit 1
    fi
    packages[$found]=1
done
printf '%s\n' "${!packages[@]}" | sort
