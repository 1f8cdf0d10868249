#!/usr/bin/env bash
# Makes a checkout runnable: installs npm packages when package-lock.json changed since the last install,
# generates the Prisma client (offline) and compiles everything to dist/. Used by `npm start` and `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export NX_NO_CLOUD=true NX_DAEMON=false CHECKPOINT_DISABLE=1

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # package-lock.json lists every platform's optional packages (e.g. each @swc/core-<platform>); `npm test`
  # fails when this install rewrites it, so what a fresh clone installs is what was tested.
  echo "prepare: installing npm packages"
  npm install --no-audit --no-fund --loglevel=error
fi
echo "prepare: generating the Prisma client"
bash libs/db/scripts/generate.sh > /dev/null
echo "prepare: compiling to dist/"
node tools/build/build.mjs
