// `play lab up|down|status|inventory`: the built-in lab (lab/), wired to the CLI.
import { labDown, labInventoryPath, labStatus, labUp } from '../../lab/lab.js';

export async function labCommand(action: string, counts: { linux?: number; tor?: number }, out: NodeJS.WritableStream): Promise<number> {
  switch (action) {
    case 'up': {
      const state = await labUp({ linux: counts.linux ?? (counts.tor ? 0 : 3), tor: counts.tor ?? 0 });
      out.write(`${state.inventoryPath}\n`);
      return 0;
    }
    case 'down':
      await labDown();
      out.write('lab removed\n');
      return 0;
    case 'inventory':
      out.write(`${labInventoryPath()}\n`);
      return 0;
    case 'status': {
      const status = await labStatus();
      out.write(JSON.stringify(status, null, 2) + '\n');
      return 0;
    }
  }
  return 64;
}
