// What `sc.exe qc NAME 8192` and `sc.exe queryex NAME` print on the simulated Windows node (a test
// double), line for line as in the field notes (docs/field-notes.md#b-sc-qc-and-nssm-get), raw as a program reading sc.exe's output
// gets it: CRLF line ends and the blank after an empty field's ': ' (the notes lost both).
import type { ServiceRecord } from './node-state.js';

const START_TYPE = { Auto: '2   AUTO_START', Manual: '3   DEMAND_START', Disabled: '4   DISABLED' } as const;
const TYPE = { own: '10  WIN32_OWN_PROCESS', share: '20  WIN32_SHARE_PROCESS' } as const;
const FIELD = (name: string) => `        ${name.padEnd(19)}: `;
const CONTINUATION = `${' '.repeat(27)}: `;

function lines(list: string[]): string {
  return list.map((l) => `${l}\r\n`).join('');
}

export function scQc(s: ServiceRecord): string {
  const deps = s.dependencies.length === 0 ? [''] : s.dependencies;
  return lines([
    '[SC] QueryServiceConfig SUCCESS',
    '',
    `SERVICE_NAME: ${s.name}`,
    `${FIELD('TYPE')}${TYPE[s.type]}`,
    `${FIELD('START_TYPE')}${START_TYPE[s.startMode]}`,
    `${FIELD('ERROR_CONTROL')}1   NORMAL`,
    `${FIELD('BINARY_PATH_NAME')}${s.binPath}`,
    `${FIELD('LOAD_ORDER_GROUP')}`,
    `${FIELD('TAG')}0`,
    `${FIELD('DISPLAY_NAME')}${s.displayName}`,
    `${FIELD('DEPENDENCIES')}${deps[0]}`,
    ...deps.slice(1).map((d) => `${CONTINUATION}${d}`),
    `${FIELD('SERVICE_START_NAME')}${s.account}`,
  ]);
}

function exitCode(n: number): string {
  return `${n}  (0x${n.toString(16)})`;
}

export function scQueryex(s: ServiceRecord): string {
  const running = s.state === 'Running';
  return lines([
    '',
    `SERVICE_NAME: ${s.name}`,
    `${FIELD('TYPE')}${TYPE[s.type]}`,
    `${FIELD('STATE')}${running ? '4  RUNNING' : '1  STOPPED'}`,
    ...(running ? [`${' '.repeat(32)}(STOPPABLE, ${s.pausable ? 'PAUSABLE' : 'NOT_PAUSABLE'}, ACCEPTS_SHUTDOWN)`] : []),
    `${FIELD('WIN32_EXIT_CODE')}${exitCode(running ? 0 : s.win32ExitCode)}`,
    `${FIELD('SERVICE_EXIT_CODE')}${exitCode(0)}`,
    `${FIELD('CHECKPOINT')}0x0`,
    `${FIELD('WAIT_HINT')}0x0`,
    `${FIELD('PID')}${running ? s.pid : 0}`,
    `${FIELD('FLAGS')}`,
  ]);
}
