// The JSON reports' shapes, declared once with zod: a playbook run (`kind: 'run'`), a rolling run
// ('rolling') and a drift run ('drift'). scripts/write-schemas.ts writes docs/schema/report.schema.json
// from them, the tests validate every report the suite writes against that file, and
// schema-agreement.ts makes the compiler hold these shapes and the report types to each other.
// Loaded by the schema script and the tests only, never by the CLI (zod's start-up cost stays out of it).
import { z } from 'zod';
import { ACTIONS } from '../../core/change.js';
import { REPORT_SCHEMA_VERSION } from '../schema-version.js';

const isoTime = z.string().meta({ description: 'an ISO 8601 time in UTC, as Date.prototype.toISOString writes it' });
const count = z.int().nonnegative();
const milliseconds = z.number().meta({ description: 'a duration in milliseconds' });
const fields = z
  .record(z.string(), z.unknown())
  .meta({ description: 'field values by name, secrets already masked (********)' });
const action = z.enum(ACTIONS);

/** The six host counters every report has: each host once, by its outcome. */
const summaryFields = {
  ok: count,
  changed: count,
  failed: count,
  skipped: count,
  unreachable: count,
  interrupted: count,
};

export const summarySchema = z.object(summaryFields).meta({
  id: 'Summary',
  description: 'Hosts by outcome, each host counted once (docs/reports.md#the-summary)',
});

export const stepReportSchema = z
  .object({
    task: z.string(),
    target: z.string().optional().meta({ description: 'the host the task ran for, when it ran elsewhere' }),
    kind: z.string().nullable(),
    title: z.string().nullable(),
    action: action.nullable(),
    fields: z.array(z.string()),
    before: fields.nullable(),
    after: fields.nullable(),
    textDiff: z.string().optional(),
    warnings: z.array(z.string()).optional(),
    status: z.enum(['ok', 'changed', 'failed', 'skipped', 'unreachable', 'unknown']),
    skip: z
      .enum(['not-triggered', 'would-run', 'dependency', 'unmet', 'interrupted', 'not-selected', 'input-not-run'])
      .optional(),
    durationMs: milliseconds,
    error: z.string().nullable(),
    output: z
      .object({ stdout: z.string(), stderr: z.string(), truncated: z.boolean() })
      .optional()
      .meta({ description: "the end of what the step's apply commands wrote, masked" }),
  })
  .meta({ id: 'StepReport', description: 'One task on one host' });

export const hostReportSchema = z
  .object({
    status: z.enum(['ok', 'changed', 'failed', 'unreachable', 'skipped', 'interrupted']),
    steps: z.array(stepReportSchema),
  })
  .meta({ id: 'HostReport' });

const envelope = { schemaVersion: z.literal(REPORT_SCHEMA_VERSION) };

export const runReportSchema = z
  .object({
    ...envelope,
    kind: z.literal('run'),
    playbook: z.string(),
    mode: z.enum(['apply', 'check']),
    startedAt: isoTime,
    durationMs: milliseconds,
    interrupted: z.boolean(),
    hosts: z.record(z.string(), hostReportSchema),
    summary: summarySchema,
  })
  .meta({ id: 'RunReport', description: 'play PLAYBOOK --json / --report FILE' });

const phaseSpan = z.object({
  phase: z.string(),
  startedAt: isoTime,
  endedAt: isoTime.nullable(),
  detail: z.string().nullable(),
});

export const rolloutReportSchema = z
  .object({
    ...envelope,
    kind: z.literal('rolling'),
    run: z.int(),
    playbook: z.string(),
    status: z.enum(['running', 'paused', 'interrupted', 'done', 'stopped', 'failed']),
    reason: z.string().nullable(),
    startedAt: isoTime,
    updatedAt: isoTime,
    controller: z.string(),
    summary: z
      .object({ ...summaryFields, batches: count.meta({ description: 'batches that started' }) })
      .meta({ id: 'RolloutSummary' }),
    budget: z.object({ allowed: count, failed: count }),
    plan: z.unknown().meta({ description: 'the batch plan as the run recorded it' }),
    batches: z.array(
      z.object({
        batch: z.int(),
        hosts: z.array(z.string()),
        startedAt: isoTime,
        endedAt: isoTime.nullable(),
        gate: z.string().nullable(),
      }),
    ),
    hosts: z.record(
      z.string(),
      z.object({
        outcome: z.enum(['pending', 'done', 'ok', 'waived', 'failed']),
        batch: z.int().nullable(),
        reason: z.string().nullable(),
        cordonedMs: milliseconds.nullable(),
        phases: z.array(phaseSpan),
      }),
    ),
    readyToNextBatchMs: z.array(milliseconds),
  })
  .meta({ id: 'RolloutReport', description: 'a rolling run: play PLAYBOOK --json (not --check), play resume --json' });

const driftItem = z.object({
  host: z.string(),
  playbook: z.string(),
  task: z.string(),
  target: z.string().optional(),
  kind: z.string().nullable(),
  title: z.string().nullable(),
  action: z.union([action, z.literal('unknown')]),
  fields: z.array(z.string()),
  before: fields.nullable(),
  after: fields.nullable(),
  textDiff: z.string().optional(),
  unknownReason: z.string().optional(),
  status: z.enum(['new', 'persisting', 'resolved']),
  firstSeen: isoTime,
  waiver: z.object({ reason: z.string(), expires: z.string(), expired: z.boolean(), source: z.string() }).optional(),
});

export const driftReportSchema = z
  .object({
    ...envelope,
    kind: z.literal('drift'),
    id: z.int(),
    startedAt: isoTime,
    durationMs: milliseconds,
    playbooks: z.array(z.string()),
    skipped: z
      .array(z.object({ playbook: z.string(), reason: z.string() }))
      .optional()
      .meta({ description: 'playbooks asked for that were not checked, and why' }),
    inventory: z.string(),
    controller: z.string().optional(),
    hosts: z.array(z.string()),
    hostStatus: z.record(z.string(), z.enum(['drifted', 'ok', 'unreachable', 'failed'])),
    counts: z.object({
      new: count,
      persisting: count,
      resolved: count,
      waived: count,
      drifted: count,
      unreachable: count,
      failed: count,
    }),
    summary: z
      .object({ ...summaryFields, driftedItems: count.meta({ description: 'items that count as drift' }) })
      .meta({ id: 'DriftSummary' }),
    exitCode: z.union([z.literal(0), z.literal(2), z.literal(3), z.literal(4)]),
    notifyError: z.string().optional(),
    warnings: z.array(z.string()),
    problems: z.array(
      z.object({
        host: z.string(),
        kind: z.enum(['unreachable', 'failed']),
        task: z.string().optional(),
        playbook: z.string().optional(),
        message: z.string(),
      }),
    ),
    items: z.array(driftItem),
  })
  .meta({ id: 'DriftReport', description: 'play drift --json' });

/** Any report: `kind` says which. */
export const reportSchema = z
  .discriminatedUnion('kind', [runReportSchema, rolloutReportSchema, driftReportSchema])
  .meta({
    title: 'play report',
    description: `A JSON report of play, schemaVersion ${REPORT_SCHEMA_VERSION}: a playbook run, a rolling run or a drift run (docs/reports.md)`,
  });
