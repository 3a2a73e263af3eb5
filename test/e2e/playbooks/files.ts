// Test playbook: a directory and a file in it, paths and content from extra vars (-e dir=... note=...).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { directory, file } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'files',
  description: 'test: a directory and a note in it',
  tasks: {
    dir: { on: 'linux', step: ({ host }) => directory({ path: String(host.vars.dir), mode: '0755' }) },
    note: {
      on: 'linux',
      needs: ['dir'],
      step: ({ host }) =>
        file({ path: `${host.vars.dir}/note`, content: String(host.vars.note ?? `hello from ${host.name}\n`) }),
    },
  },
});
