// windows.scheduledTask: a task of the Task Scheduler (ScheduledTasks module), e.g. one that runs a
// script at startup to re-create the HNS network, or a daily clean-up. Fields: execute, arguments
// (its one action), trigger (at startup, or daily at HH:mm), user (default SYSTEM), enabled; with
// state 'absent' the task is unregistered. The probe is Get-ScheduledTask; apply registers a new task
// or sets only the changed parts (Set-ScheduledTask), then enables or disables it.
import { z } from 'zod';
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { describeValue, nonEmpty, readOptions } from '../../../../runner/core/step-options.js';
import { invoke, probeCall } from '../../remote/calls.js';
import type { FunctionArgs, FunctionResult } from '../step-remote.js';
import { SCHEDULED_TASK_REMOTE as REMOTE } from './remote.js';

const KIND = 'windows.scheduledTask';
/** What Windows refuses in a task's name (and `\`, its folder separator). */
const NAME = /^[^\\/:*?"<>|\u0000-\u001f]{1,238}$/;
const FOLDER = /^\\(?:[^\\/:*?"<>|\u0000-\u001f]+\\)*$/;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
/** An account: `SYSTEM`, `NT AUTHORITY\NETWORK SERVICE`, `Administrator`, `MYDOMAIN\svc-k8s`. */
const ACCOUNT = /^(?:[A-Za-z0-9][A-Za-z0-9 ._-]*\\)?[A-Za-z0-9_][A-Za-z0-9 ._$-]*$/;

const refused = (pattern: RegExp, what: string) =>
  z.string().refine((v) => pattern.test(v), { error: (iss) => `must be ${what}, got ${describeValue(iss.input)}` });

const triggerError = (iss: { input?: unknown }) =>
  `must be 'atStartup' or { daily: 'HH:mm' }, got ${describeValue(iss.input)}`;
const TRIGGER = z.union(
  [z.literal('atStartup', { error: triggerError }), z.strictObject({ daily: refused(TIME, 'a time of day HH:mm') })],
  { error: triggerError },
);

const OPTIONS = z
  .strictObject({
    name: refused(NAME, 'a task name (no \\ / : * ? " < > |)'),
    /** The task's folder, `\` (the root) or `\Play\`; the trailing `\` may be left out. */
    path: z
      .string()
      .default('\\')
      .transform((v) => (v.endsWith('\\') ? v : `${v}\\`))
      .refine((v) => FOLDER.test(v), {
        error: (iss) => `must be a task folder such as \\ or \\Play\\, got ${describeValue(iss.input)}`,
      }),
    state: z.enum(['present', 'absent']).default('present'),
    execute: nonEmpty()
      .refine((v) => !/[\r\n]/.test(v), { error: 'must be one line' })
      .optional(),
    arguments: z
      .string()
      .refine((v) => !/[\r\n]/.test(v), { error: 'must be one line' })
      .default(''),
    trigger: TRIGGER.optional(),
    user: refused(ACCOUNT, 'an account such as SYSTEM, NT AUTHORITY\\NETWORK SERVICE or DOMAIN\\user').default(
      'SYSTEM',
    ),
    enabled: z.boolean().default(true),
  })
  .superRefine((o, ctx) => {
    if (o.state === 'absent') return;
    for (const field of ['execute', 'trigger'] as const)
      if (o[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: "is required unless state is 'absent'" });
  });

export type ScheduledTaskOptions = z.input<typeof OPTIONS>;

type SetTaskArgs = FunctionArgs<(typeof REMOTE)['Set-PlayScheduledTask']>;

export type ScheduledTrigger = NonNullable<SetTaskArgs['trigger']>;

/** The fields a task has, as the step compares them (the trigger as text: `at startup`, `daily at 03:00`). */
export interface ScheduledTaskFields {
  readonly execute: string;
  readonly arguments: string;
  readonly trigger: string;
  readonly user: string;
  readonly enabled: boolean;
}

export interface ScheduledTaskDesired {
  readonly name: string;
  readonly path: string;
  /** null: the task must be absent. */
  readonly task: ScheduledTaskFields | null;
  readonly trigger: ScheduledTrigger | null;
}

const FIELDS = ['execute', 'arguments', 'trigger', 'user', 'enabled'] as const;

function triggerText(t: ScheduledTrigger): string {
  return t.kind === 'atStartup' ? 'at startup' : `daily at ${t.at}`;
}

/** `NT AUTHORITY\SYSTEM` is shown as SYSTEM, as Principal.UserId shows it. */
function accountName(user: string): string {
  return user.replace(/^NT AUTHORITY\\/i, '');
}

/** What Get-ScheduledTask showed, as the step's fields; a trigger it does not make is named by its CIM class. */
function readTask(value: FunctionResult<(typeof REMOTE)['Get-PlayScheduledTask']>): ScheduledTaskFields | null {
  if (value === null) return null;
  const action = value.actions[0];
  const triggers = value.triggers.map((t) => {
    const at = /T(\d\d:\d\d)/.exec(t.startBoundary)?.[1];
    if (t.type === 'MSFT_TaskBootTrigger') return 'at startup';
    if (t.type === 'MSFT_TaskDailyTrigger' && t.daysInterval === 1 && at) return `daily at ${at}`;
    return `${t.type.replace(/^MSFT_Task/, '')} ${t.startBoundary}`.trim();
  });
  return {
    execute: value.actions.length === 1 ? action!.execute : value.actions.map((a) => a.execute).join(' & '),
    arguments: action?.arguments ?? '',
    trigger: triggers.join(' & ') || '(none)',
    user: value.userId,
    enabled: value.state !== 'Disabled',
  };
}

const sameField = (f: (typeof FIELDS)[number], d: ScheduledTaskFields, a: ScheduledTaskFields): boolean =>
  f === 'user'
    ? accountName(d.user).toLowerCase() === accountName(a.user).toLowerCase()
    : f === 'execute'
      ? d.execute.toLowerCase() === a.execute.toLowerCase()
      : d[f] === a[f];

function diffScheduledTask(d: ScheduledTaskDesired, a: ScheduledTaskFields | null): Change {
  if (d.task === null) {
    if (a === null) return NOOP;
    return {
      action: 'delete',
      fields: ['task'],
      before: { task: `${a.execute} (${a.trigger})` },
      after: { task: null },
    };
  }
  const want = d.task;
  if (a === null) return { action: 'create', fields: [...FIELDS], before: null, after: { ...want } };
  const fields = FIELDS.filter((f) => !sameField(f, want, a));
  if (fields.length === 0) return NOOP;
  const before: Fields = {};
  const after: Fields = {};
  for (const f of fields) {
    before[f] = a[f];
    after[f] = want[f];
  }
  return { action: 'update', fields, before, after };
}

/** The Set-PlayScheduledTask arguments for the changed fields (execute and arguments are one action: both go). */
function setArgs(d: ScheduledTaskDesired, change: Change): SetTaskArgs {
  const task = d.task!;
  const has = (f: string) => change.fields.includes(f);
  return {
    name: d.name,
    path: d.path,
    create: change.action === 'create',
    ...(has('execute') || has('arguments') ? { execute: task.execute, arguments: task.arguments } : {}),
    ...(has('trigger') ? { trigger: d.trigger! } : {}),
    ...(has('user') ? { user: task.user } : {}),
    ...(has('enabled') ? { enabled: task.enabled } : {}),
  };
}

export function scheduledTask(options: ScheduledTaskOptions): Step<ScheduledTaskDesired, ScheduledTaskFields> {
  const o = readOptions(KIND, OPTIONS, options);
  const trigger: ScheduledTrigger | null =
    o.trigger === undefined
      ? null
      : o.trigger === 'atStartup'
        ? { kind: 'atStartup' }
        : { kind: 'daily', at: o.trigger.daily };
  const task =
    o.state === 'absent'
      ? null
      : Object.freeze({
          execute: o.execute!,
          arguments: o.arguments,
          trigger: triggerText(trigger!),
          user: o.user,
          enabled: o.enabled,
        });
  const desired: ScheduledTaskDesired = Object.freeze({ name: o.name, path: o.path, task, trigger });
  const title = `scheduled task ${o.path}${o.name}`;
  const where = { name: o.name, path: o.path };
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayScheduledTask'], where, readTask),
    diff: diffScheduledTask,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, _actual: unknown, d: ScheduledTaskDesired): Promise<void> {
      if (change.action === 'delete') {
        await invoke(remote, REMOTE['Remove-PlayScheduledTask'], where, `${title}: Unregister-ScheduledTask`);
        return;
      }
      const verb = change.action === 'create' ? 'Register-ScheduledTask' : 'Set-ScheduledTask';
      await invoke(remote, REMOTE['Set-PlayScheduledTask'], setArgs(d, change), `${title}: ${verb}`);
    },
  });
}
