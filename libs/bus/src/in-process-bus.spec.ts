import { describeBusContract } from './bus-contract.suite';
import { InProcessBus } from './in-process-bus';

describeBusContract('InProcessBus', (prefix) => {
  const bus = new InProcessBus({ prefix });
  return { requester: bus, server: bus, otherServer: bus };
});
