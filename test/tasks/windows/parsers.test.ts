// The parsers of raw Windows tool output, against the field notes' real outputs (fixtures/, each
// citing its field note) and the variations a real node adds (CRLF, UTF-16 read as bytes, several
// dependencies, errors).
import test from 'ava';
import { engineVersion, parseDockerVersion } from '../../../tasks/windows/parse/docker-version.js';
import { parseNssmGet, parseNssmList } from '../../../tasks/windows/parse/nssm-output.js';
import { parseScQc, parseScQueryex } from '../../../tasks/windows/parse/sc-output.js';
import { crlf, fixture, utf16AsBytes } from './fixtures.js';

const QC_KUBELET = {
  name: 'kubelet',
  type: 'WIN32_OWN_PROCESS',
  startType: 'auto',
  delayed: false,
  errorControl: 'NORMAL',
  binaryPathName: 'C:\\k\\nssm.exe',
  loadOrderGroup: '',
  displayName: 'Kubelet',
  dependencies: ['docker'],
  serviceStartName: 'LocalSystem',
};

const QUERYEX_KUBELET = {
  name: 'kubelet',
  type: 'WIN32_OWN_PROCESS',
  state: 'Running',
  stateName: 'RUNNING',
  controls: ['STOPPABLE', 'PAUSABLE', 'ACCEPTS_SHUTDOWN'],
  win32ExitCode: 0,
  serviceExitCode: 0,
  pid: 4044,
};

test('sc qc: field note B (kubelet under nssm), with LF and with CRLF line ends', (t) => {
  t.deepEqual(parseScQc(fixture('sc-qc-kubelet.txt')), QC_KUBELET);
  t.deepEqual(parseScQc(crlf(fixture('sc-qc-kubelet.txt'))), QC_KUBELET);
});

test('sc qc: several dependencies continue the field; a quoted binPath with " : " and spaces stays whole; delayed start', (t) => {
  const text = fixture('sc-qc-kubelet.txt')
    .replace(
      'C:\\k\\nssm.exe',
      '"C:\\Program Files\\k\\kube-proxy.exe" --hostname-override=node009 --log-dir "C:\\k\\log : x"',
    )
    .replace('2   AUTO_START', '2   AUTO_START  (DELAYED)')
    .replace('DEPENDENCIES       : docker\n', 'DEPENDENCIES       : docker\n                           : kubelet\n')
    .replace('LocalSystem', 'NT AUTHORITY\\NetworkService');
  t.deepEqual(parseScQc(crlf(text)), {
    ...QC_KUBELET,
    binaryPathName: '"C:\\Program Files\\k\\kube-proxy.exe" --hostname-override=node009 --log-dir "C:\\k\\log : x"',
    dependencies: ['docker', 'kubelet'],
    delayed: true,
    serviceStartName: 'NT AUTHORITY\\NetworkService',
  });
  t.deepEqual(
    parseScQc(
      fixture('sc-qc-kubelet.txt')
        .replace('2   AUTO_START', '3   DEMAND_START')
        .replace('DEPENDENCIES       : docker', 'DEPENDENCIES       :'),
    ),
    { ...QC_KUBELET, startType: 'manual', dependencies: [] },
  );
  t.deepEqual(parseScQc(fixture('sc-qc-kubelet.txt').replace('2   AUTO_START', '4   DISABLED')), {
    ...QC_KUBELET,
    startType: 'disabled',
  });
});

test('sc qc: a failure, a missing field and junk are errors that say so', (t) => {
  t.throws(
    () =>
      parseScQc(
        '[SC] OpenService FAILED 1060:\r\n\r\nThe specified service does not exist as an installed service.\r\n',
      ),
    { message: /\[SC\] OpenService FAILED 1060: The specified service does not exist/ },
  );
  t.throws(() => parseScQc(fixture('sc-qc-kubelet.txt').replace(/ +START_TYPE.*\n/, '')), { message: /no START_TYPE/ });
  t.throws(() => parseScQc(fixture('sc-qc-kubelet.txt').replace('2   AUTO_START', '9   SOMETIMES')), {
    message: /unknown START_TYPE/,
  });
  t.throws(() => parseScQc(`${fixture('sc-qc-kubelet.txt')}garbage\n`), { message: /unexpected line "garbage"/ });
  t.throws(() => parseScQc('hello'), { message: /no SERVICE_NAME/ });
});

