// `play lab up|down|status|inventory`: the built-in lab (lab/), wired to the CLI. The lab (esbuild,
// the Windows simulator's modules) is loaded here, when a lab command runs, and only when this copy
// of play has it (lab-location.ts: a checkout has, an installed package has not).
import { importLab, type LabModule } from './lab-location.js';

/** `loadLab`: the lab's module (a test passes a stand-in). A failure to bring the lab up or down reaches
 *  main.ts as the lab's LabFailure (lab/lab-failure.ts): one message, exit 71. */
export async function labCommand(
  action: string,
  counts: { linux?: number; tor?: number; windows?: number; control?: number; bastion?: number; private?: number },
  out: NodeJS.WritableStream,
  loadLab: () => Promise<LabModule> = importLab,
): Promise<number> {
  const { labDown, labInventoryPath, labStatus, labUp } = await loadLab();
  switch (action) {
    case 'up': {
      // --linux defaults to 3 only when no other kind of host is asked for.
      const others = counts.tor || counts.windows || counts.control || counts.bastion || counts.private;
      const state = await labUp({
        linux: counts.linux ?? (others ? 0 : 3),
        tor: counts.tor ?? 0,
        windows: counts.windows ?? 0,
        control: counts.control ?? 0,
        // Jump hosts (--bastion, --behind-bastion): labUp gives --behind-bastion a bastion when none is asked for.
        bastion: counts.bastion,
        private: counts.private,
      });
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
      out.write(
        `lab ${status.up ? 'up' : 'down'} (${status.dir})${status.inventoryPath ? `, inventory ${status.inventoryPath}` : ''}\n`,
      );
      for (const h of status.hosts) {
        const server = h.server === 'simulator' ? 'simulator' : 'sshd';
        const sshd = h.sshdAlive ? `${server} pid ${h.sshdPid}` : `${server} down`;
        out.write(
          `  ${h.name.padEnd(10)} ${h.group.padEnd(8)} ${h.address.padEnd(15)} ${h.namespace ? 'netns' : 'no netns'}  ${sshd}  ${h.reachable ? 'reachable' : 'UNREACHABLE'}\n`,
        );
      }
      return status.hosts.every((h) => h.reachable) ? 0 : 4;
    }
  }
  return 64;
}
