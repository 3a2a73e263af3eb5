// Every mistake a user can make on the command line, in an inventory or in a playbook, driven through
// the real CLI (`node bin/play.mjs`, running dist/, which `pretest` builds): the documented exit code
// and one short message naming the culprit, never a stack trace. No row needs a lab or touches a host:
// each fails before anything is built or connected.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqliteStore } from '../../runner/state/sqlite/store.js';
import {
  type CliRow,
  cliTable,
  ONE_HOST_INVENTORY as INVENTORY,
  OK_PLAYBOOK,
  playbookText as playbook,
} from '../helpers/cli-table.js';

/** A state store with nothing in it yet, in the row's directory. */
const emptyStore = (dir: string) => void openSqliteStore(join(dir, 'state.db')).close();

const rows: Record<string, CliRow> = {
  'an unknown option': { argv: ['bench', '--frobnicate'], code: 64, message: /unknown option.*--frobnicate/ },
  'an unknown option of a command': {
    argv: ['hosts', 'all', '--check', '-i', 'inv.yaml'],
    files: { 'inv.yaml': INVENTORY },
    code: 64,
    message: /unknown option.*--check/,
  },
  'an unknown command (no such playbook)': {
    argv: ['frobnicate'],
    code: 64,
    message: /no playbook named 'frobnicate' \(known: .*bench/,
  },
  'a command without its argument': { argv: ['hosts'], code: 64, message: /hosts: missing a host pattern/ },
  'an unknown lab action': {
    argv: ['lab', 'frobnicate'],
    code: 64,
    message: /"frobnicate" is not one of "up", "down"/,
  },
  'a lab count that is not a number': {
    argv: ['lab', 'up', '--linux', 'abc'],
    code: 64,
    message: /--linux 'abc': expected a whole number/,
  },
  'a lab count that is too large': { argv: ['lab', 'up', '--linux', '5000'], code: 64, message: /--linux.*5000/ },
  'a negative lab count': { argv: ['lab', 'up', '--linux', '-1'], code: 64, message: /--linux.*-1/ },
  '--forks 0': { argv: ['ok.ts', '-f', '0'], code: 64, message: /--forks '0': expected a positive whole number/ },
  'drift: a waiver without its reason (read before any host is probed)': {
    argv: ['drift', 'ok.ts', '-i', 'inv.yaml', '--state', 'state.db', '--waivers', 'w.yml'],
    files: {
      'inv.yaml': INVENTORY,
      'ok.ts': OK_PLAYBOOK,
      'w.yml': '- hosts: a\n  playbook: ok\n  task: d\n  expires: 2099-01-01\n',
    },
    code: 65,
    message: /w\.yml:1: entry 1: 'reason' is missing/,
  },
  'drift: --every that is not a schedule': {
    argv: ['drift', '--every', 'sometimes'],
    code: 64,
    message: /--every 'sometimes': expected an interval such as 30s/,
  },
  'drift show of a run that does not exist': {
    argv: ['drift', 'show', '42', '--state', 'state.db'],
    code: 64,
    message: /no drift run 42 in .*state\.db \(see 'play drift history'\)/,
  },
  '--timeout that is not a number': { argv: ['ok.ts', '--timeout', 'soon'], code: 64, message: /--timeout 'soon'/ },
  'a missing inventory file': {
    argv: ['hosts', 'all', '-i', 'nosuch.yaml'],
    code: 64,
    message: /inventory .*nosuch\.yaml does not exist/,
  },
  'an inventory directory with no inventory file in it': {
    argv: ['hosts', 'all', '-i', 'invdir'],
    setup: (d) => mkdirSync(join(d, 'invdir')),
    code: 65,
    message: /invdir: is a directory with no inventory file in it/,
  },
  // Hostile input files: refused by what they are or by a limit (README.md, Limits), never a hang,
  // gigabytes of memory or a stack trace.
  '-i /dev/zero': {
    argv: ['hosts', 'all', '-i', '/dev/zero'],
    code: 65,
    message: /^play: \/dev\/zero: is a character device, not a regular file: expected an inventory file$/m,
  },
  'a FIFO as the inventory': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    setup: (d) => execFileSync('mkfifo', [join(d, 'inv.yaml')]),
    code: 65,
    message: /inv\.yaml: is a named pipe \(FIFO\), not a regular file: expected an inventory file/,
  },
  'a host_vars file that is a link to /dev/zero': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: { 'inv.yaml': INVENTORY },
    setup: (d) => {
      mkdirSync(join(d, 'host_vars'));
      symlinkSync('/dev/zero', join(d, 'host_vars', 'a'));
    },
    code: 65,
    message: /host_vars\/a: is a character device, not a regular file: expected a vars file/,
  },
  'a FIFO as a --limit @file': {
    argv: ['ok.ts', '-i', 'inv.yaml', '-l', '@hosts.fifo', '--check'],
    files: { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK },
    setup: (d) => execFileSync('mkfifo', [join(d, 'hosts.fifo')]),
    code: 64,
    message: /host pattern '@hosts\.fifo': @hosts\.fifo: .*hosts\.fifo: is a named pipe \(FIFO\), not a regular file/,
  },
  'an inventory over 64 MiB': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    setup: (d) => {
      // Sparse: refused by its size, so the test writes nothing to disk.
      writeFileSync(join(d, 'inv.yaml'), '');
      truncateSync(join(d, 'inv.yaml'), 65 * 1024 * 1024);
    },
    code: 65,
    message: /inv\.yaml: is 65 MiB, more than the 64 MiB play reads from an inventory file/,
  },
  'a host range of ten million hosts': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: { 'inv.yaml': 'all:\n  children:\n    web:\n      hosts:\n        web[0:9999999]:\n' },
    code: 65,
    message:
      /inv\.yaml:5: .*host range 'web\[0:9999999\]' of group 'web' expands to 10,000,000 hosts, more than the 100,000/,
  },
  'a YAML alias bomb ("billion laughs")': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: {
      'inv.yaml': `all:\n  vars:\n    l0: &l0 [lol]\n${[1, 2, 3, 4, 5, 6, 7, 8, 9]
        .map(
          (i) =>
            `    l${i}: &l${i} [${Array(9)
              .fill(`*l${i - 1}`)
              .join(', ')}]\n`,
        )
        .join('')}  hosts:\n    a:\n`,
    },
    code: 65,
    message: /inv\.yaml:6: at all\.vars\.l3: YAML aliases expand this value too far/,
  },
  'block nesting 3,000 deep': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: {
      'inv.yaml': `all:\n  vars:\n${Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i + 2)}k:\n`).join('')}`,
    },
    code: 65,
    message: /inv\.yaml:\d+: YAML nested more than 100 levels deep/,
  },
  'a symbolic link loop inside an inventory directory': {
    argv: ['hosts', 'all', '-i', 'inv'],
    files: { 'inv/hosts.yml': INVENTORY },
    setup: (d) => {
      symlinkSync('l2', join(d, 'inv', 'l1'));
      symlinkSync('l1', join(d, 'inv', 'l2'));
    },
    code: 65,
    message: /inv\/l1: is a symbolic link loop/,
  },
  'a symbolic link loop in group_vars': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: { 'inv.yaml': INVENTORY, 'group_vars/all.yml': 'x: 1\n' },
    setup: (d) => symlinkSync('linux', join(d, 'group_vars', 'linux')),
    code: 65,
    message: /group_vars\/linux: is a symbolic link loop/,
  },
  'drift: a waivers file over 4 MiB': {
    argv: ['drift', 'ok.ts', '-i', 'inv.yaml', '--state', 'state.db', '--waivers', 'w.yml'],
    files: { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK },
    setup: (d) => {
      writeFileSync(join(d, 'w.yml'), '');
      truncateSync(join(d, 'w.yml'), 5 * 1024 * 1024);
    },
    code: 65,
    message: /w\.yml: is 5 MiB, more than the 4 MiB play reads from a waivers file/,
  },
  'play inventory with neither --list nor --host': {
    argv: ['inventory', '-i', 'inv.yaml'],
    files: { 'inv.yaml': INVENTORY },
    code: 64,
    message: /inventory: pass either --list or --host NAME/,
  },
  'play inventory --host naming no host': {
    argv: ['inventory', '-i', 'inv.yaml', '--host', 'nosuch'],
    files: { 'inv.yaml': INVENTORY },
    code: 64,
    message: /host pattern 'nosuch': 'nosuch' matches no host or group/,
  },
  'a second -i that does not exist': {
    argv: ['hosts', 'all', '-i', 'inv.yaml', '-i', 'nosuch.ini'],
    files: { 'inv.yaml': INVENTORY },
    code: 64,
    message: /inventory .*nosuch\.ini does not exist \(from -i\)/,
  },
  'an inventory that is a symbolic link loop': {
    argv: ['hosts', 'all', '-i', 'loop1'],
    code: 65,
    message: /loop1: is a symbolic link loop/,
    setup: (d) => {
      symlinkSync('loop2', join(d, 'loop1'));
      symlinkSync('loop1', join(d, 'loop2'));
    },
  },
  'an inventory with YAML syntax errors': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: { 'inv.yaml': 'all:\n  hosts: [a\n' },
    code: 65,
    message: /inv\.yaml:\d+: YAML syntax error/,
  },
  'ansible_port out of range': {
    argv: ['hosts', 'all', '-i', 'inv.yaml'],
    files: { 'inv.yaml': 'all:\n  hosts:\n    web1: { ansible_port: 70000 }\n' },
    code: 65,
    message: /inv\.yaml:3: at all\.hosts\.web1\.ansible_port: ansible_port must be a port number from 1 to 65535/,
  },
  'a --limit @file that does not exist': {
    argv: ['ok.ts', '-i', 'inv.yaml', '-l', '@nosuch.txt'],
    files: { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK },
    code: 64,
    message: /@nosuch\.txt.*cannot read limit file .*nosuch\.txt/,
  },
  'a pattern that matches no host': {
    argv: ['hosts', 'nosuch*', '-i', 'inv.yaml'],
    files: { 'inv.yaml': INVENTORY },
    code: 64,
    message: /nosuch\*/,
  },
  'a missing SSH key file': {
    argv: ['ok.ts', '-i', 'inv.yaml'],
    files: {
      'ok.ts': OK_PLAYBOOK,
      'inv.yaml':
        'all:\n  children:\n    linux:\n      hosts:\n        a: { ansible_host: 127.0.0.1, ansible_port: 9, ansible_ssh_private_key_file: keys/id_missing }\n',
    },
    code: 65,
    message: /host a: ansible_ssh_private_key_file .*keys\/id_missing: not found/,
  },
  'an SSH key file that is not a key': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--check'],
    files: {
      'ok.ts': OK_PLAYBOOK,
      key: 'hello\n',
      'inv.yaml':
        'all:\n  vars: { ansible_private_key_file: key }\n  children:\n    linux:\n      hosts:\n        a: { ansible_host: 127.0.0.1, ansible_port: 9 }\n',
    },
    code: 65,
    message: /host a: ansible_private_key_file .*\/key: is not a private key/,
  },
  "a jump host's missing key file, set on the bastion's inventory entry": {
    argv: ['ok.ts', '-i', 'inv.yaml', '--check'],
    files: {
      'ok.ts': OK_PLAYBOOK,
      'inv.yaml':
        'all:\n  children:\n    linux:\n      vars: { ansible_ssh_common_args: -o ProxyJump=bastion1 }\n      hosts:\n' +
        '        a: { ansible_host: 10.0.0.5 }\n    bastions:\n      hosts:\n' +
        '        bastion1: { ansible_host: 127.0.0.1, ansible_port: 9, ansible_private_key_file: keys/bastion }\n',
    },
    code: 65,
    message:
      /host a: its jump host bastion1's key file .*keys\/bastion \(bastion1's ansible_private_key_file\): not found/,
  },
  "a jump host's key file from a ProxyCommand's -i that is not a key": {
    argv: ['ok.ts', '-i', 'inv.yaml', '--check'],
    files: {
      'ok.ts': OK_PLAYBOOK,
      jumpkey: 'hello\n',
      'inv.yaml':
        'all:\n  children:\n    linux:\n      hosts:\n        a:\n          ansible_host: 10.0.0.5\n' +
        `          ansible_ssh_common_args: "-o ProxyCommand='ssh -W %h:%p -i jumpkey ops@127.0.0.1'"\n`,
    },
    code: 65,
    message:
      /host a: its jump host 127\.0\.0\.1's key file .*\/jumpkey \(ansible_ssh_common_args \(-i\)\): is not a private key/,
  },
  'a playbook module that throws while loading': {
    argv: ['graph', 'throws.ts'],
    files: {
      'throws.ts': playbook(
        `const settings: Record<string, string> = {};\nif (!settings.region) throw new Error('no region set');\nexport default definePlaybook({ name: 't', description: '', tasks: {} });`,
      ),
    },
    code: 65,
    message: /throws\.ts: cannot load playbook: no region set \(at throws\.ts:4:\d+\)/,
  },
  'a TypeScript syntax error in a playbook': {
    argv: ['graph', 'broken'],
    files: {
      'playbooks/broken.ts': playbook(
        `const n: number = ;\nexport default definePlaybook({ name: 'b', description: '', tasks: {} });`,
      ),
    },
    code: 65,
    message: /playbooks\/broken\.ts:3:\d+: Unexpected ";"/,
  },
  'a playbook that imports a missing module': {
    argv: ['graph', 'imports.ts'],
    files: { 'imports.ts': `import { x } from './nosuch.js';\nexport default x;\n` },
    code: 65,
    message: /imports\.ts: cannot load playbook: Cannot find module .*nosuch\.js/,
  },
  'a playbook whose default export is not a playbook': {
    argv: ['graph', 'plain.ts'],
    files: { 'plain.ts': 'export default 42;\n' },
    code: 65,
    message: /plain\.ts: the default export must be definePlaybook/,
  },
  'invalid step options in a playbook': {
    argv: ['graph', 'opts.ts'],
    files: {
      'opts.ts': playbook(
        `export default definePlaybook({ name: 'o', description: '', tasks: { d: { on: 'linux', step: directory({ path: 'relative' }) } } });`,
      ),
    },
    code: 65,
    message: /opts\.ts: linux\.directory: option 'path' must be an absolute path/,
  },
  'a playbook file that does not exist': {
    argv: ['graph', './nosuch.ts'],
    code: 64,
    message: /playbook file .*nosuch\.ts does not exist/,
  },
  '-e with bad JSON': {
    argv: ['ok.ts', '-i', 'inv.yaml', '-e', '{bad'],
    files: { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK },
    code: 64,
    message: /-e \{bad: not valid JSON/,
  },
  '--report into a missing directory': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--report', 'nosuch/r.json'],
    files: { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK },
    code: 64,
    message: /--report nosuch\/r\.json: directory .*nosuch does not exist/,
  },
  'a rolling flag on a playbook that is not rolling': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--max-fail', '1'],
    files: { 'ok.ts': OK_PLAYBOOK, 'inv.yaml': INVENTORY },
    code: 64,
    message: /ok is not a rolling playbook: --max-fail needs --serial \(or a playbook with rolling\)/,
  },
  'a bad --serial': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '0', '--check'],
    files: { 'ok.ts': OK_PLAYBOOK, 'inv.yaml': INVENTORY },
    code: 64,
    message: /^play: --serial: .*got "0"$/m,
  },
  'a bad maintenance window': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--window', 'Sat 25:00-05:00', '--check'],
    files: { 'ok.ts': OK_PLAYBOOK, 'inv.yaml': INVENTORY },
    code: 64,
    message: /--window "Sat 25:00-05:00": 25:00 is not a time/,
  },
  "a rolling block with a typo (the playbook's fault)": {
    argv: ['roll.ts', '-i', 'inv.yaml', '--check'],
    files: {
      'roll.ts': playbook(
        `export default definePlaybook({ name: 'roll', description: 'x', rolling: { serial: 1, maxFial: 1 } as never, tasks: { d: { on: 'linux', step: directory({ path: '/srv/play-cli-errors' }) } } });`,
      ),
      'inv.yaml': INVENTORY,
    },
    code: 65,
    message: /roll\.ts: rolling\.maxFial: unknown option/,
  },
  '--resume without an unfinished run': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--resume', '--state', 'state.db'],
    files: { 'ok.ts': OK_PLAYBOOK, 'inv.yaml': INVENTORY },
    code: 64,
    message: /--resume: no unfinished ok run on this inventory in .*state\.db/,
  },
  'play resume with no unfinished run': {
    argv: ['resume', '--state', 'state.db'],
    setup: emptyStore,
    code: 64,
    message: /resume: no unfinished rolling run in .*state\.db \(play rollouts list shows the runs\)/,
  },
  'play resume of something that is not a run number': {
    argv: ['resume', 'abc', '--state', 'state.db'],
    code: 64,
    message: /resume: a run is a number \(play rollouts list\), got 'abc'/,
  },
  'rollouts show of a run that does not exist': {
    argv: ['rollouts', 'show', '7', '--state', 'state.db'],
    setup: emptyStore,
    code: 64,
    message: /rollouts show: no run 7 in the state store \(play rollouts list\)/,
  },
};

cliTable(rows);
