// The step folders' test data (tasks/windows/steps/<step>/cases.ts), found by that file name: each
// folder's function cases (run under real PowerShell by test/lab/windows) and its syntax cases (run
// by ps-syntax.test.ts). A new folder is picked up without a line here.
import { existsSync, readdirSync } from 'node:fs';
import type { StepCases, StepRemote, SyntaxCases } from '../../../tasks/windows/steps/step-remote.js';

export interface StepFolderCases {
  /** The folder's name: `time-zone`. */
  readonly folder: string;
  readonly CASES: StepCases<StepRemote>;
  /** Absent: the folder's factory has no syntax cases, which ps-syntax.test.ts reports. */
  readonly SYNTAX_CASES?: SyntaxCases;
}

const STEPS = new URL('../../../tasks/windows/steps/', import.meta.url);

/** Every step folder's cases.ts, in folder order. */
export const STEP_FOLDER_CASES: readonly StepFolderCases[] = await Promise.all(
  readdirSync(STEPS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`${d.name}/cases.ts`, STEPS)))
    .map((d) => d.name)
    .sort()
    .map(async (folder) => {
      const cases = (await import(new URL(`${folder}/cases.ts`, STEPS).href)) as Omit<StepFolderCases, 'folder'>;
      return { folder, CASES: cases.CASES, ...(cases.SYNTAX_CASES ? { SYNTAX_CASES: cases.SYNTAX_CASES } : {}) };
    }),
);
