#!/usr/bin/env bash
# Stops the s3rver that tools/services/ensure.sh started (by its pid file), and nothing else.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PID_FILE="$ROOT/tmp/s3rver/s3rver.pid"

log() { printf '[services] %s\n' "$*"; }

if [[ ! -f $PID_FILE ]]; then
  log "s3: no pid file ($PID_FILE): nothing started by ensure.sh to stop"
  exit 0
fi
pid=$(cat "$PID_FILE")
# The pid may have been reused since: only signal it if it is still our s3rver.
if [[ ! $pid =~ ^[0-9]+$ ]] || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 's3rver/bin/s3rver.js'; then
  log "s3: pid $pid is not running s3rver any more; removing the stale pid file"
  rm -f "$PID_FILE"
  exit 0
fi
kill "$pid"
for _ in $(seq 1 50); do
  [[ -d /proc/$pid ]] || break
  sleep 0.1
done
if [[ -d /proc/$pid ]]; then
  printf '[services] FAILED: s3: pid %s did not stop within 5 s\n' "$pid" >&2
  exit 1
fi
rm -f "$PID_FILE"
log "s3: stopped (pid $pid)"
