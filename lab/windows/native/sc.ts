// sc.exe on the simulated node: qc, queryex (texts of sc-text.ts, as in the field notes), create and
// config with sc's `name= value` options. Exit code = the Win32 error; the failure text as sc prints it.
import { WIN32, WindowsError } from '../errors.js';
import { dependsOn, findService, serviceRecord } from '../services.js';
import { scQc, scQueryex } from '../sc-text.js';
import type { NodeState, ServiceRecord } from '../node-state.js';
import { crlf, type NativeProgram, type NativeResult } from './program.js';

const START = { auto: 'Auto', demand: 'Manual', disabled: 'Disabled' } as const;

function failed(operation: string, code: number, text: string = WIN32[code as keyof typeof WIN32]): NativeResult {
  return { code, stdout: crlf([`[SC] ${operation} FAILED ${code}:`, '', text, '']) };
}

/** sc's options: `binPath=` then its value as the next argument. */
function options(argv: readonly string[]): Map<string, string> | string {
  const o = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i]!;
    if (!key.endsWith('=') || i + 1 >= argv.length) return key;
    o.set(key.slice(0, -1).toLowerCase(), argv[i + 1]!);
  }
  return o;
}

function configure(s: NodeState, verb: 'create' | 'config', name: string, rest: readonly string[]): NativeResult {
  const operation = verb === 'create' ? 'CreateService' : 'ChangeServiceConfig';
  const o = options(rest);
  if (typeof o === 'string') return { code: 1639, stdout: crlf([`[SC] ${verb}: unrecognized option ${o}`]) };
  if (/[\\/]/.test(name) || name === '')
    return failed(operation, 123, 'The filename, directory name, or volume label syntax is incorrect.');
  let svc: ServiceRecord;
  if (verb === 'create') {
    if (findService(s, name)) return failed('CreateService', 1073);
    const bin = o.get('binpath');
    if (!bin) return failed('CreateService', 87, 'The parameter is incorrect.');
    svc = serviceRecord(name, bin);
  } else {
    const found = findService(s, name);
    if (!found) return failed('OpenService', 1060);
    svc = { ...found };
  }
  const start = o.get('start');
  if (start !== undefined) {
    const mode = START[start.toLowerCase() as keyof typeof START];
    if (!mode) return failed(operation, 87, 'The parameter is incorrect.');
    svc.startMode = mode;
  }
  const depend = o.get('depend');
  if (depend !== undefined) {
    const list = depend === '/' ? [] : depend.split('/').filter((d) => d !== '');
    if (list.some((d) => d.toLowerCase() === svc.name.toLowerCase() || dependsOn(s, d, svc.name)))
      return failed(operation, 1059);
    svc.dependencies = list;
  }
  if (o.has('binpath')) svc.binPath = o.get('binpath')!;
  if (o.has('displayname')) svc.displayName = o.get('displayname')!;
  s.services[svc.name.toLowerCase()] = svc;
  return { code: 0, stdout: crlf([`[SC] ${operation} SUCCESS`]) };
}

export const sc: NativeProgram = (node, argv) => {
  const [verb = '', name = '', ...rest] = argv;
  const s = node.state;
  switch (verb.toLowerCase()) {
    case 'qc':
    case 'queryex': {
      const svc = findService(s, name);
      if (!svc) return failed('OpenService', 1060);
      return { code: 0, stdout: verb.toLowerCase() === 'qc' ? scQc(svc) : scQueryex(svc) };
    }
    case 'create':
    case 'config':
      return configure(s, verb.toLowerCase() as 'create' | 'config', name, rest);
    default:
      throw new WindowsError(`the simulated sc.exe does not model '${verb}' (add it to lab/windows/native/sc.ts)`);
  }
};
