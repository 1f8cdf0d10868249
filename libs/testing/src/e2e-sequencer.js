// Jest's test sequencer, with one change: `--shard=i/n` splits the specs by how long each took in a recorded
// run (tools/ci/e2e-seconds.json), longest first onto the shard with the least so far, so the shards end
// together. Jest's own split is by a hash of the path, which can leave one shard with most of the work.
// Plain JS: Jest loads it before any transform.
const { readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '..', '..', '..');
const SECONDS_FILE = join(ROOT, 'tools', 'ci', 'e2e-seconds.json');

/**
 * The paths (from the repo root) split into `shardCount` lists of about the same recorded seconds; a path
 * not in the record weighs as the median one.
 */
function splitBySeconds(paths, recorded, shardCount) {
  const known = Object.values(recorded).sort((a, b) => a - b);
  const fallback = known.length > 0 ? known[Math.floor(known.length / 2)] : 1;
  const weighed = paths
    .map((path) => ({ path, seconds: recorded[path] ?? fallback }))
    .sort((a, b) => b.seconds - a.seconds || (a.path < b.path ? -1 : 1));
  const shards = Array.from({ length: shardCount }, () => ({ seconds: 0, paths: [] }));
  for (const { path, seconds } of weighed) {
    const lightest = shards.reduce((least, shard) => (shard.seconds < least.seconds ? shard : least));
    lightest.seconds += seconds;
    lightest.paths.push(path);
  }
  return shards.map((shard) => shard.paths);
}

function recordedSeconds() {
  try {
    return JSON.parse(readFileSync(SECONDS_FILE, 'utf8'));
  } catch {
    return {};
  }
}

class ShardBySeconds extends Sequencer {
  shard(tests, { shardIndex, shardCount }) {
    const byPath = new Map(tests.map((test) => [relative(ROOT, test.path), test]));
    const mine = splitBySeconds([...byPath.keys()], recordedSeconds(), shardCount)[shardIndex - 1];
    return mine.map((path) => byPath.get(path));
  }
}

module.exports = ShardBySeconds;
module.exports.splitBySeconds = splitBySeconds;
