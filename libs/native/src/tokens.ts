export const PROVIDER_KEY_STORE = Symbol('PROVIDER_KEY_STORE');
export const CHANGE_NOTIFIER = Symbol('CHANGE_NOTIFIER');
export const SPEECH_SERVICE = Symbol('SPEECH_SERVICE');
export const VOICES_SERVICE = Symbol('VOICES_SERVICE');
export const CACHE_EVICTION = Symbol('CACHE_EVICTION');
export const AUDIT_LOG = Symbol('AUDIT_LOG');
export const PROVIDER_KEY_CHECK = Symbol('PROVIDER_KEY_CHECK');
