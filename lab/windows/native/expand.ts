// expand.exe -F:* SRC DST on the simulated node: extracts an .msu the model's catalogue knows
// (state.msuCatalogue, by file name) into the existing directory DST (msu-contents.ts). Texts as
// expand prints them in public transcripts (lab/windows/README.md, "what the surface cannot show"):
// the banner, one "Adding DST\x to Extraction Queue" per file, "N files total."; a missing source is
// "Can't open input file: SRC.". Exit codes other than 0 are a guess (1).
import { fileExists, isDirectory, readFile, writeFile } from '../file-store.js';
import { baseName, filePath } from '../win-paths.js';
import { msuContents } from './msu-contents.js';
import { crlf, type NativeProgram, type NativeResult } from './program.js';

const BANNER = [
  'Microsoft (R) File Expansion Utility',
  'Copyright (c) Microsoft Corporation. All rights reserved.',
  '',
];

const failure = (line: string): NativeResult => ({ code: 1, stdout: crlf([...BANNER, line, '']) });

export const expand: NativeProgram = (node, argv) => {
  const s = node.state;
  const flags = argv.filter((a) => a.startsWith('-'));
  const names = argv.filter((a) => !a.startsWith('-'));
  if (flags.length !== 1 || flags[0]!.toUpperCase() !== '-F:*' || names.length !== 2)
    throw new Error(
      `the simulated expand.exe models only -F:* SRC DST, not ${argv.join(' ')} (lab/windows/native/expand.ts)`,
    );
  const [src, dst] = names as [string, string];
  if (!fileExists(s, src)) return failure(`Can't open input file: ${src}.`);
  const to = filePath(dst);
  if (!isDirectory(s, to)) return failure('Destination directory required for a multi-file CAB.');
  const msu = s.msuCatalogue[baseName(filePath(src)).toLowerCase()];
  if (!msu) {
    // Not a cabinet: expand copies a plain file as it is.
    const name = baseName(filePath(src));
    writeFile(s, `${to.display}\\${name}`, readFile(s, src)!);
    return { code: 0, stdout: crlf([...BANNER, `Copying ${src} to ${to.display}\\${name}.`, '']) };
  }
  const files = msuContents(msu);
  const queued: string[] = [];
  for (const f of files) {
    const path = `${to.display}\\${f.name}`;
    writeFile(s, path, f.content);
    queued.push(`Adding ${path} to Extraction Queue`);
  }
  const lines = [...BANNER, ...queued, '', 'Expanding Files ....', '', 'Expanding Files Complete ...'];
  return { code: 0, stdout: crlf([...lines, `${files.length} files total.`]) };
};
