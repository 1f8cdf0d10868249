// Placeholder until the e2e stack launcher lands.
module.exports = async () => {};
