// Test playbook: the time zone of the windows group's nodes, from extra vars (-e tz=...; default
// China Standard Time). Used against the lab's simulated Windows nodes (a test double).
import { definePlaybook } from '../../../runner/playbook/define.js';
import { timeZone } from '../../../tasks/windows/index.js';

export default definePlaybook({
  name: 'windows-time-zone',
  description: "test: a Windows node's time zone",
  tasks: {
    tz: { on: 'windows', step: ({ host }) => timeZone({ id: String(host.vars.tz ?? 'China Standard Time') }) },
  },
});
