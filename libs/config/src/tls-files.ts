import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The PEM files of a TLS certificate (its chain, leaf first) and its private key, as the config names them. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** 825 days: the longest validity some TLS clients accept for a server certificate. */
const VALID_DAYS = 825;

/**
 * Writes a new self-signed certificate for `hosts` (names and IP addresses) and its private key, as PEM files,
 * for a router with no certificate of its own (the standalone's TLS port, the test stack's gateway). Node makes keys but no X.509
 * certificates, so the machine's `openssl` makes it: an ECDSA P-256 key, a leaf certificate (not a CA) for
 * server authentication, which a client trusts by naming the certificate file itself (`curl --cacert`,
 * `NODE_EXTRA_CA_CERTS`). The key is readable by its owner alone.
 */
export async function createSelfSignedCertificate(files: TlsFiles, hosts: readonly string[]): Promise<void> {
  await mkdir(dirname(files.certFile), { recursive: true });
  await mkdir(dirname(files.keyFile), { recursive: true });
  const names = hosts.map((host) => (isIP(host) ? `IP:${host}` : `DNS:${host}`)).join(',');
  try {
    await run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      String(VALID_DAYS),
      '-subj',
      `/CN=${hosts[0] ?? 'localhost'}`,
      '-addext',
      `subjectAltName=${names}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'extendedKeyUsage=serverAuth',
      '-keyout',
      files.keyFile,
      '-out',
      files.certFile,
    ]);
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') {
      throw new Error(
        'openssl was not found: it makes the self-signed certificate (apt-get install openssl)',
      );
    }
    throw error;
  }
  await chmod(files.keyFile, 0o600);
}
