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
cd "$(dirname "${BASH_SOURCE[0]}")/../../.."
chart="$PWD/deploy/helm/router"
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

# The mirror apps in values.yaml (generated from the registry's mirrors): one Deployment and one Service each.
mirror_names="$(node -e 'const { parse } = require("yaml");
const values = parse(require("fs").readFileSync(process.argv[1], "utf8"));
console.log(Object.keys(values.mirrors).join(" "))' "$chart/values.yaml")"
mirrors=$(echo $mirror_names | wc -w)
first_mirror="${mirror_names%% *}"
apps=$((4 + mirrors))

# expect_mirror_urls LABEL COUNT [helm template args...]: the gateway gets COUNT MIRROR_VENDOR_X_URL variables.
expect_mirror_urls() {
  local label="$1" want="$2"
  shift 2
  "$HELM" template rel "$chart" --show-only templates/deployment.yaml "$@" >"$work/out.yaml"
  local got
  got="$(grep -c -- '- name: MIRROR_VENDOR_[A-J]_URL$' "$work/out.yaml" || true)"
  if [ "$got" = "$want" ]; then ok "$label"; else bad "$label (want $want, got $got)"; fi
}

if "$HELM" lint --strict "$chart" >"$work/lint" 2>&1; then ok "helm lint --strict"; else bad "helm lint --strict"; cat "$work/lint"; fi
expect_kinds "defaults: four apps, $mirrors mirror app(s), the migration hook and the ConfigMap" \
  "Deployment=$apps Service=$apps Job=1 ConfigMap=1 Secret=0"
expect_kinds "vendor-sim enabled: one app more" "Deployment=$((apps + 1)) Service=$((apps + 1))" \
  --set apps.vendor-sim.enabled=true
expect_kinds "migration disabled" "Job=0 Deployment=$apps" --set migration.enabled=false
expect_mirror_urls "the gateway gets each mirror's URL" "$mirrors"
if [ -n "$first_mirror" ]; then
  expect_kinds "$first_mirror disabled: one app fewer" "Deployment=$((apps - 1)) Service=$((apps - 1))" \
    --set "mirrors.$first_mirror.enabled=false"
  expect_mirror_urls "$first_mirror disabled: its URL not given" "$((mirrors - 1))" \
    --set "mirrors.$first_mirror.enabled=false"
fi
expect_refusal "replicas 0" "replicas" --set apps.native-api.replicas=0
expect_refusal "port out of range" "port" --set apps.edge-gateway.port=70000
expect_refusal "unknown key" "replica" --set apps.native-api.replica=2
expect_refusal "missing image repository" "repository" --set apps.cache-service.image.repository=null
expect_refusal "admin API off loopback without a token" "ADMIN_TOKEN" --set apps.native-api.env.ADMIN_HOST=0.0.0.0
expect_refusal "a variable set twice" "set twice" \
  --set 'apps.native-api.extraEnv[0].name=ADMIN_PORT' --set-string 'apps.native-api.extraEnv[0].value=1'
for letter in a b c d e f g h i j; do
  case " $mirror_names " in
    *" mirror-vendor-$letter "*) ;;
    *)
      expect_refusal "a mirror the registry does not have (mirror-vendor-$letter)" "missing properties" \
        --set "mirrors.mirror-vendor-$letter.replicas=2"
      break
      ;;
  esac
done
expect_refusal "a mirror name that is not one" "mirror-vendor-" --set mirrors.vendor-c.replicas=2

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
