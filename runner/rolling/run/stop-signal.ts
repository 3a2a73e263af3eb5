// When a rolling run stops starting nodes: Ctrl-C (the command's signal), SIGTERM, or the journal
// failing (through `controller`). Nodes in flight are brought to a safe point either way.
export interface StopSignal {
  readonly signal: AbortSignal;
  readonly controller: AbortController;
  dispose(): void;
}

export function stopSignal(parent?: AbortSignal): StopSignal {
  const c = new AbortController();
  const onTerm = () => c.abort();
  process.on('SIGTERM', onTerm);
  const onParent = () => c.abort();
  parent?.addEventListener('abort', onParent, { once: true });
  if (parent?.aborted) c.abort();
  return {
    signal: c.signal,
    controller: c,
    dispose: () => {
      process.off('SIGTERM', onTerm);
      parent?.removeEventListener('abort', onParent);
    },
  };
}
