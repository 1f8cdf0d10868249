#!/usr/bin/env bash
# `npm test`: everything CI checks, on a fresh machine too. Installs what is missing, starts PostgreSQL,
# NATS and the S3 emulator, then lint, type-check, and the e2e tests with the unit and integration tests
# beside them (the e2e tests start the apps as separate processes against those services and a freshly
# migrated database).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export NX_NO_CLOUD=true NX_DAEMON=false CHECKPOINT_DISABLE=1 CI="${CI:-true}"

step() { echo; echo "== $* == (at ${SECONDS} s)"; }

step "prepare"
# The install and the build must leave every tracked file as it was (a lockfile that misses packages is
# rewritten by `npm install`, and then a fresh clone no longer installs what was tested).
tracked() { git diff 2> /dev/null | sha256sum; }
before=$(tracked)
bash tools/ci/prepare.sh
if [ "$(tracked)" != "$before" ]; then
  echo "prepare changed tracked files (commit what it wrote):" >&2
  git diff --stat >&2
  exit 1
fi

step "services (PostgreSQL, NATS, S3 emulator), Chromium and helm"
bash tools/services/ensure.sh postgres nats s3 chromium helm
set -a
# shellcheck disable=SC1091
. tmp/services.env
set +a

step "lint and format"
npx prettier --check . > /dev/null || { npx prettier --check . | tail -20; exit 1; }
npx nx show projects > /dev/null # builds the project graph the module-boundary rule reads
npx eslint --max-warnings=0 --cache --cache-location tmp/eslintcache .

step "type-check"
npx tsc -p tsconfig.json --noEmit
npx tsc -p apps/dashboard/web/tsconfig.json # the dashboard's front end: browser code, built by Vite

step "dependency audit (production tree, from package-lock.json; says so when the registry is unreachable)"
node tools/ci/audit.mjs

step "published packages (packed, installed beside @livekit/agents and ai, type-checked and run)"
bash tools/packages-check/check.sh

step "e2e tests, and beside them the unit and integration tests"
# The unit and integration specs never reach the e2e stack: they use services of their own (scratch
# databases and buckets, NATS subjects under a prefix of their own, free ports). So they run in a second Jest
# beside the e2e specs, which run one after another on the shared stack, and CI takes the longer of the two.
# Their report follows the e2e one.
side_log=tmp/jest-unit-integration.log
npx jest --ci --selectProjects=unit --selectProjects=integration > "$side_log" 2>&1 &
side=$!
e2e=0
npx jest --ci --selectProjects=e2e || e2e=$?
side_rc=0
wait "$side" || side_rc=$?
step "unit and integration tests (they ran beside the e2e tests)"
cat "$side_log"
if [ "$e2e" -ne 0 ] || [ "$side_rc" -ne 0 ]; then
  echo; echo "== failed: e2e exit ${e2e}, unit and integration exit ${side_rc} (at ${SECONDS} s) =="
  exit 1
fi
echo; echo "== all passed (at ${SECONDS} s) =="
