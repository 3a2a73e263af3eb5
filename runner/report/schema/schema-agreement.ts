// The compiler holds the report types (what the builders return) and the zod shapes (what the
// published JSON Schema says) to each other: a field added to one and not the other, or of another
// type, is a type error here. Types only; nothing runs.
import type { z } from 'zod';
import type { DriftReport } from '../../drift/report/json.js';
import type { RolloutReport } from '../../rolling/report.js';
import type { RunReport, Summary } from '../model.js';
import type { driftReportSchema, rolloutReportSchema, runReportSchema, summarySchema } from './report-schema.js';

/** Without readonly and optional marks, so that only names and value types are compared. */
type Plain<T> = T extends readonly (infer U)[]
  ? Plain<U>[]
  : T extends object
    ? { -readonly [K in keyof T]-?: Plain<Exclude<T[K], undefined>> }
    : T;

type Same<A, B> = [Plain<A>] extends [Plain<B>] ? ([Plain<B>] extends [Plain<A>] ? true : false) : false;

/** A type error names the report whose type and schema differ. */
type Agrees<T extends true> = T;

export type ReportTypesAgreeWithSchema = [
  Agrees<Same<Summary, z.infer<typeof summarySchema>>>,
  Agrees<Same<RunReport, z.infer<typeof runReportSchema>>>,
  Agrees<Same<RolloutReport, z.infer<typeof rolloutReportSchema>>>,
  Agrees<Same<DriftReport, z.infer<typeof driftReportSchema>>>,
];
