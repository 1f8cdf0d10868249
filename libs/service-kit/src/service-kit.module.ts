import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { Health, type Logger } from '@router/observability';
import { EnvelopeExceptionFilter } from './envelope.filter';
import { HealthController } from './health.controller';
import { IdentityGuard, type IdentityPolicy } from './identity.guard';
import { CLOCK, type Clock, HEALTH, IDENTITY_POLICY, LOGGER, systemClock } from './tokens';

export interface ServiceKitOptions {
  logger: Logger;
  health: Health;
  /** Set for apps behind the gateway: every non-public route then needs the gateway's signature. */
  identity?: IdentityPolicy;
  clock?: Clock;
}

/**
 * What every app's HTTP side shares: logger, health and metrics endpoints, the envelope for errors and,
 * behind the gateway, the identity guard. Imported once by each app's root module.
 */
@Global()
@Module({})
export class ServiceKitModule {
  static forRoot(options: ServiceKitOptions): DynamicModule {
    const guard =
      options.identity === undefined
        ? []
        : [
            { provide: IDENTITY_POLICY, useValue: options.identity },
            { provide: APP_GUARD, useClass: IdentityGuard },
          ];
    return {
      module: ServiceKitModule,
      controllers: [HealthController],
      providers: [
        { provide: LOGGER, useValue: options.logger },
        { provide: HEALTH, useValue: options.health },
        { provide: CLOCK, useValue: options.clock ?? systemClock },
        { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
        ...guard,
      ],
      exports: [LOGGER, HEALTH, CLOCK],
    };
  }
}
