// The shapes of the run's event stream (`--events FILE|-`, JSON Lines), declared once with zod: the
// TypeScript types come from here, and docs/schema/events.schema.json is written from here
// (scripts/write-schemas.ts), so the documentation cannot drift from the code.
import { z } from 'zod';

const STEP_STATUSES = ['ok', 'changed', 'failed', 'skipped', 'unreachable', 'unknown'] as const;
const HOST_STATUSES = ['ok', 'changed', 'failed', 'unreachable', 'skipped', 'interrupted'] as const;
const ACTIONS = ['noop', 'create', 'update', 'delete', 'replace', 'run'] as const;

const base = {
  ts: z.iso.datetime({ offset: true }).describe('when it happened (ISO 8601, UTC)'),
};
const hostName = z.string().describe('the host the step runs on (inventory name)');

/** The end of what a step's apply commands wrote: the last lines, masked. */
export const outputTailSchema = z
  .object({
    stdout: z.string(),
    stderr: z.string(),
    truncated: z.boolean().describe('true when earlier output was cut (each stream keeps its last 20 lines, 4 KiB)'),
  })
  .strict();

const counts = z.object({
  ok: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  unreachable: z.number().int().nonnegative(),
  unknown: z.number().int().nonnegative(),
});

const summary = z.object({
  ok: z.number().int().nonnegative(),
  changed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  unreachable: z.number().int().nonnegative(),
  interrupted: z.number().int().nonnegative(),
});

export const runStartSchema = z
  .object({
    ...base,
    type: z.literal('run-start'),
    playbook: z.string(),
    mode: z.enum(['apply', 'check']),
    hosts: z.array(z.string()),
    inventory: z.string().optional().describe('the first inventory source, when known'),
  })
  .strict();

export const hostStartSchema = z.object({ ...base, type: z.literal('host-start'), host: hostName }).strict();

export const stepStartSchema = z
  .object({
    ...base,
    type: z.literal('step-start'),
    host: hostName,
    task: z.string(),
    target: z.string().optional().describe('the host the task runs for, when delegated'),
  })
  .strict();

export const stepDoneSchema = z
  .object({
    ...base,
    type: z.literal('step-done'),
    host: hostName,
    task: z.string(),
    target: z.string().optional(),
    kind: z.string().nullable(),
    title: z.string().nullable(),
    status: z.enum(STEP_STATUSES),
    skip: z.string().optional().describe("with status skipped: why (the report's SkipReason, e.g. dependency)"),
    action: z.enum(ACTIONS).nullable(),
    fields: z.array(z.string()),
    durationMs: z.number().nonnegative(),
    error: z.string().nullable(),
    output: outputTailSchema.optional(),
  })
  .strict();

export const hostDoneSchema = z
  .object({ ...base, type: z.literal('host-done'), host: hostName, status: z.enum(HOST_STATUSES), counts })
  .strict();

export const runDoneSchema = z
  .object({
    ...base,
    type: z.literal('run-done'),
    playbook: z.string(),
    summary,
    durationMs: z.number().nonnegative(),
    interrupted: z.boolean(),
  })
  .strict();

/** -vv and -vvv detail: what is sent to a host (level 2), the connection's life (level 3). */
export const traceSchema = z
  .object({
    ...base,
    type: z.literal('trace'),
    level: z.union([z.literal(2), z.literal(3)]),
    host: z.string(),
    text: z.string(),
  })
  .strict();

export const playEventSchema = z
  .discriminatedUnion('type', [
    runStartSchema,
    hostStartSchema,
    stepStartSchema,
    stepDoneSchema,
    hostDoneSchema,
    runDoneSchema,
    traceSchema,
  ])
  .describe('One line of `play --events`: an event of a run, with its ISO timestamp `ts` and its `type`.');

export type PlayEvent = z.infer<typeof playEventSchema>;
export type OutputTail = z.infer<typeof outputTailSchema>;
export type StepCounts = z.infer<typeof counts>;
