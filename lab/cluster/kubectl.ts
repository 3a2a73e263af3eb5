// The kubectl stand-in (a TEST DOUBLE, not kubectl): answers the kubectl commands the playbooks run on
// a master, from the simulated cluster's state file (cluster-state.ts), with kubectl's output formats, error
// messages and exit codes. On the lab's control host it is /opt/play-lab/bin/kubectl, a shell wrapper:
//   exec node --import tsx lab/cluster/kubectl.ts --state FILE "$@"
// Supported (everything else exits 1 saying the stand-in does not implement it):
//   get nodes|node [NAME] [-o wide|json|name|jsonpath=TEMPLATE]                       (get.ts)
//   get svc|service [NAME] -n kube-system [-o ...]   (only kube-dns exists)
//   get pods [NAME] [-A|-n NS] [--field-selector spec.nodeName=NODE] [-l k=v] [-o ...]
//   get pdb [NAME] [-A|-n NS] [-o ...]
//   cordon NAME | uncordon NAME                                                        (cordon.ts)
//   drain NAME [--ignore-daemonsets] [--delete-emptydir-data] [--force] [--timeout=D] [--grace-period=N] (drain.ts)
//   delete node NAME
// Every cordon, uncordon, eviction and drain is logged with the invocation (events.ts).
import { pathToFileURL } from 'node:url';
import { type KubectlResult, KubectlError, notFound, notImplemented, parseArgs, resource } from './args.js';
import { updateClusterState } from './cluster-state.js';
import { cordonCommand } from './cordon.js';
import { drainCommand } from './drain.js';
import { actor } from './events.js';
import { getCommand, mustState } from './get.js';

export type { KubectlResult } from './args.js';
export { humanDuration, table } from './format.js';
export { jsonpath } from './jsonpath.js';

export function kubectl(file: string, args: readonly string[], now = Date.now()): KubectlResult {
  try {
    const p = parseArgs(args);
    const verb = p.words[0];
    mustState(file);
    switch (verb) {
      case 'get':
        return getCommand(file, p, now);
      case 'cordon':
      case 'uncordon':
        return cordonCommand(file, p, verb, actor(args));
      case 'drain':
        return drainCommand(file, p, actor(args));
      case 'delete': {
        const [kind, name] = resource(p.words.slice(1));
        if (!['node', 'nodes', 'no'].includes(kind)) throw notImplemented(`delete ${kind}`);
        if (name === undefined) throw notImplemented('delete without a node name');
        updateClusterState(file, (s) => {
          if (!s.nodes[name]) throw notFound('nodes', name);
          delete s.nodes[name];
        });
        return { code: 0, stdout: `node "${name}" deleted\n`, stderr: '' };
      }
      default:
        throw notImplemented(verb === undefined ? 'kubectl without a command' : `"${verb}"`);
    }
  } catch (e) {
    if (e instanceof KubectlError) return { code: 1, stdout: '', stderr: `${e.message}\n` };
    throw e;
  }
}

async function main(argv: string[]): Promise<void> {
  const at = argv.indexOf('--state');
  const file = at >= 0 ? argv[at + 1] : undefined;
  if (!file) {
    process.stderr.write('kubectl stand-in: --state FILE is required (the wrapper gives it)\n');
    process.exitCode = 64;
    return;
  }
  const result = kubectl(file, [...argv.slice(0, at), ...argv.slice(at + 2)]);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2));
