// Three kinds of test (CONTRIBUTING.md, "Tests with every change"): unit specs without I/O, integration
// specs against real services, e2e specs through the gateway against separately started apps.
// `--selectProjects` picks them.
const preset = require('./jest.preset');

module.exports = {
  watchman: false,
  // Per-project testTimeout is ignored by Jest 30; the integration and e2e specs need real services' time,
  // and a shared machine under load may take several times a quiet one's (a bound, never a measurement).
  testTimeout: 60000,
  // `--shard=i/n` splits by recorded seconds (tools/ci/e2e-seconds.json), so the e2e shards end together.
  testSequencer: '<rootDir>/libs/testing/src/e2e-sequencer.js',
  projects: [
    { ...preset, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    {
      ...preset,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts'],
    },
    {
      ...preset,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/e2e-global-setup.js',
      globalTeardown: '<rootDir>/libs/testing/src/e2e-global-teardown.js',
    },
  ],
};
