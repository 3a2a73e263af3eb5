// The preflight as `--check` prints it under the batch plan: each node whose drain would block (the pod,
// the budget and its numbers) with what would let it pass, pods that would stay Pending, how room was
// judged, and the run's time against the window. Pure.
import { DEFAULT_CYCLE_SEC, durationText, type RunEstimate } from '../estimate.js';
import type { PlanPreflight } from './preflight-model.js';

const ROOM_TEXT = {
  'allocatable pods': "room counted in pods against each node's allocatable pods (resource requests not compared)",
  'no pod limit':
    'room: any node that can run a pod counts (the nodes give no allocatable pods; requests not compared)',
} as const;

function drainLines(d: NonNullable<PlanPreflight['drains']>): string[] {
  const lines = [`preflight: every drain simulated on the cluster as it is now; ${ROOM_TEXT[d.room]}`];
  for (const n of d.nodes) {
    for (const p of n.problems) lines.push(`  ${n.host}: ${p}`);
    for (const a of n.toPass) lines.push(`    to pass: ${a}`);
  }
  if (d.blocked.length === 0) lines.push('  every drain would pass');
  else
    lines.push(
      `  a run refuses ${d.blocked.join(', ')} (not cordoned, counted as failed); --try-blocked drains ${d.blocked.length === 1 ? 'it' : 'them'} anyway`,
    );
  return lines;
}

function timeLines(t: RunEstimate, playbook: string): string[] {
  const basis =
    t.basis === 'history'
      ? `from ${t.samples} past node cycle${t.samples === 1 ? '' : 's'} of ${playbook} in the journal`
      : `no past cycles of ${playbook} in the journal: ${durationText(DEFAULT_CYCLE_SEC)} a node assumed`;
  const lines = [
    `time: about ${durationText(t.totalSec)}: ${t.batches.map((b) => `batch ${b.batch} ${durationText(b.sec)}`).join(', ') || 'no batches'} (${basis})`,
  ];
  const w = t.window;
  if (w) lines.push(`window ${w.window}: ${fitText(t.totalSec, w)}`);
  return lines;
}

function fitText(totalSec: number, w: NonNullable<RunEstimate['window']>): string {
  if (w.fits) return `fits (${durationText(totalSec)} of ${durationText(w.firstSec)} open)`;
  // A batch under way finishes after the close: only a batch's start must fall inside.
  if (w.windowsNeeded === 1)
    return `its last batch starts before the close and runs ${durationText(totalSec - w.firstSec)} past it (${durationText(w.firstSec)} open)`;
  return `does not fit in ${durationText(w.firstSec)}; needs ${w.windowsNeeded} windows (the later ones ${durationText(w.openSec)} each)`;
}

export function preflightText(p: PlanPreflight, playbook: string): string {
  const drains = p.drains
    ? drainLines(p.drains)
    : p.unread
      ? [`preflight: no drain simulated: the cluster could not be read: ${p.unread}`]
      : [];
  return `${[...drains, ...timeLines(p.time, playbook)].join('\n')}\n`;
}
