// The step folders' simulator parts: each Windows step folder of play (tasks/windows/steps/<step>/)
// may hold a `simulator/` directory of mock modules (*.psm1) that teach the simulated node the cmdlets
// its functions call. They are files the lab loads by this convention, not code it imports: play's
// build copies no .psm1 into dist/, so the far side never ships as product behaviour, and the lab
// stays on play's public entries. A mock keeps its state in the node's model through the surface
// ops every mock module has (files, registry: Invoke-PlayWindows), so a step folder adds no op here.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's step folders (the lab comes with a clone of play's repository). */
const STEPS_DIR = fileURLToPath(new URL('../../tasks/windows/steps/', import.meta.url));

/** The mock modules of every step folder, in a stable order. */
export function stepMockModules(stepsDir: string = STEPS_DIR): string[] {
  if (!existsSync(stepsDir)) return [];
  return readdirSync(stepsDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(stepsDir, d.name, 'simulator'))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.psm1'))
        .map((f) => join(dir, f)),
    )
    .sort();
}
