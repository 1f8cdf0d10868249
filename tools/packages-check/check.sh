#!/usr/bin/env bash
# The published packages as a user gets them: packs @speech-router/client, @speech-router/livekit-plugin and
# @speech-router/ai-sdk-provider from dist/ (run the build first), installs the tarballs in a project of their
# own beside @livekit/agents, @livekit/rtc-node and ai from the npm registry (the versions this repository
# installed, read from node_modules, so npm takes them from its cache), then type-checks a CommonJS and an
# ES-module consumer against them (tools/packages-check/consumer) and runs both. Part of `npm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
work=tmp/packages-check
rm -rf "$work"
mkdir -p "$work/tarballs"
npm pack --silent --pack-destination "$work/tarballs" \
  ./dist/libs/client ./dist/packages/livekit-plugin ./dist/packages/ai-sdk-provider > /dev/null
cp tools/packages-check/consumer/* "$work/"
node - "$work" << 'JS'
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const work = process.argv[2];
const installed = (name) => JSON.parse(readFileSync(join('node_modules', name, 'package.json'), 'utf8')).version;
const dependencies = Object.fromEntries(
  readdirSync(join(work, 'tarballs')).map((file) => [
    `@speech-router/${file.replace(/^speech-router-(.*)-\d+\.\d+\.\d+\.tgz$/, '$1')}`,
    `file:tarballs/${file}`,
  ]),
);
for (const name of ['@livekit/agents', '@livekit/rtc-node', 'ai', 'zod', 'typescript', '@types/node']) {
  dependencies[name] = installed(name);
}
writeFileSync(join(work, 'package.json'), JSON.stringify({ private: true, dependencies }, null, 2));
JS
cd "$work"
npm install --prefer-offline --no-audit --no-fund --loglevel=error > /dev/null
# Declarations are checked too (skipLibCheck off), ours and the consumers' must have no error; the framework's
# own CommonJS index declarations fail under node16 resolution (TS1479, its packaging), so errors in
# third-party declarations are counted, not failed on.
npx tsc -p tsconfig.json > tsc.log || true
if grep -E '^[^ ].*: error TS' tsc.log | grep -vE '^node_modules/' | grep -q . ||
  grep -E '^node_modules/@speech-router/.*: error TS' tsc.log | grep -q .; then
  grep -vE '^node_modules/(@livekit|@ai-sdk|ai)/' tsc.log >&2
  exit 1
fi
echo "packages: declarations check (third-party declaration errors ignored: $(grep -c ': error TS' tsc.log || true))"
node out/consumer.cjs
node out/consumer.mjs
