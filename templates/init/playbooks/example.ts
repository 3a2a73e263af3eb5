// An example playbook: a directory with a config file and a settings line, on the hosts of group
// `web`, from the host variables app_dir and app_port (inventory/group_vars/all.yml), and the same port
// as a registry value on the hosts of group `windows`, by a step of your own (lib/registry-value.ts).
// Check it with `npx play example -i inventory --check --diff`, apply it without --check; `npm test`
// checks its plan.
import { definePlaybook, intVar, stringVar } from 'play';
import { directory, file, lineInFile } from 'play/linux';
import { registryValue } from './lib/registry-value.js';

export default definePlaybook({
  name: 'example',
  description: 'An app directory with its config file and port setting, from host variables',
  tasks: {
    dir: {
      on: 'web',
      step: ({ host }) => directory({ path: stringVar(host, 'app_dir'), mode: '0755' }),
    },
    config: {
      on: 'web',
      needs: ['dir'],
      step: ({ host }) =>
        file({
          path: `${stringVar(host, 'app_dir')}/app.conf`,
          content: `# managed by play\nname=${host.name}\n`,
          mode: '0644',
        }),
    },
    port: {
      on: 'web',
      needs: ['dir'],
      step: ({ host }) =>
        lineInFile({
          path: `${stringVar(host, 'app_dir')}/settings.ini`,
          regexp: '^port=',
          line: `port=${intVar(host, 'app_port', undefined, 1, 65535)}`,
          create: true,
        }),
    },
    winPort: {
      on: 'windows',
      step: ({ host }) =>
        registryValue({
          key: 'HKLM:\\SOFTWARE\\Example',
          name: 'Port',
          value: String(intVar(host, 'app_port', undefined, 1, 65535)),
        }),
    },
  },
});
