// Test playbook: step `b` fails on the host named by -e fail_on=...; `c` needs `b`.
import { definePlaybook } from '../../../runner/playbook/define.js';
import { command, directory, file } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'fails',
  description: 'test: b fails on one host, c depends on b',
  tasks: {
    a: { on: 'linux', step: ({ host }) => directory({ path: String(host.vars.dir) }) },
    b: {
      on: 'linux',
      needs: ['a'],
      step: ({ host }) =>
        command({
          command:
            host.name === host.vars.fail_on
              ? ['sh', '-c', 'echo "no space left on device" >&2; exit 5']
              : ['touch', `${host.vars.dir}/b`],
          creates: `${host.vars.dir}/b`,
        }),
    },
    c: { on: 'linux', needs: ['b'], step: ({ host }) => file({ path: `${host.vars.dir}/c`, content: 'c\n' }) },
  },
});
