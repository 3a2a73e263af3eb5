// Every JSON report is checked against the published schema (docs/schema/report.schema.json) by an
// independent validator, ajv: the unit tests' reports, and every report the suite writes through the
// CLI (play() in play.ts calls reportsWrittenBy). The suite holds play to the schema exactly: an object
// here may carry no field the schema does not name, though the published schema leaves objects open
// for readers of later versions (docs/reports.md).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

const SCHEMA_FILE = 'docs/schema/report.schema.json';
const SCHEMA_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../..', SCHEMA_FILE);

type JsonSchema = { [k: string]: unknown };

/** The schema with every object closed to fields it does not name. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

let validators: { any: ValidateFunction; byKind: Map<string, ValidateFunction> } | undefined;

/** One validator per report kind (read from the schema's oneOf), so an error names that kind's fields only. */
function compile() {
  const schema = closed(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'))) as JsonSchema;
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addSchema(schema, 'report');
  const byKind = new Map<string, ValidateFunction>();
  const defs = schema.$defs as Record<string, { properties?: { kind?: { const?: string } } }>;
  for (const { $ref } of schema.oneOf as { $ref: string }[]) {
    const kind = defs[$ref.replace('#/$defs/', '')]?.properties?.kind?.const;
    if (kind) byKind.set(kind, ajv.getSchema(`report${$ref}`)!);
  }
  return { any: ajv.getSchema('report')!, byKind };
}

const errorText = (e: ErrorObject) =>
  `${e.instancePath || '(top level)'} ${e.message}${e.keyword === 'additionalProperties' ? ` '${(e.params as { additionalProperty: string }).additionalProperty}'` : ''}`;

/** Throws, naming `what` and each schema error's path, unless `json` is a valid report. */
export function assertValidReport(json: unknown, what: string): void {
  validators ??= compile();
  const kind = (json as { kind?: unknown } | null)?.kind;
  const validate = (typeof kind === 'string' && validators.byKind.get(kind)) || validators.any;
  if (validate(json)) return;
  const errors = (validate.errors ?? []).slice(0, 8).map(errorText);
  throw new Error(`${what} does not match ${SCHEMA_FILE} (kind ${String(kind)}):\n  ${errors.join('\n  ')}`);
}

/** Commands that never print or write a report (their --json is other JSON: a listing, an inventory, a state check). */
const NOT_REPORTS = new Set(['inventory', 'hosts', 'list', 'graph', 'init', 'lab', 'state', 'config', 'completion']);

const flag = (args: readonly string[], name: string) => args.includes(name);

/** The value of `--name FILE` or `--name=FILE`. */
function optionValue(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** A rolling playbook's --check prints its batch plan, not a report: the one JSON a playbook run prints that is not. */
function isRollingPlan(args: readonly string[], json: unknown): boolean {
  const checking = args.some((a) => a === '--check' || /^-[A-Za-z]*C[A-Za-z]*$/.test(a));
  const o = json as Record<string, unknown>;
  return checking && !('kind' in o) && 'plan' in o && 'policy' in o && 'allowedFailures' in o;
}

/** The JSON documents on stdout: one, or one per run of `play drift --every`. */
const documents = (stdout: string) => stdout.split(/(?<=\n\})\n(?=\{\n)/);

/**
 * Validates the reports a `play` command line wrote: on stdout with --json (a playbook run, a rolling
 * run, `play resume`, `play rollouts show`, `play drift` but not its history or show) and the file of
 * --report. The command is the first word of `args` (the suite writes it first).
 */
export function checkReportsWrittenBy(args: readonly string[], cwd: string, stdout: string): void {
  const command = args.find((a) => !a.startsWith('-')) ?? '';
  const what = `the report of play ${args.join(' ')}`;
  if (NOT_REPORTS.has(command)) return;
  if (command === 'drift' && ['history', 'show'].includes(args[args.indexOf('drift') + 1] ?? '')) return;
  if (command === 'rollouts' && !flag(args, 'show')) return;
  if (flag(args, '--json') && stdout.trim() !== '')
    for (const doc of documents(stdout)) {
      let json: unknown;
      try {
        json = JSON.parse(doc);
      } catch (e) {
        throw new Error(`${what}: stdout is not JSON (${(e as Error).message}):\n${doc.slice(0, 500)}`);
      }
      if (!isRollingPlan(args, json)) assertValidReport(json, `${what} (stdout)`);
    }
  const file = optionValue(args, '--report');
  if (file && existsSync(resolve(cwd, file)))
    assertValidReport(JSON.parse(readFileSync(resolve(cwd, file), 'utf8')), `${what} (${file})`);
}
