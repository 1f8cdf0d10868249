#!/usr/bin/env bash
# `npm test`: everything CI checks, on a fresh machine too. Installs what is missing, starts PostgreSQL,
# NATS and the S3 emulator, then lint, type-check, the unit and integration tests, and the e2e tests in two
# shards side by side (the e2e tests start the apps as separate processes against those services and a freshly
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

step "format, lint and type-check, side by side"
# Each is one thread (ESLint's own threads each build the type-checked program again: slower on two cores), so
# the format check and the type-check run beside the lint; each one's output is shown only when it fails.
mkdir -p tmp/ci
npx prettier --check . > tmp/ci/prettier.log 2>&1 &
prettier=$!
{
  npx tsc -p tsconfig.json --noEmit
  npx tsc -p apps/dashboard/web/tsconfig.json # the dashboard's front end: browser code, built by Vite
} > tmp/ci/tsc.log 2>&1 &
tsc=$!
npx nx show projects > /dev/null # builds the project graph the module-boundary rule reads
lint=0
npx eslint --max-warnings=0 --cache --cache-location tmp/eslintcache . || lint=1
wait "$prettier" || { echo "format check failed:"; tail -20 tmp/ci/prettier.log; lint=1; }
wait "$tsc" || { echo "type-check failed:"; cat tmp/ci/tsc.log; lint=1; }
[ "$lint" -eq 0 ]

step "dependency audit (production tree, from package-lock.json; says so when the registry is unreachable)"
node tools/ci/audit.mjs

step "published packages (packed, installed beside @livekit/agents and ai, type-checked and run)"
bash tools/packages-check/check.sh

step "unit and integration tests"
# They use services of their own (scratch databases and buckets, NATS subjects under a prefix of their own, free
# ports), never an e2e stack. They run first, alone: run beside the e2e shards, a third Jest on two cores put the
# shards' longest specs (the browser, the slow readers) past their bounds on a slow day's VM.
# Alone, they take both cores (Jest's default leaves one free: 383 s against 203 s on one day's machine).
# --forceExit: a spec that fails while a stream or connection is open (a test that ran into its bound) must fail
# the run, not hold its Jest open for ever.
mkdir -p tmp/e2e
failed=()
npx jest --ci --forceExit --maxWorkers=2 --selectProjects=unit --selectProjects=integration \
  > tmp/jest-unit-integration.log 2>&1 ||
  failed+=(tmp/jest-unit-integration.log)

step "e2e tests in ${E2E_SHARDS:=2} shards"
# The e2e specs run one after another on a stack; each shard is a Jest with a stack of its own (E2E_SHARD
# names its state file and logs), given about the same recorded seconds of specs (tools/ci/e2e-seconds.json).
pids=()
logs=()
for shard in $(seq 1 "$E2E_SHARDS"); do
  logs+=("tmp/jest-e2e-${shard}.log")
  E2E_SHARD=$shard npx jest --ci --forceExit --selectProjects=e2e --shard="${shard}/${E2E_SHARDS}" \
    --json --outputFile="tmp/e2e/results-${shard}.json" > "tmp/jest-e2e-${shard}.log" 2>&1 &
  pids+=($!)
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || failed+=("${logs[$i]}")
done
for log in tmp/jest-unit-integration.log "${logs[@]}"; do
  step "report: ${log}"
  cat "$log"
done
# What each e2e spec took in this run, for the next split (commit it when the split drifts).
node tools/ci/e2e-seconds.mjs tmp/e2e/results-*.json > tmp/e2e/seconds.json || true
if [ "${#failed[@]}" -ne 0 ]; then
  echo; echo "== failed: ${failed[*]} (at ${SECONDS} s) =="
  exit 1
fi
echo; echo "== all passed (at ${SECONDS} s) =="
