import { env } from './env-schema';

/** Variables shared by several apps, so each is spelled and checked one way everywhere. */
export const commonEnv = {
  LOG_LEVEL: env.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, {
    default: 'info',
  }),
};

export const natsEnv = {
  NATS_URL: env.url({ protocols: ['nats', 'tls'] }),
};

export const databaseEnv = {
  DATABASE_URL: env.url({ protocols: ['postgresql', 'postgres'] }),
};

export const s3Env = {
  S3_ENDPOINT: env.url({ protocols: ['http', 'https'] }),
  S3_ACCESS_KEY: env.string(),
  S3_SECRET_KEY: env.string(),
  S3_BUCKET: env.string({ default: 'router-audio' }),
  S3_REGION: env.string({ default: 'us-east-1' }),
};

export const signingEnv = {
  /** Shared by the gateway (signs) and every app behind it (verifies). */
  INTERNAL_SIGNING_SECRET: env.string({ minLength: 32 }),
};

export const providerKeyEnv = {
  /** `1:<base64 of 32 bytes>[,2:<...>]`; the highest version encrypts, every listed one decrypts. */
  PROVIDER_KEY_MASTER_KEYS: env.string(),
};
