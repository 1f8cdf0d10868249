#!/usr/bin/env bash
# `npm start`: the whole router in one process with embedded defaults (see README).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
bash tools/ci/prepare.sh
# The TLS port's self-signed certificate is made with openssl: Debian's, installed where missing (as root);
# without it the router starts without that port and says why.
if ! command -v openssl > /dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null 2>&1; then
  echo "start: installing openssl (for the TLS port's certificate)"
  (apt-get update -qq > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssl > /dev/null) ||
    echo "start: openssl could not be installed"
fi
exec node --enable-source-maps dist/apps/standalone/main.js
