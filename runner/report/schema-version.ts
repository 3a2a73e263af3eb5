// The version of the JSON report format that every report kind (a playbook run, a rolling run, a drift
// run) carries as `schemaVersion`. Adding a field keeps the version (readers ignore fields they do not
// know); removing or renaming a field, or changing its type or meaning, is a breaking change: bump it
// then, regenerate docs/schema (npm run schemas) and say what changed in docs/reports.md.
export const REPORT_SCHEMA_VERSION = 1;

/** What a report is of: `kind` tells a reader which shape follows (docs/schema/report.schema.json). */
export type ReportKind = 'run' | 'rolling' | 'drift';
