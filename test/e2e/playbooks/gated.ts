// Test playbook for rolling runs without a cluster: one directory per host (`-e dir=PREFIX` makes
// PREFIX-HOST; lab hosts share /srv, so each host's own path keeps its change its own).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { directory } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'gated',
  description: 'test: a directory per host, for batches and their gates',
  tasks: {
    dir: { on: 'linux', step: ({ host }) => directory({ path: `${String(host.vars.dir)}-${host.name}` }) },
  },
});
