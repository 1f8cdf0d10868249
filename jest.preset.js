// One Jest setup for the whole workspace: swc transform with the workspace's .swcrc and the tsconfig path aliases.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = __dirname;
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
const { paths } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions;
const moduleNameMapper = Object.fromEntries(
  Object.entries(paths).map(([alias, [target]]) => [`^${alias}$`, join(root, target)]),
);

module.exports = {
  rootDir: root,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // Compiled output is not source: its package.json files (the published packages') would shadow the
  // workspace's path aliases of the same names.
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
