export * from './vendor-id';
export * from './catalogue.types';
export * from './catalogue.builders';
export * from './vendor-definition.types';
export * from './vendor-definition.check';
export * from './vendor-entry';
export * from './public-view';
export * from './catalogue.queries';
export * from './vendor-adapter';
export * from './vendor-errors';
export * from './voice.types';
export * from './stored-settings.types';
export * from './drop-in.types';
export * from './drop-in.answers';
export * from './drop-in.keying';
export * from './drop-in.kit';
export * from './drop-in.labels';
export * from './drop-in.fixtures';
export {
  resolveSettings,
  DEFAULT_RESPONSE_FORMAT,
  type ClientSettings,
  type SettingsSurface,
} from './settings.resolve';
export type { SettingsMode } from './settings.options';
export * from './upstream-http';
export * from './sse-take.steps';
export * from './upstream-parse';
export * from './wav-header';
export * from './audio-format';
export * from './audio-completeness';
export * from './mirror-socket.types';
export * from './key-placement';
export * from './mirror-socket.codec';
export * from './mirror-socket.fixtures';
export * from './mirror-access';
export * from './path-segment';
export * from './request-flags';
export * from './vendor-mirror';
