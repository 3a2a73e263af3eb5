// Faults a simulated Windows node (a test double) injects on request, set in its config or at run
// time (setFault). They act at the SSH server, before and around the model.

export interface WindowsNodeFaults {
  /** Every command waits this long before it runs (ms): a slow link, or powershell.exe's start-up. */
  latencyMs: number;
  /** The Nth command from when this was set (1: the next one) drops its connection before it runs; fires once. */
  dropConnectionOnCommand: number | null;
  /** A call to this function never returns: its command hangs (no output, no exit) until the client closes the channel. */
  hangFunction: string | null;
  /** Every authentication attempt is refused (a wrong password looks the same to the client). */
  authFailure: boolean;
  /**
   * A bad update: once this KB is installed and the node has booted into it, the node's kubelet never
   * reports Ready (cluster-registration.ts); removing the KB (dism /remove-package, a reboot) heals it.
   */
  badKb: string | null;
  /** true: the next boot comes back without the L2Bridge HNS networks (boot-faults.ts); handed to the model at once. */
  hnsNetworkMissingAfterReboot: boolean;
  /** true: kube-proxy does not start at the next boot (boot-faults.ts); handed to the model at once. */
  kubeProxyFailsAfterReboot: boolean;
}

export const NO_FAULTS: Readonly<WindowsNodeFaults> = Object.freeze({
  latencyMs: 0,
  dropConnectionOnCommand: null,
  hangFunction: null,
  authFailure: false,
  badKb: null,
  hnsNetworkMissingAfterReboot: false,
  kubeProxyFailsAfterReboot: false,
});

/** Checks a patch of faults (from a config file or a test) and applies it. */
export function mergeFaults(current: WindowsNodeFaults, patch: Partial<WindowsNodeFaults>): WindowsNodeFaults {
  const next = { ...current, ...patch };
  if (!Number.isFinite(next.latencyMs) || next.latencyMs < 0)
    throw new RangeError(`latencyMs must be a number >= 0, not ${String(next.latencyMs)}`);
  const n = next.dropConnectionOnCommand;
  if (n !== null && (!Number.isInteger(n) || n < 1))
    throw new RangeError(`dropConnectionOnCommand must be a positive integer or null, not ${String(n)}`);
  if (next.hangFunction !== null && typeof next.hangFunction !== 'string')
    throw new TypeError('hangFunction must be a function name or null');
  if (typeof next.authFailure !== 'boolean') throw new TypeError('authFailure must be true or false');
  for (const key of ['hnsNetworkMissingAfterReboot', 'kubeProxyFailsAfterReboot'] as const)
    if (typeof next[key] !== 'boolean') throw new TypeError(`${key} must be true or false`);
  if (next.badKb !== null && (typeof next.badKb !== 'string' || !/^KB[0-9]+$/i.test(next.badKb)))
    throw new TypeError(`badKb must be a KB number such as KB4551853, or null, not ${String(next.badKb)}`);
  for (const key of Object.keys(patch)) {
    if (!(key in NO_FAULTS)) throw new TypeError(`unknown fault ${key} (known: ${Object.keys(NO_FAULTS).join(', ')})`);
  }
  return next;
}
