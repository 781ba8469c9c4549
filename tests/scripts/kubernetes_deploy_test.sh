#!/usr/bin/env bash
# Tests the kubernetes profile's deployment files (profiles/kubernetes/; decision 75) without helm,
# a cluster or a container engine:
#   1. yamllint --strict (Debian's yamllint, scripts/deps.sh) with profiles/kubernetes/.yamllint on
#      the plain manifests, Chart.yaml and values.yaml; and on a copy with a duplicated key, which
#      it must refuse.
#   2. tests/e2e/kubernetes_check.mjs check: each manifest against the Kubernetes schemas
#      (kubernetes-models), the chart rendered and compared with the manifests, the profile text,
#      the Dockerfile (see that file's header).
#   3. The same checks must fail on broken copies: a manifest whose containerPort is a string
#      (schema), and a chart whose replicas differ from the manifests' (agreement).
#   4. profiles/kubernetes/entrypoint.sh refuses a server start without a 64-hex-digit
#      PLATFORM_CONFIG_SECRET_KEY (exit 78) and otherwise runs `platform` with the same arguments.
#   5. With a built `platform` (argument 1) and dpkg: profiles/kubernetes/runtime-packages.sh names
#      the Debian packages of its libraries (what the image's runtime stage installs).
# Needs tests/e2e/node_modules (scripts/e2e-deps.sh) and yamllint; fails naming them when missing.
#
#   tests/scripts/kubernetes_deploy_test.sh [path/to/platform]
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
kube=$top/profiles/kubernetes
node=$top/tests/e2e/node_modules/.bin/node
check=$top/tests/e2e/kubernetes_check.mjs
binary=${1:-}

failures=0
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}
command -v yamllint >/dev/null 2>&1 || {
    echo "FAIL: yamllint is not installed (Debian's yamllint: scripts/deps.sh installs it)"
    exit 1
}
[[ -x $node && -d $top/tests/e2e/node_modules/kubernetes-models ]] || {
    echo "FAIL: tests/e2e/node_modules lacks node or kubernetes-models: run scripts/e2e-deps.sh"
    exit 1
}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kubernetes-deploy-test.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# 1. yamllint, from the folder whose .yamllint it reads (its `ignore` leaves chart/templates out).
if out=$(cd "$kube" && yamllint --strict -c .yamllint . 2>&1); then
    echo "ok   yamllint --strict: manifests, Chart.yaml, values.yaml ($(cd "$kube" && find manifests chart -name '*.yaml' -not -path 'chart/templates/*' | wc -l) files)"
else
    fail "yamllint:"$'\n'"$out"
fi
cp -r "$kube" "$scratch/lint"
sed -i 's/^  replicas: 2$/  replicas: 2\n  replicas: 3/' "$scratch/lint/manifests/deployment.yaml"
if out=$(cd "$scratch/lint" && yamllint --strict -c .yamllint . 2>&1); then
    fail "yamllint accepted a manifest with a duplicated key"
elif grep -q 'duplication of key "replicas"' <<<"$out"; then
    echo "ok   yamllint refuses a manifest with a duplicated key"
else
    fail "yamllint failed on the duplicated key for another reason:"$'\n'"$out"
fi

# 2. Schemas, chart against manifests, profile, Dockerfile.
if out=$("$node" "$check" check "$top" 2>&1); then
    echo "ok   kubernetes_check.mjs: $(grep -c '^ok ' <<<"$out") checks passed"
    grep '^SKIP' <<<"$out" || true
else
    fail "kubernetes_check.mjs check:"$'\n'"$(grep -v '^ok ' <<<"$out")"
fi

# 3. Broken copies must fail, naming what is wrong.
sed 's/containerPort: 8080/containerPort: "8080"/' "$kube/manifests/deployment.yaml" >"$scratch/broken-deployment.yaml"
if out=$("$node" "$check" validate "$scratch/broken-deployment.yaml" 2>&1); then
    fail "the schema check accepted a Deployment whose containerPort is a string"
elif grep -q 'containerPort must be integer' <<<"$out"; then
    echo "ok   the schema check refuses a Deployment whose containerPort is a string"
else
    fail "the schema check failed on the broken Deployment for another reason:"$'\n'"$out"
