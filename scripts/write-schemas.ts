// `npm run schemas`: writes the JSON Schema files in docs/schema/ from the zod shapes they document.
// test/report/schema-files.test.ts fails when a file differs from what this would write, so the
// published schemas stay true. Another schema is one more entry in SCHEMA_FILES.
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ZodType, z } from 'zod';
import { reportSchema } from '../runner/report/schema/report-schema.js';
import { playEventSchema } from '../runner/report/schema/event-schema.js';

export const SCHEMA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../docs/schema');

export interface SchemaFile {
  /** The file's name in docs/schema/. */
  readonly file: string;
  readonly schema: ZodType;
}

export const SCHEMA_FILES: readonly SchemaFile[] = [
  { file: 'report.schema.json', schema: reportSchema },
  { file: 'events.schema.json', schema: playEventSchema },
];

/** The file's text: the JSON Schema (draft 2020-12) of the shape, objects left open to fields added later. */
export function schemaText({ schema }: SchemaFile): string {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    // A later play may add fields without a new schemaVersion (docs/reports.md): readers must accept them.
    override: (ctx) => {
      if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
    },
  });
  return `${JSON.stringify(json, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  for (const f of SCHEMA_FILES) {
    writeFileSync(resolve(SCHEMA_DIR, f.file), schemaText(f));
    process.stdout.write(`wrote docs/schema/${f.file}\n`);
  }
}