test('sc queryex: field note B (RUNNING, pid 4044, the flags line), LF and CRLF', (t) => {
  for (const text of [fixture('sc-queryex-kubelet.txt'), crlf(fixture('sc-queryex-kubelet.txt'))]) {
    t.deepEqual(parseScQueryex(text), QUERYEX_KUBELET);
  }
});

test('sc queryex: other states map to the contract, exit codes are read, bad values fail', (t) => {
  const base = fixture('sc-queryex-kubelet.txt');
  const stopped = base
    .replace('4  RUNNING', '1  STOPPED')
    .replace(/\n +\(STOPPABLE.*\)/, '\n                                (NOT_STOPPABLE, NOT_PAUSABLE, IGNORES_SHUTDOWN)')
    .replace('WIN32_EXIT_CODE    : 0  (0x0)', 'WIN32_EXIT_CODE    : 1067  (0x42b)')
    .replace('PID                : 4044', 'PID                : 0');
  t.deepEqual(parseScQueryex(stopped), {
    ...QUERYEX_KUBELET,
    state: 'Stopped',
    stateName: 'STOPPED',
    pid: 0,
    win32ExitCode: 1067,
    controls: ['NOT_STOPPABLE', 'NOT_PAUSABLE', 'IGNORES_SHUTDOWN'],
  });
  for (const [line, state, stateName] of [
    ['2  START_PENDING', 'StartPending', 'START_PENDING'],
    ['3  STOP_PENDING', 'StopPending', 'STOP_PENDING'],
    ['7  PAUSED', 'Paused', 'PAUSED'],
  ]) {
    t.deepEqual(parseScQueryex(base.replace('4  RUNNING', line!)), { ...QUERYEX_KUBELET, state, stateName }, line);
  }
  t.throws(() => parseScQueryex(base.replace('4  RUNNING', '4  JOGGING')), { message: /unknown STATE "JOGGING"/ });
  t.throws(() => parseScQueryex(base.replace('PID                : 4044', 'PID                : many')), {
    message: /PID is "many"/,
  });
});

test('nssm get: field note B values, also as UTF-16LE read byte by byte (NULs), with a BOM and CRLF', (t) => {
  const app = fixture('nssm-get-application.txt');
  t.is(parseNssmGet(app), 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe');
  t.is(
    parseNssmGet(utf16AsBytes(`\uFEFF${crlf(app)}`)),
    'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  );
  t.is(parseNssmGet(utf16AsBytes(crlf(fixture('nssm-get-appparameters.txt')))), 'c:\\k\\kubeletstart.ps1');
  t.is(parseNssmGet(''), '');
  t.deepEqual(parseNssmList(utf16AsBytes('docker\r\nflanneld\r\n')), ['docker', 'flanneld']);
  t.deepEqual(parseNssmList(''), []);
});

test('docker version: field note D (Docker EE 19.03.0): client and engine sections', (t) => {
  const v = parseDockerVersion(fixture('docker-version.txt'));
  t.is(v.clientProduct, 'Docker Engine - Enterprise');
  t.deepEqual(v.client, {
    Version: '19.03.0',
    'API version': '1.40',
    'Go version': 'go1.12.5',
    'Git commit': '87b1f470ad',
    Built: '07/16/2019 23:41:30',
    'OS/Arch': 'windows/amd64',
    Experimental: 'false',
  });
  t.is(v.serverProduct, 'Docker Engine - Enterprise');
  t.deepEqual(v.server, {
    Engine: {
      Version: '19.03.0',
      'API version': '1.40 (minimum version 1.24)',
      'Go version': 'go1.12.5',
      'Git commit': '87b1f470ad',
      Built: '07/16/2019 23:39:21',
      'OS/Arch': 'windows/amd64',
      Experimental: 'false',
    },
  });
  t.is(engineVersion(v), '19.03.0');
  t.deepEqual(v.errors, []);
  t.deepEqual(parseDockerVersion(crlf(fixture('docker-version.txt'))), v);
});

test("docker version: daemon not running (field note D's error): the client only, the error kept", (t) => {
  const client = fixture('docker-version.txt').split('\nServer:')[0]!;
  const v = parseDockerVersion(`${client}\n${fixture('docker-error-during-connect.txt')}`);
  t.is(v.client.Version, '19.03.0');
  t.is(v.server, null);
  t.is(engineVersion(v), null);
  t.is(v.errors.length, 1);
  t.regex(v.errors[0]!, /^error during connect: .*docker daemon is not running\.$/);
  t.throws(() => parseDockerVersion("'docker' is not recognized as an internal or external command"), {
    message: /not the output of docker version/,
  });
});
