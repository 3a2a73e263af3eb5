// Test playbook for running a part of a playbook (--tags, --skip-tags, --start-at-task, --step): a
// token made by a command, a stamp that READS the token's output, and a note that only comes after it.
// Paths from extra vars (-e dir=...).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { command, directory, file } from '../../../tasks/linux/index.js';

export default definePlaybook({
  name: 'tagged-parts',
  description: 'test: a token, a stamp that reads it, a note that only needs it',
  tasks: {
    token: { on: 'linux', tags: ['token'], step: command({ command: ['cat', '/proc/sys/kernel/random/uuid'] }) },
    dir: { on: 'linux', tags: ['files'], step: ({ host }) => directory({ path: String(host.vars.dir), mode: '0755' }) },
  },
}).andThen({
  stamp: {
    on: 'linux',
    tags: ['files'],
    needs: ['dir', 'token'],
    step: ({ host, output }) => file({ path: `${host.vars.dir}/stamp`, content: `token=${output('token').stdout}` }),
  },
  note: {
    on: 'linux',
    tags: ['files'],
    needs: ['dir', 'token'],
    step: ({ host }) => file({ path: `${host.vars.dir}/note`, content: 'after the token\n' }),
  },
});
