import { type DynamicModule, Module } from '@nestjs/common';
import { MEMBERS_SERVICE, type MembersService, SessionGuard } from '@router/admin';
import type { ProviderKeyStore } from '@router/provider-keys';
import { ModelsController } from './catalogue/models.controller';
import type { ChangeNotifier } from '@router/service-kit';
import { OpenApiController } from './openapi/openapi.controller';
import { ProviderKeysController } from './provider-keys/provider-keys.controller';
import { SpeechController } from './speech/speech.controller';
import type { SpeechService } from './speech/speech.service';
import {
  CHANGE_NOTIFIER,
  OPENAPI_DOCUMENT,
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
  speech: SpeechService;
  voices: VoicesService;
}

/** The router's own HTTP API: `/v1/*` and `/openapi.json`. */
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
        OpenApiController,
      ],
      providers: [
        { provide: PROVIDER_KEY_STORE, useValue: options.providerKeys },
        { provide: CHANGE_NOTIFIER, useValue: options.changes },
        { provide: MEMBERS_SERVICE, useValue: options.members },
        SessionGuard,
        { provide: SPEECH_SERVICE, useValue: options.speech },
        { provide: VOICES_SERVICE, useValue: options.voices },
        // Filled once the app is created, since the document is generated from the running app's routes.
        { provide: OPENAPI_DOCUMENT, useValue: { current: null } },
      ],
      exports: [OPENAPI_DOCUMENT],
    };
  }
}
