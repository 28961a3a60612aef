/**
 * A throwaway self-signed certificate for 127.0.0.1 (and localhost), made with the `openssl`
 * command-line tool, for serving the emulator over TLS (`startEmulator({ tls })`). A client trusts
 * it through `NODE_EXTRA_CA_CERTS: certPath` (a child process) or `ca: cert` (in process).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface Certificate {
  /** PEM private key (RSA 2048, unencrypted). */
  key: string;
  /** PEM certificate: CN and subjectAltName IP:127.0.0.1, DNS:localhost; valid for one day. */
  cert: string;
  /** Where `cert` was written, for NODE_EXTRA_CA_CERTS. */
  certPath: string;
}

/**
 * Writes `key.pem` and `cert.pem` into `directory` (which must exist) and returns them; `hosts`
 * adds DNS names to the certificate (e.g. codeload.github.com, served by a test's proxy).
 */
export function makeCertificate(directory: string, hosts: string[] = []): Certificate {
  const keyPath = path.join(directory, 'key.pem');
  const certPath = path.join(directory, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        ['subjectAltName=IP:127.0.0.1,DNS:localhost', ...hosts.map((host) => `DNS:${host}`)].join(
          ',',
        ),
        '-keyout',
        keyPath,
        '-out',
        certPath,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 },
    );
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { stderr?: Buffer };
    if (failure.code === 'ENOENT') {
      throw new Error(
        'makeCertificate needs the openssl command-line tool on PATH (e.g. apt-get install openssl)',
        { cause: error },
      );
    }
    const stderr = failure.stderr?.toString().trim() ?? '';
    throw new Error(`openssl could not make a certificate: ${stderr || failure.message}`, {
      cause: error,
    });
  }
  return {
    key: readFileSync(keyPath, 'utf8'),
    cert: readFileSync(certPath, 'utf8'),
    certPath,
  };
}
