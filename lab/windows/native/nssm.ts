// nssm.exe on the simulated node (docs/field-notes.md#d-services-with-nssm): get, set, reset and
// install. It writes UTF-16LE (to a pipe too), each line ending in CRLF; DependOnService is the
// service's own dependency list, one per line.
import { dependsOn, findService, serviceRecord } from '../services.js';
import type { NodeState } from '../node-state.js';
import type { NativeProgram, NativeResult } from './program.js';

const PARAMETERS = ['Application', 'AppParameters', 'AppDirectory', 'DependOnService'] as const;
type Parameter = (typeof PARAMETERS)[number];

const utf16 = (text: string) => Buffer.from(text, 'utf16le');
const out = (lines: readonly string[]): NativeResult => ({
  code: 0,
  stdout: utf16(lines.length === 0 ? '\r\n' : lines.map((l) => `${l}\r\n`).join('')),
});
const fail = (code: number, text: string): NativeResult => ({
  code,
  stderr: utf16(`${text.replace(/\n/g, '\r\n')}\r\n`),
});

function parameterOf(raw: string | undefined): Parameter | undefined {
  return PARAMETERS.find((p) => p.toLowerCase() === (raw ?? '').toLowerCase());
}

function directoryOf(path: string): string {
  const i = path.replace(/\//g, '\\').lastIndexOf('\\');
  return i > 2 ? path.slice(0, i) : path.slice(0, 3);
}

function install(s: NodeState, name: string, application: string | undefined, self: string): NativeResult {
  if (findService(s, name))
    return fail(5, 'Error creating service!\nCreateService(): The specified service already exists.');
  if (!application) return fail(1, 'Usage: nssm install <servicename> <application> [<options>]');
  s.services[name.toLowerCase()] = serviceRecord(name, self, { startMode: 'Auto', pausable: true });
  s.nssm[name.toLowerCase()] = { Application: application, AppParameters: '', AppDirectory: directoryOf(application) };
  return { code: 0, stdout: utf16(`Service "${name}" installed successfully!\r\n`) };
}

export const nssm: NativeProgram = (node, argv) => {
  const s = node.state;
  const [verb = '', name = '', raw, ...values] = argv;
  if (verb.toLowerCase() === 'install') return install(s, name, raw, s.nssmPath);
  const svc = findService(s, name);
  if (!svc)
    return fail(3, "Can't open service!\nOpenService(): The specified service does not exist as an installed service.");
  const record = s.nssm[svc.name.toLowerCase()];
  const parameter = parameterOf(raw);
  if (!parameter) return fail(3, `Invalid parameter "${raw ?? ''}"`);
  if (!record) return fail(3, `The service ${svc.name} is not managed by nssm.`);
  switch (verb.toLowerCase()) {
    case 'get':
      return out(parameter === 'DependOnService' ? svc.dependencies : [record[parameter]]);
    case 'set':
    case 'reset': {
      const list = verb.toLowerCase() === 'reset' ? [] : values;
      if (parameter === 'DependOnService') {
        if (list.some((d) => d.toLowerCase() === svc.name.toLowerCase() || dependsOn(s, d, svc.name)))
          return fail(
            3,
            'Error setting parameter "DependOnService" for service!\nChangeServiceConfig(): Circular service dependency was specified.',
          );
        svc.dependencies = [...list];
      } else record[parameter] = verb.toLowerCase() === 'reset' ? '' : list.join(' ');
      return { code: 0, stdout: utf16(`Set parameter "${parameter}" for service "${svc.name}".\r\n`) };
    }
    default:
      return fail(1, `the simulated nssm.exe does not model '${verb}'`);
  }
};
