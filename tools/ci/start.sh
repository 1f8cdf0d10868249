#!/usr/bin/env bash
# `npm start`: the whole router in one process with embedded defaults (see README).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bash tools/ci/prepare.sh
exec node --enable-source-maps dist/apps/standalone/main.js
