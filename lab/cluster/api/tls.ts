// The API double's credentials (lab/cluster/api/, a TEST DOUBLE): a CA, a server certificate it signs for
// the addresses clients use (control1's 198.18.0.5 in the lab, 127.0.0.1 for tests), and a bearer
// token; and the kubeconfig that gives kubectl all three, so the real client verifies the server and
// the server checks the client. Made with the openssl CLI (no new dependency), EC P-256 keys, once:
// files that exist and still cover the addresses are kept, so kubectl's trust survives `lab up`.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import YAML from 'yaml';
import { writeIfChanged } from '../../write.js';

export const OPENSSL = '/usr/bin/openssl';

export interface ApiCredentials {
  caCert: string;
  /** The server's key and certificate (PEM). */
  key: string;
  cert: string;
  token: string;
  /** Something was made just now (a running server has the old ones). */
  made: boolean;
}

export const credentialFiles = (dir: string) => ({
  caKey: join(dir, 'ca.key'),
  caCert: join(dir, 'ca.crt'),
  key: join(dir, 'server.key'),
  cert: join(dir, 'server.crt'),
  token: join(dir, 'token'),
});

const openssl = (args: string[], cwd: string) =>
  execFileSync(OPENSSL, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });

/** The IP addresses a certificate names (its subjectAltName). */
function certIps(cert: string): string[] {
  try {
    const text = execFileSync(OPENSSL, ['x509', '-noout', '-ext', 'subjectAltName'], { input: readFileSync(cert) });
    return [...text.toString().matchAll(/IP Address:([0-9.]+)/g)].map((m) => m[1]!);
  } catch {
    return [];
  }
}

function makeCa(dir: string, f: ReturnType<typeof credentialFiles>): void {
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    [
      'req',
      '-x509',
      ...key,
      '-keyout',
      f.caKey,
      '-out',
      f.caCert,
      '-days',
      '3650',
      '-subj',
      '/CN=play-lab-kubernetes-ca',
    ],
    dir,
  );
}

function makeServerCert(dir: string, f: ReturnType<typeof credentialFiles>, ips: readonly string[]): void {
  const csr = join(dir, 'server.csr');
  const ext = join(dir, 'server.ext');
  writeIfChanged(
    ext,
    `subjectAltName=${ips.map((ip) => `IP:${ip}`).join(',')},DNS:kubernetes,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=digitalSignature,keyEncipherment\n`,
    0o600,
  );
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(['req', ...key, '-keyout', f.key, '-out', csr, '-subj', '/CN=kube-apiserver'], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      f.caCert,
      '-CAkey',
      f.caKey,
      '-CAcreateserial',
      '-out',
      f.cert,
      '-days',
      '3650',
      '-extfile',
      ext,
    ],
    dir,
  );
  rmSync(csr, { force: true });
}

/** Makes what is missing in `dir` (0700; keys and token 0600) and returns the credentials. */
export function ensureApiCredentials(dir: string, ips: readonly string[]): ApiCredentials {
  if (!existsSync(OPENSSL))
    throw new Error(`${OPENSSL} not found: the lab's Kubernetes API double needs openssl (apt-get install openssl)`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const f = credentialFiles(dir);
  let made = false;
  if (!existsSync(f.caKey) || !existsSync(f.caCert)) {
    makeCa(dir, f);
    rmSync(f.cert, { force: true });
    made = true;
  }
  if (!existsSync(f.cert) || !existsSync(f.key) || !ips.every((ip) => certIps(f.cert).includes(ip))) {
    makeServerCert(dir, f, ips);
    made = true;
  }
  if (!existsSync(f.token)) made = writeIfChanged(f.token, `${randomBytes(24).toString('hex')}\n`, 0o600) || made;
  return {
    made,
    caCert: readFileSync(f.caCert, 'utf8'),
    key: readFileSync(f.key, 'utf8'),
    cert: readFileSync(f.cert, 'utf8'),
    token: readFileSync(f.token, 'utf8').trim(),
  };
}

/** A kubeconfig naming the server, trusting only the lab's CA, with the bearer token. */
export function kubeconfigText(server: string, c: Pick<ApiCredentials, 'caCert' | 'token'>): string {
  return YAML.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'play-lab', cluster: { server, 'certificate-authority-data': Buffer.from(c.caCert).toString('base64') } },
    ],
    users: [{ name: 'play-lab-admin', user: { token: c.token } }],
    contexts: [{ name: 'play-lab', context: { cluster: 'play-lab', user: 'play-lab-admin' } }],
    'current-context': 'play-lab',
  });
}
