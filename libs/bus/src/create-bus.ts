import type { Bus } from './bus.interface';
import type { BusOptions } from './bus.options';
import { InProcessBus } from './in-process-bus';
import { NatsBus } from './nats-bus';

/**
 * The one place a process gets its bus. A NATS bus connects in the background (status 'reconnecting'
 * until it does); calls made meanwhile wait up to their own deadline.
 */
export function createBus(options: BusOptions): Bus {
  switch (options.kind) {
    case 'nats': {
      const { kind: _kind, ...rest } = options;
      return new NatsBus(rest);
    }
    case 'memory': {
      const { kind: _kind, ...rest } = options;
      return new InProcessBus(rest);
    }
  }
}
