import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type { Logger } from '@router/observability';
import type { TlsFiles } from '@router/config';
import { failureCause } from './failure-cause';

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

/**
 * Both files read and checked to make a certificate and its key: throws, naming the files, when either cannot
 * be read or they do not belong together (a gateway does not start on them).
 */
export function readTlsPair(files: TlsFiles): TlsPair {
  try {
    const pair = { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
    createSecureContext(pair);
    return pair;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`The TLS certificate ${files.certFile} and key ${files.keyFile} cannot be used: ${why}`);
  }
}

/**
 * Keeps a TLS server's certificate in step with its files: both are read every `intervalMs` (polling, not
 * file events, which miss a file replaced by a rename or a mounted secret's link switched), and a pair that
 * changed is served from the next connection on, once it reads as a certificate with its key. A pair caught
 * half-written, or a wrong one, leaves the last good pair in place and is logged once (the files' names and
 * the failure's cause, never their contents).
 */
export class CertificateReloader {
  private timer: NodeJS.Timeout | undefined;
  /** What the last check could not serve (logged once, not at every check): a pair, or files it could not read. */
  private refused: TlsPair | 'unreadable' | undefined;

  constructor(
    private readonly files: TlsFiles,
    private serving: TlsPair,
    private readonly apply: (pair: TlsPair) => void,
    private readonly logger: Logger,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.check(), intervalMs).unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads the files once and serves them if they changed and make a pair. */
  check(): void {
    let pair: TlsPair;
    try {
      pair = { cert: readFileSync(this.files.certFile), key: readFileSync(this.files.keyFile) };
    } catch (error) {
      if (this.refused !== 'unreadable') this.warn(error);
      this.refused = 'unreadable';
      return;
    }
    if (samePair(pair, this.serving)) return void (this.refused = undefined);
    if (typeof this.refused === 'object' && samePair(pair, this.refused)) return;
    try {
      createSecureContext(pair);
      this.apply(pair);
    } catch (error) {
      this.warn(error);
      this.refused = pair;
      return;
    }
    this.serving = pair;
    this.refused = undefined;
    this.logger.info({ certFile: this.files.certFile }, 'TLS certificate reloaded');
  }

  private warn(error: unknown): void {
    this.logger.warn(
      { certFile: this.files.certFile, keyFile: this.files.keyFile, cause: failureCause(error) },
      'TLS certificate not reloaded: the last good one is still served',
    );
  }
}

function samePair(a: TlsPair, b: TlsPair): boolean {
  return a.cert.equals(b.cert) && a.key.equals(b.key);
}
