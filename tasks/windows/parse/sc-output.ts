// Parsers of what sc.exe prints, tested against the real outputs in docs/field-notes.md#b-sc-qc-and-nssm-get:
//
//   [SC] QueryServiceConfig SUCCESS
//
//   SERVICE_NAME: kubelet
//           TYPE               : 10  WIN32_OWN_PROCESS
//           START_TYPE         : 2   AUTO_START
//           BINARY_PATH_NAME   : C:\k\nssm.exe
//           DEPENDENCIES       : docker
//                              : kubelet            <- a second dependency continues the field
//           SERVICE_START_NAME : LocalSystem
//
// and `sc queryex`, whose STATE is followed by a line of flags in parentheses. Keys are padded with
// spaces; a value is everything after the first ': ' (a binPath may contain ' : '), trailing spaces
// and CR removed. sc.exe prints the keys in English whatever the Windows language. Pure.
import type { ServiceState } from '../remote/contract.js';

export type StartType = 'boot' | 'system' | 'auto' | 'manual' | 'disabled';

export interface ScQc {
  readonly name: string;
  readonly type: string;
  readonly startType: StartType;
  /** AUTO_START (DELAYED). */
  readonly delayed: boolean;
  readonly errorControl: string;
  readonly binaryPathName: string;
  readonly loadOrderGroup: string;
  readonly displayName: string;
  readonly dependencies: readonly string[];
  readonly serviceStartName: string;
}

export interface ScQueryex {
  readonly name: string;
  readonly type: string;
  readonly state: ServiceState;
  /** The raw state word, e.g. RUNNING, CONTINUE_PENDING. */
  readonly stateName: string;
  readonly controls: readonly string[];
  readonly win32ExitCode: number;
  readonly serviceExitCode: number;
  readonly pid: number;
}

type Fields = Map<string, string[]>;

function fields(text: string, what: string): { name: string; fields: Fields } {
  const lines = text
    .replace(/\0/g, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, '').replace(/\s+$/, ''));
  const failure = lines.find((l) => /^\[SC\] .*FAILED/.test(l));
  if (failure) {
    const detail = lines
      .slice(lines.indexOf(failure) + 1)
      .filter(Boolean)
      .join(' ');
    throw new Error(`${what}: ${failure}${detail ? ` ${detail}` : ''}`);
  }
  const nameLine = lines.find((l) => l.startsWith('SERVICE_NAME:'));
  if (nameLine === undefined) throw new Error(`${what}: no SERVICE_NAME line in ${JSON.stringify(text.slice(0, 200))}`);
  const out: Fields = new Map();
  let last: string[] | null = null;
  for (const line of lines.slice(lines.indexOf(nameLine) + 1)) {
    if (line === '') continue;
    const keyed = /^\s+([A-Z0-9_]+)\s*:(?: (.*))?$/.exec(line);
    if (keyed) {
      last = [keyed[2] ?? ''];
      out.set(keyed[1]!, last);
      continue;
    }
    const continued = /^\s+:(?: (.*))?$/.exec(line);
    if (continued && last) {
      last.push(continued[1] ?? '');
      continue;
    }
    const flags = /^\s+\((.*)\)$/.exec(line);
    if (flags && last) {
      last.push(`(${flags[1]})`);
      continue;
    }
    throw new Error(`${what}: unexpected line ${JSON.stringify(line)}`);
  }
  return { name: nameLine.slice('SERVICE_NAME:'.length).trim(), fields: out };
}

function one(f: Fields, key: string, what: string): string {
  const v = f.get(key);
  if (v === undefined) throw new Error(`${what}: no ${key}`);
  return v[0]!.trim();
}

/** `10  WIN32_OWN_PROCESS` -> the word(s) after the number. */
function word(value: string, key: string, what: string): { code: number; word: string } {
  const m = /^([0-9a-fx]+)\s+(.+)$/i.exec(value);
  if (!m) throw new Error(`${what}: ${key} is ${JSON.stringify(value)}, expected a number and a name`);
  return { code: Number(m[1]), word: m[2]!.trim() };
}

const START_TYPES: Record<string, StartType> = {
  BOOT_START: 'boot',
  SYSTEM_START: 'system',
  AUTO_START: 'auto',
  DEMAND_START: 'manual',
  DISABLED: 'disabled',
};

export function parseScQc(text: string): ScQc {
  const what = 'sc qc';
  const { name, fields: f } = fields(text, what);
  const start = word(one(f, 'START_TYPE', what), 'START_TYPE', what);
  const startWord = start.word.replace(/\s*\(DELAYED\)$/, '');
  const startType = START_TYPES[startWord];
  if (!startType) throw new Error(`${what}: unknown START_TYPE ${JSON.stringify(start.word)}`);
  const deps = (f.get('DEPENDENCIES') ?? []).map((d) => d.trim()).filter(Boolean);
  return {
    name,
    type: word(one(f, 'TYPE', what), 'TYPE', what).word,
    startType,
    delayed: /\(DELAYED\)$/.test(start.word),
    errorControl: word(one(f, 'ERROR_CONTROL', what), 'ERROR_CONTROL', what).word,
    binaryPathName: (f.get('BINARY_PATH_NAME') ?? [''])[0]!,
    loadOrderGroup: (f.get('LOAD_ORDER_GROUP') ?? [''])[0]!.trim(),
    displayName: (f.get('DISPLAY_NAME') ?? [''])[0]!,
    dependencies: deps,
    serviceStartName: (f.get('SERVICE_START_NAME') ?? [''])[0]!.trim(),
  };
}

const STATES: Record<string, ServiceState> = {
  STOPPED: 'Stopped',
  START_PENDING: 'StartPending',
  STOP_PENDING: 'StopPending',
  RUNNING: 'Running',
  CONTINUE_PENDING: 'StartPending',
  PAUSE_PENDING: 'Paused',
  PAUSED: 'Paused',
};

/** `0  (0x0)` -> 0. */
function exitCode(value: string, key: string, what: string): number {
  const m = /^(-?[0-9]+)(?:\s+\(0x[0-9a-f]+\))?$/i.exec(value);
  if (!m) throw new Error(`${what}: ${key} is ${JSON.stringify(value)}, expected a number`);
  return Number(m[1]);
}

export function parseScQueryex(text: string): ScQueryex {
  const what = 'sc queryex';
  const { name, fields: f } = fields(text, what);
  const stateValues = f.get('STATE');
  if (!stateValues) throw new Error(`${what}: no STATE`);
  const st = word(stateValues[0]!.trim(), 'STATE', what);
  const state = STATES[st.word];
  if (!state) throw new Error(`${what}: unknown STATE ${JSON.stringify(st.word)}`);
  const flagLine = stateValues.slice(1).find((v) => v.startsWith('('));
  const pidText = one(f, 'PID', what);
  if (!/^[0-9]+$/.test(pidText)) throw new Error(`${what}: PID is ${JSON.stringify(pidText)}, expected a number`);
  return {
    name,
    type: word(one(f, 'TYPE', what), 'TYPE', what).word,
    state,
    stateName: st.word,
    controls: flagLine
      ? flagLine
          .slice(1, -1)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [],
    win32ExitCode: exitCode(one(f, 'WIN32_EXIT_CODE', what), 'WIN32_EXIT_CODE', what),
    serviceExitCode: exitCode(one(f, 'SERVICE_EXIT_CODE', what), 'SERVICE_EXIT_CODE', what),
    pid: Number(pidText),
  };
}