fi
if "$node" "$check" validate "$kube/manifests/deployment.yaml" >/dev/null 2>&1; then
    echo "ok   the schema check passes the unbroken Deployment alone"
else
    fail "the schema check refuses the unbroken Deployment alone"
fi
cp -r "$kube" "$scratch/disagree"
sed -i 's/^replicaCount: 2$/replicaCount: 3/' "$scratch/disagree/chart/values.yaml"
if out=$("$node" "$check" check "$top" --kube "$scratch/disagree" 2>&1); then
    fail "the agreement check accepted values.yaml with replicaCount 3 against manifests with 2"
elif grep -q 'replicas: manifests 2 vs values.replicaCount 3' <<<"$out"; then
    echo "ok   the agreement check refuses values.yaml whose replicaCount differs from the manifests"
else
    fail "the agreement check failed on replicaCount for another reason:"$'\n'"$(grep -v '^ok ' <<<"$out")"
fi
printf '# a different profile\nname: kubernetes\n' >"$scratch/other-profile.yaml"
if out=$("$node" "$check" check "$top" --profile "$scratch/other-profile.yaml" 2>&1); then
    fail "the profile check accepted a ConfigMap that differs from the profile file"
elif grep -q 'run profiles/kubernetes/sync-profile' <<<"$out"; then
    echo "ok   the profile check refuses a ConfigMap that differs from the profile file"
else
    fail "the profile check failed for another reason:"$'\n'"$(grep -v '^ok ' <<<"$out")"
fi

# 4. The image's entrypoint, with a stand-in `platform` that prints its arguments.
mkdir -p "$scratch/bin"
printf '#!/bin/sh\necho "platform $*"\n' >"$scratch/bin/platform"
chmod +x "$scratch/bin/platform"
entry() { env -u PLATFORM_CONFIG_SECRET_KEY PATH="$scratch/bin:$PATH" "$@" sh "$kube/entrypoint.sh" server --profile kubernetes 2>&1; }
key=$(printf '%064d' 7)
for case in "unset|" "placeholder|PLATFORM_CONFIG_SECRET_KEY=REPLACE-with-openssl-rand-hex-32" \
    "63 digits|PLATFORM_CONFIG_SECRET_KEY=${key:1}"; do
    name=${case%%|*}
    setting=${case#*|}
    rc=0
    out=$(entry ${setting:+"$setting"}) || rc=$?
    if ((rc == 78)) && grep -q 'openssl rand -hex 32' <<<"$out"; then
        echo "ok   entrypoint: key $name → exit 78, saying how to make one"
    else
        fail "entrypoint: key $name → exit $rc: $out"
    fi
done
out=$(entry PLATFORM_CONFIG_SECRET_KEY="$key") || true
[[ $out == "platform server --profile kubernetes" ]] && echo "ok   entrypoint: a 64-hex-digit key → platform server --profile kubernetes" ||
    fail "entrypoint with a good key: $out"
out=$(env -u PLATFORM_CONFIG_SECRET_KEY PATH="$scratch/bin:$PATH" sh "$kube/entrypoint.sh" admin reset-secret 2>&1) || true
[[ $out == "platform admin reset-secret" ]] && echo "ok   entrypoint: other commands pass through without a key" ||
    fail "entrypoint: admin reset-secret → $out"

# 5. The runtime stage's package list, from a built host.
if [[ -n $binary && -x $binary ]] && command -v dpkg-query >/dev/null 2>&1; then
    if out=$(bash "$kube/runtime-packages.sh" "$binary" 2>&1) && grep -qx 'libstdc++6' <<<"$out" &&
        grep -q '^libpistache' <<<"$out"; then
        echo "ok   runtime-packages.sh $(basename "$binary"): $(wc -l <<<"$out") packages, libstdc++6 and libpistache among them"
    else
        fail "runtime-packages.sh $binary:"$'\n'"$out"
    fi
else
    echo "SKIP runtime-packages.sh: no built platform given, or no dpkg-query"
fi

if ((failures)); then
    echo "FAIL kubernetes_deploy_test ($failures)"
    exit 1
fi
echo "PASS kubernetes_deploy_test"
