// Test playbook: a step built with a relative path must be refused before any host is touched.
import { definePlaybook } from '../../../runner/playbook/define.js';
import { directory } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'bad-options',
  description: 'test: invalid step options',
  tasks: {
    ok: { on: 'linux', step: ({ host }) => directory({ path: String(host.vars.dir) }) },
    bad: {
      on: 'linux',
      step: ({ host }) => directory({ path: host.name === 'linux2' ? 'relative/dir' : String(host.vars.dir) }),
    },
  },
});
