export const PROVIDER_KEY_STORE = Symbol('PROVIDER_KEY_STORE');
export const CHANGE_NOTIFIER = Symbol('CHANGE_NOTIFIER');
export const OPENAPI_DOCUMENT = Symbol('OPENAPI_DOCUMENT');
export const SPEECH_SERVICE = Symbol('SPEECH_SERVICE');
export const VOICES_SERVICE = Symbol('VOICES_SERVICE');
