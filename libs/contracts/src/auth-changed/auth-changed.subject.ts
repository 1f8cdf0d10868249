import { defineEvent } from '../core';
import { authChanged } from './auth-changed.message';

/** Published by whatever changes orgs or keys (admin API, provider-key endpoints); every gateway listens. */
export const authChangedV1 = defineEvent({ subject: 'auth.changed.v1', payload: authChanged });
