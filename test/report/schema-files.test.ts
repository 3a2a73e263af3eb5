// docs/schema/ holds exactly what `npm run schemas` (scripts/write-schemas.ts) writes from the zod
// shapes: a published schema never drifts from the reports play writes.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR, SCHEMA_FILES, schemaText } from '../../scripts/write-schemas.js';

test('every schema file is what npm run schemas writes', (t) => {
  for (const f of SCHEMA_FILES)
    t.is(readFileSync(join(SCHEMA_DIR, f.file), 'utf8'), schemaText(f), `docs/schema/${f.file}: run npm run schemas`);
});

test('docs/schema holds no JSON file the script does not write', (t) => {
  const written = SCHEMA_FILES.map((f) => f.file).sort();
  const present = readdirSync(SCHEMA_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  t.deepEqual(present, written);
});
