// `play lab`: yargs' entry for the built-in lab (lab-command.ts finds the lab package when it runs).
import type { Argv } from 'yargs';
import { count } from './coerce.js';
import type { Io } from './io.js';

export function labCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'lab <action>',
    'the built-in lab of Linux hosts (and simulated Windows nodes) in network namespaces (root)',
    (c) =>
      c
        .positional('action', { choices: ['up', 'down', 'status', 'inventory'] as const, demandOption: true })
        // Counts are read as strings so that a mistake is quoted as typed (`--linux abc`), not as NaN.
        .option('linux', { type: 'string', coerce: count('--linux'), describe: 'number of plain Linux hosts (up)' })
        .option('tor', { type: 'string', coerce: count('--tor'), describe: 'number of ToR gateway hosts (up)' })
        .option('windows', {
          type: 'string',
          coerce: count('--windows'),
          describe: 'number of simulated Windows nodes node009.. (up; a test double)',
        })
        .option('control', {
          type: 'string',
          coerce: count('--control'),
          describe:
            'the cluster control host control1: the real kubectl and a Kubernetes API double, 0 or 1 (up; a test double)',
        })
        .option('bastion', {
          type: 'string',
          coerce: count('--bastion'),
          describe: 'number of jump hosts bastion1.. on the lab bridge and the private one (up)',
        })
        .option('behind-bastion', {
          type: 'string',
          coerce: count('--behind-bastion'),
          describe: 'number of hosts private1.. reachable only through bastion1 (up; implies --bastion 1)',
        }),
    async (a) => {
      const { labCommand } = await import('./lab-command.js');
      const counts = {
        linux: a.linux as number | undefined,
        tor: a.tor as number | undefined,
        windows: a.windows as number | undefined,
        control: a.control as number | undefined,
        bastion: a.bastion as number | undefined,
        private: a.behindBastion as number | undefined,
      };
      io.code = await labCommand(a.action, counts, io.out);
    },
  );
}
