// The Kubernetes API double (lab/cluster/api/, a TEST DOUBLE) started in the test's process on 127.0.0.1,
// over a cluster state file of the test's own, with the REAL kubectl in front of it: `kubectl(...args)`
// runs /usr/bin/kubectl with a kubeconfig that verifies the double's certificate and sends its token;
// `request(...)` speaks HTTPS to it directly, for the answers kubectl would hide. The CA, certificate
// and token are made once per test process.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningApiServer, startApiServer } from '../../../lab/cluster/api/server.js';
import { type ApiCredentials, ensureApiCredentials, kubeconfigText } from '../../../lab/cluster/api/tls.js';

/** The client in front of the double: the real kubectl, as the lab's control host runs it. */
export const KUBECTL = '/usr/bin/kubectl';

export function kubectlOrExplain(bin = KUBECTL): string {
  if (!existsSync(bin))
    throw new Error(
      `${bin} not found: the cluster tests run the real kubectl against the API double; install it with \`apt-get install kubernetes-client\``,
    );
  return bin;
}

/** Temp directories removed when the process exits (a double left running is not closed). */
const temps = new Set<string>();
function tempDir(prefix: string): string {
  if (temps.size === 0)
    process.once('exit', () => {
      for (const d of temps) rmSync(d, { recursive: true, force: true });
    });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.add(dir);
  return dir;
}

let credentials: ApiCredentials | undefined;
const sharedCredentials = () => (credentials ??= ensureApiCredentials(tempDir('play-api-tls-'), ['127.0.0.1']));

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export interface ApiDouble {
  url: string;
  kubeconfig: string;
  /** kubectl ARGS with the double's kubeconfig (`bin`: another kubectl binary; `stdin`: its input). */
  kubectl(args: readonly string[], bin?: string, stdin?: string | Buffer): Promise<Run>;
  /** One HTTPS request; `token: null` sends none. */
  request(
    method: string,
    path: string,
    o?: { body?: unknown; contentType?: string; token?: string | null; accept?: string },
  ): Promise<HttpAnswer>;
  close(): Promise<void>;
  /** Lets the test process exit with the server still up. */
  unref(): void;
}

export async function startApiDouble(stateFile: string): Promise<ApiDouble> {
  const c = sharedCredentials();
  const server: RunningApiServer = await startApiServer({
    stateFile,
    key: c.key,
    cert: c.cert,
    token: c.token,
    host: '127.0.0.1',
    port: 0,
  });
  const dir = tempDir('play-kubectl-');
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText(server.url, c), { mode: 0o600 });
  const kubectl = (args: readonly string[], bin = KUBECTL, stdin?: string | Buffer) =>
    new Promise<Run>((resolve) => {
      const child = execFile(
        kubectlOrExplain(bin),
        ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
        { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir } },
        (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin!.end(stdin);
    });
  const request: ApiDouble['request'] = (method, path, o = {}) =>
    new Promise((resolve, reject) => {
      const body = o.body === undefined ? undefined : JSON.stringify(o.body);
      const token = o.token === undefined ? c.token : o.token;
      const req = httpsRequest(
        `${server.url}${path}`,
        {
          method,
          ca: c.caCert,
          headers: {
            ...(token !== null ? { Authorization: `Bearer ${token}` } : {}),
            // Node sends a DELETE's body unframed unless told its length.
            ...(body !== undefined
              ? { 'Content-Type': o.contentType ?? 'application/json', 'Content-Length': Buffer.byteLength(body) }
              : {}),
            ...(o.accept ? { Accept: o.accept } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
        },
      );
      req.once('error', reject);
      req.end(body);
    });
  return {
    url: server.url,
    kubeconfig,
    kubectl,
    request,
    unref: () => server.unref(),
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
      temps.delete(dir);
    },
  };
}
