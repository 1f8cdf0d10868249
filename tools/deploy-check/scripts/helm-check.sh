#!/usr/bin/env bash
# Lints and renders deploy/helm/router with a real helm binary, for machines that have one (the development
# machines do not: there the unit specs in ../src check the chart structurally). Usage:
#   HELM=/path/to/helm bash tools/deploy-check/scripts/helm-check.sh
set -euo pipefail

HELM="${HELM:-helm}"
if ! command -v "$HELM" >/dev/null 2>&1; then
  echo "helm-check: no helm binary ('$HELM'); set HELM=/path/to/helm" >&2
  exit 2
fi
chart="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/deploy/helm/router"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }

# expect_kinds LABEL "Deployment=4 Service=4 ..." [helm template args...]
expect_kinds() {
  local label="$1" want="$2"
  shift 2
  if ! "$HELM" template rel "$chart" "$@" >"$work/out.yaml" 2>"$work/err"; then
    bad "$label (render failed)"
    cat "$work/err"
    return
  fi
  local pair kind count got
  for pair in $want; do
    kind="${pair%%=*}"
    count="${pair##*=}"
    got="$(grep -c "^kind: ${kind}\$" "$work/out.yaml" || true)"
    if [ "$got" != "$count" ]; then
      bad "$label ($kind: want $count, got $got)"
      return
    fi
  done
  ok "$label"
}

# expect_refusal LABEL PATTERN [helm template args...]: the chart must refuse, naming PATTERN.
expect_refusal() {
  local label="$1" pattern="$2"
  shift 2
  if "$HELM" template rel "$chart" "$@" >/dev/null 2>"$work/err"; then
    bad "$label (rendered, should have been refused)"
  elif grep -q -- "$pattern" "$work/err"; then
    ok "$label"
  else
    bad "$label (refused for another reason)"
    cat "$work/err"
  fi
}

if "$HELM" lint --strict "$chart" >"$work/lint" 2>&1; then ok "helm lint --strict"; else bad "helm lint --strict"; cat "$work/lint"; fi
expect_kinds "defaults: four apps, the migration hook and the ConfigMap" \
  "Deployment=4 Service=4 Job=1 ConfigMap=1 Secret=0"
expect_kinds "vendor-sim enabled: five apps" "Deployment=5 Service=5" --set apps.vendor-sim.enabled=true
expect_kinds "migration disabled" "Job=0 Deployment=4" --set migration.enabled=false
expect_refusal "replicas 0" "replicas" --set apps.native-api.replicas=0
expect_refusal "port out of range" "port" --set apps.edge-gateway.port=70000
expect_refusal "unknown key" "replica" --set apps.native-api.replica=2
expect_refusal "missing image repository" "repository" --set apps.cache-service.image.repository=null
expect_refusal "admin API off loopback without a token" "ADMIN_TOKEN" --set apps.native-api.env.ADMIN_HOST=0.0.0.0
expect_refusal "a variable set twice" "set twice" \
  --set 'apps.native-api.extraEnv[0].name=ADMIN_PORT' --set-string 'apps.native-api.extraEnv[0].value=1'

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
