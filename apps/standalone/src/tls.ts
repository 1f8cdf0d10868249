import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { EdgeGatewayConfig } from '@router/edge';
import { createSelfSignedCertificate } from '@router/config';

type GatewayTlsConfig = NonNullable<EdgeGatewayConfig['tls']>;

/** The standalone's TLS port: the certificate it serves, and the file a client trusts when it made it. */
export type StandaloneTls =
  { tls: GatewayTlsConfig; selfSigned?: string } | { tls: undefined; why: string | undefined };

/**
 * The standalone router's TLS port, for clients that dial only https:// or wss://: the certificate named in
 * TLS_CERT_FILE and TLS_KEY_FILE, else a self-signed one made at the first start and kept in `<data dir>/tls`
 * (`cert.pem`, the file a client trusts, and `key.pem`), for this machine's names. TLS_SELF_SIGNED=false
 * leaves the port closed when no certificate is named. A machine that cannot make one (no openssl) starts
 * without the port and says why.
 */
export async function standaloneTls(
  config: {
    TLS_CERT_FILE: string | undefined;
    TLS_KEY_FILE: string | undefined;
    TLS_PORT: number;
    TLS_RELOAD_MS: number;
    TLS_SELF_SIGNED: boolean;
    HOST: string;
  },
  dataDir: string,
): Promise<StandaloneTls> {
  const listener = { port: config.TLS_PORT, host: config.HOST, reloadMs: config.TLS_RELOAD_MS };
  if (config.TLS_CERT_FILE !== undefined && config.TLS_KEY_FILE !== undefined) {
    return { tls: { ...listener, certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE } };
  }
  if (!config.TLS_SELF_SIGNED) return { tls: undefined, why: undefined };
  const files = { certFile: join(dataDir, 'tls', 'cert.pem'), keyFile: join(dataDir, 'tls', 'key.pem') };
  if (!existsSync(files.certFile) || !existsSync(files.keyFile)) {
    try {
      await createSelfSignedCertificate(files, machineNames());
    } catch (error) {
      return { tls: undefined, why: error instanceof Error ? error.message : String(error) };
    }
  }
  return { tls: { ...listener, ...files }, selfSigned: files.certFile };
}

/** The names a client on this machine (or the local network, by host name) dials it by. */
function machineNames(): string[] {
  const host = hostname();
  const names = ['localhost', '127.0.0.1', '::1'];
  return /^[A-Za-z0-9.-]+$/.test(host) && host !== 'localhost' ? [...names, host] : names;
}
