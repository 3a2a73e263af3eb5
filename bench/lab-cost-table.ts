// What one lab host costs, pure: a lab-cost.ts stage (the lab at one size) as a table row of totals
// and per-host figures, and whether a larger size fits in the memory left.

export interface LabStage {
  hosts: number;
  /** Hosts this stage added (the sizes before it were up already), and the labUp that added them. */
  added: number;
  upMs: number;
  /** MemAvailable before the first stage minus after this one (KB): what `free -m` calls available. */
  memUsedKb: number;
  /** The kernel's slab growth (KB): namespaces, veths, bridge ports, sockets, mounts. */
  slabKb: number;
  /** Summed over the hosts' sshd listeners (KB): RSS counts shared pages once per process, PSS shares them. */
  sshdRssKb: number;
  sshdPssKb: number;
  /** Summed over the sshd listeners: open file descriptors, and mounts each sees. */
  fds: number;
  mounts: number;
  memAvailableKb: number;
}

export const LAB_STAGE_HEADER = [
  'hosts',
  'up s (added hosts)',
  'up ms / added host',
  'memory MB',
  'memory KB / host',
  'slab KB / host',
  'sshd RSS KB / host',
  'sshd PSS KB / host',
  'fds / sshd',
  'mounts / host',
];

export function labStageRow(s: LabStage): string[] {
  const per = (x: number) => (x / s.hosts).toFixed(0);
  return [
    String(s.hosts),
    `${(s.upMs / 1000).toFixed(1)} (${s.added})`,
    (s.upMs / s.added).toFixed(0),
    (s.memUsedKb / 1024).toFixed(0),
    per(s.memUsedKb),
    per(s.slabKb),
    per(s.sshdRssKb),
    per(s.sshdPssKb),
    (s.fds / s.hosts).toFixed(1),
    per(s.mounts),
  ];
}

/** `hosts` hosts at the measured stage's memory per host leave at least reserveMb available. */
export function memoryFits(measured: LabStage, hosts: number, reserveMb: number): boolean {
  const perHostKb = Math.max(measured.memUsedKb, measured.sshdPssKb + measured.slabKb) / measured.hosts;
  const moreKb = perHostKb * (hosts - measured.hosts);
  return measured.memAvailableKb - moreKb >= reserveMb * 1024;
}
