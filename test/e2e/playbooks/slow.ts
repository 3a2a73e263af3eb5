// Test playbook: `a` takes -e seconds=N; `b` needs it (for Ctrl-C and timeout tests).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { command, directory } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'slow',
  description: 'test: a slow step, then another',
  tasks: {
    a: {
      on: 'linux',
      step: ({ host }) =>
        command({
          command: ['sh', '-c', `sleep ${Number(host.vars.seconds ?? 2)}; mkdir -p "$1"`, 'sh', `${host.vars.dir}/a`],
          creates: `${host.vars.dir}/a`,
        }),
    },
    b: { on: 'linux', needs: ['a'], step: ({ host }) => directory({ path: `${host.vars.dir}/b` }) },
  },
});
