// `play hosts`, `play inventory`, `play list`, `play graph` and the global options they share: yargs'
// table of the read-only commands. Each command imports what it needs when it runs.
import type { Argv } from 'yargs';
import { PlayError } from '../core/errors.js';
import type { Io } from './io.js';

/** `play hosts`, `play inventory`, `play list`, `play graph`: read-only looks at inventories and playbooks.
 *  Long because it is declarative: yargs' table of the four commands, one entry each. The global options
 *  -i and the vault's are repeatable (a repeated string option is an array), not `array: true`, which
 *  would take the playbook after them as one more value. */
export function inspectCommands(y: Argv, io: Io) {
  return y
    .option('inventory', {
      alias: 'i',
      type: 'string',
      describe:
        "inventory file or directory, YAML or INI, or a list of hosts 'h1,h2,'; repeat -i for several (default: $PLAY_INVENTORY, else the lab's)",
    })
    .option('vault-id', {
      type: 'string',
      describe: 'a vault password: [LABEL@]FILE (an executable file: its output) or [LABEL@]prompt; repeat for several',
    })
    .option('vault-password-file', {
      alias: 'vault-pass-file',
      type: 'string',
      describe:
        'a file holding the vault password (an executable file: its output); repeat for several; also $ANSIBLE_VAULT_PASSWORD_FILE',
    })
    .option('ask-vault-pass', {
      alias: ['J', 'ask-vault-password'],
      type: 'boolean',
      describe: 'ask for the vault password on the terminal, without echo',
    })
    .command(
      'inventory',
      'print the inventory as ansible-inventory does: --list, or --host NAME for one host (secrets stay lookups)',
      (c) =>
        c
          .option('list', { type: 'boolean', describe: "every group and host, with each host's variables" })
          .option('host', { type: 'string', describe: "one host's merged variables" }),
      async (a) => {
        const [{ inventoryCommand }, vault] = await Promise.all([import('./inventory-command.js'), vaultOf(a)]);
        inventoryCommand({ inventory: a.inventory, list: a.list, host: a.host, vault }, io.out, io.err);
      },
    )
    .command(
      'hosts <pattern>',
      'print the hosts a pattern matches, one per line, in inventory order',
      (c) => c.positional('pattern', { type: 'string', demandOption: true }),
      async (a) => {
        const [{ openInventory }, { selectHosts }] = await Promise.all([
          import('./open-inventory.js'),
          import('../inventory/pattern.js'),
        ]);
        const inv = openInventory(a.inventory, io.err, await vaultOf(a));
        io.out.write(
          selectHosts(inv, a.pattern)
            .map((h) => h.name + '\n')
            .join(''),
        );
      },
    )
    .command(
      'list',
      'list the playbooks with their descriptions',
      () => {},
      async () => {
        const { listPlaybookFiles, loadPlaybook, playbookName } = await import('../playbook/load.js');
        // One playbook that does not load is named, and the others are still listed.
        for (const f of listPlaybookFiles()) {
          try {
            const pb = await loadPlaybook(f);
            io.out.write(`${playbookName(f).padEnd(20)} ${pb.description}\n`);
          } catch (e) {
            if (!(e instanceof PlayError)) throw e;
            io.err.write(`play: ${e.message}\n`);
            io.code ||= e.exitCode;
          }
        }
      },
    )
    .command(
      'graph <playbook>',
      'show the task graph (with -i or a lab: the host-level order too)',
      (c) =>
        c
          .positional('playbook', { type: 'string', demandOption: true })
          .option('limit', { alias: 'l', type: 'string' }),
      async (a) => {
        const [
          { loadPlaybook, resolvePlaybook },
          { nodeGraphText, taskGraphText },
          { compileGraph },
          { openInventory },
        ] = await Promise.all([
          import('../playbook/load.js'),
          import('../playbook/graph-text.js'),
          import('../playbook/compile.js'),
          import('./open-inventory.js'),
        ]);
        const pb = await loadPlaybook(resolvePlaybook(a.playbook));
        io.out.write(taskGraphText(pb));
        let inv: Awaited<ReturnType<typeof openInventory>> | undefined;
        try {
          inv = openInventory(a.inventory, io.err, await vaultOf(a));
        } catch (e) {
          if (a.inventory) throw e;
        }
        if (inv) io.out.write('\n' + nodeGraphText(compileGraph(pb, inv, { limit: a.limit })));
      },
    );
}

/** The vault passwords the command line (and ANSIBLE_VAULT_PASSWORD_FILE) gives, read once. */
async function vaultOf(a: object) {
  const { openVault, vaultFlagsOf } = await import('../vault/passwords.js');
  return openVault(vaultFlagsOf(a));
}
