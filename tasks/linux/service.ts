// service({ name, state, enabled?, restart?, manager?, pidfile? }): a daemon is running or stopped.
// Fields: state, enabled (systemd only), restart.
//
// The probe picks the manager on the host: systemd where it is PID 1 (service-systemd.ts), else
// the pidfile manager (service-pidfile.ts) when `pidfile` options are given. `manager` forces
// one. `enabled` means "starts at boot", which only systemd provides: with the pidfile manager it
// draws a warning and is otherwise ignored. `restart: true` (for triggered tasks, like a handler)
// restarts a running service every time the step runs, so such a step does not converge by
// design (the apply itself checks that the restarted daemon is live). Outputs: { pid } of the
// running daemon (systemd's MainPID; the pidfile's pid), null when stopped.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { RemoteError } from '../../runner/core/errors.js';
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import { mustRun } from '../../runner/core/remote.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { nonEmpty, oneOf, readOptions } from '../../runner/core/step-options.js';
import { ProbeLines } from './probe-lines.js';
import { parsePidfileProbe, pidfileActionScript, pidfileProbeScript, PidfileOptions } from './service-pidfile.js';
import { parseSystemdProbe, SYSTEMD_MARKER, systemdActionScript, systemdProbeScript } from './service-systemd.js';

export interface ServiceActual {
  /** null: neither manager can be used on this host (the reason is in detail). */
  readonly manager: 'systemd' | 'pidfile' | null;
  readonly running: boolean;
  readonly pid: number | null;
  /** systemd only. */
  readonly enabled: boolean | null;
  readonly detail: string;
  /** systemd: there is no such unit. */
  readonly missing?: boolean;
}

export interface ServiceOutputs {
  pid: number | null;
}

const KIND = 'linux.service';
const UNIT = /^[A-Za-z0-9:_.@\\-]{1,255}$/;

const Options = z
  .strictObject({
    /** The systemd unit (`keepalived` or `keepalived.service`); a label for the pidfile manager. */
    name: nonEmpty().refine((n) => UNIT.test(n) && !n.startsWith('-'), {
      error: (iss) =>
        `must be a service (unit) name such as keepalived or keepalived.service, got ${JSON.stringify(String(iss.input).slice(0, 60))}`,
    }),
    state: oneOf('running', 'stopped'),
    enabled: z.boolean().optional(),
    restart: z.boolean().default(false),
    manager: oneOf('auto', 'systemd', 'pidfile').default('auto'),
    /** Needed where systemd is not PID 1: see service-pidfile.ts (and keepalivedPidfile()). */
    pidfile: PidfileOptions.optional(),
  })
  .superRefine((o, ctx) => {
    if (o.restart && o.state !== 'running')
      ctx.addIssue({
        code: 'custom',
        path: ['restart'],
        message: "needs state 'running' (a restart of a service that must be stopped)",
      });
    else if (o.manager === 'pidfile' && o.pidfile === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['pidfile'],
        message: "is required with manager 'pidfile' ({ command, pidFile, ... })",
      });
  })
  .transform(({ enabled, pidfile, ...rest }) => ({
    ...rest,
    ...(enabled === undefined ? {} : { enabled }),
    ...(pidfile === undefined ? {} : { pidfile }),
  }));

export type ServiceOptions = z.input<typeof Options>;
export type ServiceDesired = Readonly<z.output<typeof Options>>;

export function diffService(d: Readonly<ServiceDesired>, a: ServiceActual | null): Change {
  if (a === null) throw new Error('a service probe always reports a state');
  const warnings: string[] = [];
  const fields: string[] = [];
  const before: Fields = {},
    after: Fields = {};
  if (a.manager === null) warnings.push(`${a.detail}: apply will fail`);
  if (a.missing) warnings.push(`systemd has no unit ${d.name} on this host: apply will fail (install it first)`);
  const want = d.state === 'running';
  if (a.running !== want) {
    fields.push('state');
    before.state = a.running ? `running (${a.detail})` : `stopped (${a.detail})`;
    after.state = d.state;
  }
  if (d.enabled !== undefined) {
    if (a.manager === 'pidfile')
      warnings.push(
        'enabled has no meaning for the pidfile manager (nothing starts the daemon at boot without systemd): ignored',
      );
    else if (a.manager === 'systemd' && a.enabled !== d.enabled) {
      fields.push('enabled');
      before.enabled = a.enabled;
      after.enabled = d.enabled;
    }
  }
  if (d.restart && want && a.running) {
    fields.push('restart');
    before.restart = `pid ${a.pid ?? 'unknown'}`;
    after.restart = 'restarted';
  }
  if (fields.length === 0) return warnings.length ? { ...NOOP, warnings } : NOOP;
  return {
    action: fields.includes('restart') ? 'run' : 'update',
    fields,
    before,
    after,
    ...(warnings.length ? { warnings } : {}),
  };
}

