#!/usr/bin/env bash
# Generates the Prisma client into node_modules/.prisma/client (the default location), offline. Run it after
# every `npm ci`: npm here skips install scripts that are not allow-listed, so no postinstall ever does it,
# and `@prisma/client` cannot be loaded or type-checked before it has run.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
cd "$root"
export CHECKPOINT_DISABLE=1 PRISMA_HIDE_UPDATE_MESSAGE=1
# generate never connects, but without a postgresql:// URL the CLI tries to download a query engine.
case "${DATABASE_URL:-}" in
  postgres://* | postgresql://*) ;;
  *) export DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres ;;
esac
exec node node_modules/prisma/build/index.js generate --no-hints --config libs/db/prisma.config.ts "$@"
