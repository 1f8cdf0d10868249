import pino, { type Logger } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths that could carry a secret or a sentence if someone logged a whole request or settings object.
 * The code never logs those objects; this is the second line of defence, and a test proves it holds.
 */
export const REDACTED_PATHS = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers["api-subscription-key"]',
  'req.headers["x-api-key"]',
  'headers["x-router-identity"]',
  'api_key',
  'apiKey',
  'key',
  'text',
  'input',
  'transcript',
  '*.api_key',
  '*.apiKey',
  '*.text',
  '*.input',
  '*.transcript',
];

export interface LoggerOptions {
  service: string;
  level: string;
  /** Where JSON lines go; stdout unless a test captures them. */
  destination?: pino.DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level,
      base: { service: options.service },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}