function probeScript(d: ServiceDesired): Script {
  const pidfile = d.pidfile
    ? joinScripts('sh', [sh`echo 'manager pidfile'`, pidfileProbeScript(d.pidfile)])
    : sh`echo ${`manager none ${d.manager === 'systemd' ? 'systemd is not running on this host' : 'systemd is not running on this host and no pidfile options were given'}`}`;
  if (d.manager === 'pidfile') return pidfile;
  const other = d.manager === 'systemd' ? sh`echo 'manager none systemd is not running on this host'` : pidfile;
  return sh`if [ -d ${SYSTEMD_MARKER} ]; then
${systemdProbeScript(d.name)}
else
${other}
fi`;
}

export function parseServiceProbe(lines: ProbeLines, d: ServiceDesired): ServiceActual {
  const manager = lines.record('manager');
  if (manager.startsWith('none '))
    return { manager: null, running: false, pid: null, enabled: null, detail: manager.slice(5) };
  if (manager === 'systemd') {
    const s = parseSystemdProbe(lines);
    return { manager, running: s.running, pid: s.pid, enabled: s.enabled, detail: s.detail, missing: s.missing };
  }
  if (manager === 'pidfile' && d.pidfile) {
    const s = parsePidfileProbe(lines, d.pidfile);
    return { manager, running: s.running, pid: s.pid, enabled: null, detail: s.detail };
  }
  return lines.fail(`unexpected manager ${JSON.stringify(manager)}`);
}

function readPid(result: ExecResult, what: string): number | null {
  const m = /^pid ([0-9]+)$/m.exec(result.stdout);
  if (!m)
    throw new RemoteError(`${what}: no pid in the output ${JSON.stringify(result.stdout.slice(-200))}`, result.code);
  return m[1] === '0' ? null : Number(m[1]);
}

// Long because a step factory is one object: options read and checked, then probe, diff, apply and
// outputs side by side (docs/adding-a-step.md), each short.
export function service(options: ServiceOptions): ShellStep<ServiceDesired, ServiceActual, ServiceOutputs> {
  const desired: ServiceDesired = Object.freeze(readOptions(KIND, Options, options));
  const { name, restart } = desired;
  const title = `service ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: !restart,
    probe: () => ({
      script: probeScript(desired),
      parse: (result: ExecResult) => {
        const lines = new ProbeLines(title, result);
        const actual = parseServiceProbe(lines, desired);
        lines.end();
        return actual;
      },
    }),
    diff: diffService,
    async apply(
      remote: Remote,
      change: Change,
      actual: ServiceActual | null,
      d: Readonly<ServiceDesired>,
    ): Promise<ServiceOutputs> {
      if (!actual?.manager) throw new Error(`${title}: ${actual?.detail ?? 'not probed'}`);
      const start = d.state === 'running';
      let enable: boolean | undefined,
        stateChange = false,
        restartNow = false;
      await applyFields(change, ['state', 'enabled', 'restart'], {
        state: async () => {
          stateChange = true;
        },
        enabled: async () => {
          enable = d.enabled;
        },
        restart: async () => {
          restartNow = true;
        },
      });
      // The setters only collect: systemd does enable and start in one `enable --now`.
      if (actual.manager === 'systemd') {
        const script = systemdActionScript(d.name, {
          start: stateChange && start,
          stop: stateChange && !start,
          restart: restartNow,
          enable,
          expectRunning: start,
        });
        const result = await mustRun(remote, script, `${title}: systemctl`);
        return { pid: start ? readPid(result, title) : null };
      }
      if (!stateChange && !restartNow) return { pid: actual.pid };
      const action = restartNow ? 'restart' : start ? 'start' : 'stop';
      const result = await mustRun(remote, pidfileActionScript(d.pidfile!, d.name, action), `${title}: ${action}`);
      return { pid: start ? readPid(result, title) : null };
    },
    outputs: (_d: Readonly<ServiceDesired>, a: ServiceActual | null): ServiceOutputs => ({
      pid: a?.running ? a.pid : null,
    }),
  });
}
