// Test playbook for what a run shows (-v, --events, --log): `say` prints 25 lines on stdout and one on
// stderr; `token` writes a secret (-e token=an env lookup) into a file; `show` cats it back, so the
// secret comes back in a command's output, where it must be masked; `fail` fails on -e fail_on=HOST.
import { definePlaybook } from '../../../runner/playbook/define.js';
import { command, directory, file } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'observe',
  description: 'test: command output, a secret, a failure',
  tasks: {
    dir: { on: 'linux', step: ({ host }) => directory({ path: String(host.vars.dir) }) },
    say: {
      on: 'linux',
      needs: ['dir'],
      step: ({ host }) =>
        command({
          command: [
            'sh',
            '-c',
            'echo "hello from $1"; seq 1 24 | sed "s/^/line /"; echo "a warning" >&2',
            'sh',
            host.name,
          ],
        }),
    },
    token: {
      on: 'linux',
      needs: ['dir'],
      step: ({ host }) => file({ path: `${host.vars.dir}/token`, content: host.vars.token as string, mode: '0600' }),
    },
    show: {
      on: 'linux',
      needs: ['token'],
      step: ({ host }) =>
        command({
          command:
            host.name === host.vars.fail_on
              ? ['sh', '-c', 'echo "disk check" ; echo "no space left on device" >&2; exit 5']
              : ['cat', `${host.vars.dir}/token`],
        }),
    },
  },
});
