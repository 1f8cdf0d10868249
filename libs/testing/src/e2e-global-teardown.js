module.exports = async () => {
  await globalThis.__ROUTER_E2E__?.stop();
};
