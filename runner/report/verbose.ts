// The verbose view (-v, -vv, -vvv; and --log, which keeps -vv whatever the console shows): the
// events as lines a person reads, one renderer for a terminal and a log alike (the line stamper,
// timestamps.ts, puts the time in front). Pure: verboseLines turns one event into its lines.
//   -v    each step's start and end with its duration, and its output tail
//   -vv   what is sent: probes, scripts, PowerShell calls with their (masked) arguments
//   -vvv  the connection: handshake, host key, authentication, reconnects, channels
import type { Writable } from 'node:stream';
import type { PlayEvent } from './events.js';

export interface VerboseOptions {
  /** 0 to 3: how many -v. At 0 only a failed step's output tail is shown. */
  level: number;
  /** run-start, host-done and run-done lines: a log has them; the console's renderer already says them. */
  runLines: boolean;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function stepName(e: { host: string; task: string; target?: string }): string {
  return `${e.host} › ${e.task}${e.target ? ` (for ${e.target})` : ''}`;
}

/** A step's output tail, one line each, `stdout|` or `stderr|` before it. */
export function outputLines(prefix: string, output: { stdout: string; stderr: string; truncated: boolean }): string[] {
  const lines: string[] = [];
  if (output.truncated) lines.push(`${prefix}: (earlier output cut: the last 20 lines, 4 KiB, of each stream)`);
  for (const [name, text] of [
    ['stdout', output.stdout],
    ['stderr', output.stderr],
  ] as const) {
    if (text === '') continue;
    for (const line of text.replace(/\n$/, '').split('\n')) lines.push(`${prefix}: ${name}| ${line}`);
  }
  return lines;
}

function stepDone(e: Extract<PlayEvent, { type: 'step-done' }>, level: number): string[] {
  const failed = e.status === 'failed' || e.status === 'unreachable';
  if (level < 1 && !failed) return [];
  const name = stepName(e);
  const change =
    e.action && e.action !== 'noop' ? ` (${e.action}${e.fields.length ? ` ${e.fields.join(', ')}` : ''})` : '';
  const lines =
    level >= 1 ? [`${name}: ${e.status}${change} in ${seconds(e.durationMs)}${e.error ? `: ${e.error}` : ''}`] : [];
  if (e.output) lines.push(...outputLines(name, e.output));
  return lines;
}

/** The lines one event shows at `level`; none when the level hides it. */
export function verboseLines(e: PlayEvent, o: VerboseOptions): string[] {
  switch (e.type) {
    case 'run-start':
      return o.runLines
        ? [
            `run ${e.playbook} (${e.mode}) on ${e.hosts.length} host${e.hosts.length === 1 ? '' : 's'}${e.inventory ? `, inventory ${e.inventory}` : ''}`,
          ]
        : [];
    case 'host-start':
      return o.level >= 1 ? [`${e.host}: started`] : [];
    case 'step-start':
      return o.level >= 1 ? [`${stepName(e)}: start`] : [];
    case 'step-done':
      return stepDone(e, o.level);
    case 'host-done': {
      if (!o.runLines) return [];
      const counts = Object.entries(e.counts).filter(([, n]) => n > 0);
      return [`${e.host}: ${e.status} (${counts.map(([k, n]) => `${n} ${k}`).join(', ')})`];
    }
    case 'run-done': {
      if (!o.runLines) return [];
      const s = e.summary;
      const cut = e.interrupted ? ' (interrupted)' : '';
      return [
        `run ${e.playbook} done in ${seconds(e.durationMs)}: ${s.ok} ok, ${s.changed} changed, ${s.failed} failed, ${s.skipped} skipped, ${s.unreachable} unreachable, ${s.interrupted} interrupted${cut}`,
      ];
    }
    case 'trace': {
      if (o.level < e.level) return [];
      const [first, ...rest] = e.text.replace(/\n$/, '').split('\n');
      const tag = e.level === 2 ? 'send' : 'ssh';
      return [`${e.host} [${tag}] ${first}`, ...rest.map((l) => `${e.host} [${tag}]   ${l}`)];
    }
  }
}

export class VerboseRenderer {
  constructor(
    private readonly out: Writable,
    private readonly options: VerboseOptions,
  ) {}

  onEvent(e: PlayEvent): void {
    const lines = verboseLines(e, this.options);
    if (lines.length) this.out.write(lines.map((l) => `${l}\n`).join(''));
  }
}
