// Jest's global setup cannot be TypeScript here (it runs before the transform); it compiles nothing and
// starts the distributed stack from dist/ (built by `npm test` before Jest runs).
const { startE2eStack } = require('../../../dist/libs/testing/src/e2e-stack.js');

module.exports = async () => {
  globalThis.__ROUTER_E2E__ = await startE2eStack();
};
