// Test playbook for the hosts behind the lab's bastion: a directory and a file in it (-e dir=...).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { directory, file } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'behind-bastion',
  description: 'test: a directory and a note in it, on the hosts behind the bastion',
  tasks: {
    dir: { on: 'private', step: ({ host }) => directory({ path: String(host.vars.dir), mode: '0755' }) },
    note: {
      on: 'private',
      needs: ['dir'],
      step: ({ host }) => file({ path: `${host.vars.dir}/note`, content: `hello from ${host.name}\n` }),
    },
  },
});
