import { type DynamicModule, Module } from '@nestjs/common';
import { type AuditLog, MEMBERS_SERVICE, type MembersService, SessionGuard } from '@router/admin';
import type { ProviderKeyStore } from '@router/provider-keys';
import { CacheController } from './cache/cache.controller';
import type { CacheEviction } from './cache/cache-eviction.service';
import { ModelsController } from './catalogue/models.controller';
import { type ChangeNotifier, OpenApiPartController, openApiPartProvider } from '@router/service-kit';
import type { ProviderKeyCheck } from './provider-keys/provider-key-check.service';
import { ProviderKeysController } from './provider-keys/provider-keys.controller';
import { SpeechController } from './speech/speech.controller';
import type { SpeechService } from './speech/speech.service';
import {
  AUDIT_LOG,
  CACHE_EVICTION,
  CHANGE_NOTIFIER,
  PROVIDER_KEY_CHECK,
  PROVIDER_KEY_STORE,
  SPEECH_SERVICE,
  VOICES_SERVICE,
} from './tokens';
import { VoicesController } from './voices/voices.controller';
import type { VoicesService } from './voices/voices.service';

export interface NativeApiOptions {
  providerKeys: ProviderKeyStore;
  changes: ChangeNotifier;
  /** Dashboard sessions, which the provider-key endpoints take as well as an API key. */
  members: MembersService;
  /** Where a vendor key stored or deleted is put on the org's audit list. */
  audit: AuditLog;
  speech: SpeechService;
  voices: VoicesService;
  /** The org's evictions of its own cache entries. */
  eviction: CacheEviction;
  /** "Test this key": the cheapest vendor call with a stored key. */
  keyCheck: ProviderKeyCheck;
}

/** The router's own HTTP API: `/v1/*`, and its part of the OpenAPI document at `/openapi.json`. */
@Module({})
export class NativeApiModule {
  static forRoot(options: NativeApiOptions): DynamicModule {
    return {
      module: NativeApiModule,
      controllers: [
        ModelsController,
        VoicesController,
        ProviderKeysController,
        SpeechController,
        CacheController,
        OpenApiPartController,
      ],
      providers: [
        { provide: PROVIDER_KEY_STORE, useValue: options.providerKeys },
        { provide: CHANGE_NOTIFIER, useValue: options.changes },
        { provide: MEMBERS_SERVICE, useValue: options.members },
        { provide: AUDIT_LOG, useValue: options.audit },
        SessionGuard,
        { provide: SPEECH_SERVICE, useValue: options.speech },
        { provide: VOICES_SERVICE, useValue: options.voices },
        { provide: CACHE_EVICTION, useValue: options.eviction },
        { provide: PROVIDER_KEY_CHECK, useValue: options.keyCheck },
        openApiPartProvider(),
      ],
    };
  }
}
