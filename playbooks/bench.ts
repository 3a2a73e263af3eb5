// The benchmark playbook: the same five tasks as bench/ansible/bench.yml, on the `linux` group.
import { definePlaybook } from '../runner/index.js';
import { command, directory, file, lineInFile, sysctl } from '../tasks/linux/index.js';

const root = '/srv/play-bench';

export default definePlaybook({
  name: 'bench',
  description:
    'Five idempotent Linux steps (directory, file, line, guarded command, sysctl), as in the Ansible benchmark',
  tasks: {
    dir: { on: 'linux', tags: ['files'], step: directory({ path: root, mode: '0755' }) },
    copy: {
      on: 'linux',
      tags: ['files'],
      needs: ['dir'],
      step: ({ host }) =>
        file({ path: `${root}/app.conf`, content: `# managed by play\nhost=${host.name}\n`, mode: '0644' }),
    },
    line: {
      on: 'linux',
      tags: ['files'],
      needs: ['dir'],
      step: lineInFile({ path: `${root}/settings.ini`, regexp: '^port=', line: 'port=8080', create: true }),
    },
    init: {
      on: 'linux',
      tags: ['command'],
      needs: ['dir'],
      step: command({ command: ['touch', `${root}/initialized`], creates: `${root}/initialized` }),
    },
    forward: {
      on: 'linux',
      tags: ['sysctl'],
      step: sysctl({ key: 'net.ipv4.ip_forward', value: '1', file: '/etc/sysctl.d/90-play-bench.conf' }),
    },
  },
});
