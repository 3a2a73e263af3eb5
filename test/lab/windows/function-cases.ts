// Every remote function of tasks/windows/remote/contract.ts with two cases to run under real PowerShell on
// a fresh simulated node: its happy path and its main failure (an error it throws, or the absent
// answer a probe gives). The Record type makes a function without cases a compile error, so a new
// function cannot be forgotten. A step folder's functions have theirs in the folder
// (tasks/windows/steps/<step>/cases.ts, found by that name; its own type makes one missing a compile
// error there). Used by every-function.test.ts and `npm run test:powershell`.
// Long because it is a table: two cases for each of the contract's functions.
import { DOWNLOADS } from '../../../lab/windows/defaults.js';
import { writeFile } from '../../../lab/windows/file-store.js';
import type { NodeState } from '../../../lab/windows/node-state.js';
import { withDocker } from '../../tasks/windows/sim-node.js';
import type { PlayFunctionName } from '../../../tasks/windows/remote/contract.js';
import type { StepFunctionName } from '../../../tasks/windows/remote/functions.js';
import { STEP_FOLDER_CASES } from '../../tasks/windows/step-folders.js';
import { CBR0_L2BRIDGE } from '../../helpers/windows-fixtures.js';

export interface FunctionCase {
  /** Sets the node up before the call (a fresh default node otherwise). */
  seed?: (s: NodeState) => void;
  /** Calls made first, on the same node (set-up through the functions themselves). */
  before?: { fn: PlayFunctionName; args: Record<string, unknown> }[];
  /** The argument (or made from the node's state, e.g. its NICs' MACs). */
  args: Record<string, unknown> | ((s: NodeState) => Record<string, unknown>);
  /** What the result must satisfy (happy), or the error message it must match (failure). */
  expect: ((value: any) => boolean) | RegExp;
}

const MSU = `${DOWNLOADS}\\windows10.0-kb4538461-x64.msu`;

type Cases<F extends string> = { readonly [N in F]: { happy: FunctionCase; failure: FunctionCase } };

const CONTRACT_CASES: Cases<Exclude<PlayFunctionName, StepFunctionName>> = {
  'Get-PlayOsInfo': {
    happy: { args: {}, expect: (v) => v.build === 17763 && v.revision === 973 && v.pendingReboot === false },
    failure: {
      before: [{ fn: 'Install-PlayHotfix', args: { kb: 'KB4538461', msuPath: MSU } }],
      args: {},
      expect: (v) => v.pendingReboot === true,
    },
  },
  'Get-PlayHotfix': {
    happy: { args: { kb: 'KB4534273' }, expect: (v) => v.installed === true && v.installedOn === '2020-01-15' },
    failure: {
      args: { kb: 'KB4538461', msuPath: 'C:\\nope.msu' },
      expect: (v) => v.installed === false && v.msuPresent === false,
    },
  },
  'Install-PlayHotfix': {
    happy: {
      args: { kb: 'KB4538461', msuPath: MSU },
      expect: (v) =>
        v.exitCode === 3010 &&
        v.output === '' &&
        v.packageName === 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1098.1.7',
    },
    // The package holds KB4538461's CAB, not KB4549949's: found out after expand.exe, before DISM.
    failure: {
      args: { kb: 'KB4549949', msuPath: MSU },
      expect: /does not hold the update KB4549949: expand\.exe extracted no Windows10\.0-KB4549949-x64\.cab/,
    },
  },
  'Get-PlayHotfixStage': {
    happy: {
      before: [{ fn: 'Expand-PlayHotfixStage', args: { kb: 'KB4538461', msuPath: MSU, stageDir: 'C:\\stage' } }],
      args: { kb: 'KB4538461', msuPath: MSU, stageDir: 'C:\\stage' },
      expect: (v) => v.stagedFrom === v.msuSha256 && /Applicable : Yes/.test(v.packageInfo.output) && v.freeBytes > 0,
    },
    failure: {
      args: { kb: 'KB4538461', msuPath: 'C:\\nope.msu', stageDir: 'C:\\stage' },
      expect: (v) => v.msuSha256 === null && v.stagedFrom === null && v.packageInfo === null,
    },
  },
  'Expand-PlayHotfixStage': {
    happy: {
      args: { kb: 'KB4538461', msuPath: MSU, stageDir: 'C:\\stage' },
      expect: (v) => v.packageInfo.exitCode === 0 && /State : Not Present/.test(v.packageInfo.output),
    },
    failure: {
      args: { kb: 'KB4549949', msuPath: MSU, stageDir: 'C:\\stage' },
      expect: /does not hold the update KB4549949: expand\.exe extracted no /,
    },
  },
  'Get-PlayHotfixPackage': {
    happy: {
      before: [{ fn: 'Install-PlayHotfix', args: { kb: 'KB4538461', msuPath: MSU } }],
      args: { kb: 'KB4538461' },
      expect: (v) => v.installed && v.packageName === 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1098.1.7',
    },
    failure: { args: { kb: 'KB4538461' }, expect: (v) => !v.installed && v.packageName === null },
  },
  'Remove-PlayHotfix': {
    happy: {
      before: [{ fn: 'Install-PlayHotfix', args: { kb: 'KB4538461', msuPath: MSU } }],
      args: { kb: 'KB4538461', packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1098.1.7' },
      expect: (v) => v.exitCode === 3010 && v.output === '',
    },
    // DISM's answer to an identity it does not know: 0x800f0805, with its text.
    failure: {
      args: { kb: 'KB4538461', packageName: 'Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.9999.1.7' },
      expect: (v) => v.exitCode === -2146498555 && /not valid Windows package/.test(v.output),
    },
  },
  'Test-PlayPath': {
    happy: { args: { path: 'C:\\Windows\\System32' }, expect: (v) => v.exists && v.isDirectory },
    failure: { args: { path: 'C:\\nope' }, expect: (v) => v.exists === false },
  },
  'Restart-PlayComputer': {
    happy: { args: { delaySeconds: 5 }, expect: (v) => v.scheduled === true },
    failure: { args: { delaySeconds: -1 }, expect: /shutdown\.exe \/r failed \(exit 87\)/ },
  },
  'Get-PlayDockerImage': {
    happy: {
      seed: withDocker,
      args: { reference: 'mcr.microsoft.com/windows/nanoserver:10.0.17763.973' },
      expect: (v) => v.daemonRunning && v.image === null,
    },
    failure: { args: { reference: 'x:1' }, expect: (v) => v.daemonRunning === false && v.image === null },
  },
  'Invoke-PlayDockerPull': {
    happy: {
      seed: withDocker,
      args: { reference: 'mcr.microsoft.com/windows/nanoserver:10.0.17763.973' },
      expect: (v) => /^sha256:b5e70b77/.test(v.id),
    },
    failure: {
      seed: withDocker,
      args: { reference: 'mcr.microsoft.com/no/such:1' },
      expect: /not found|manifest unknown|does not exist/i,
    },
  },
  'Get-PlayFile': {
    happy: {
      seed: (s) => writeFile(s, 'C:\\k\\a.txt', Buffer.from('hi')),
      args: { path: 'C:\\k\\a.txt', maxBytes: 100 },
      expect: (v) => v.contentBase64 === 'aGk=' && v.size === 2,
    },
    failure: { args: { path: 'C:\\k\\none.txt', maxBytes: 100 }, expect: (v) => v === null },
  },
  'Set-PlayFile': {
    happy: {
      args: { path: 'C:\\k\\new\\a.txt', contentBase64: 'aGk=', expectedSha256: null },
      expect: (v) => /^[0-9a-f]{64}$/.test(v.sha256),
    },
    failure: {
      seed: (s) => writeFile(s, 'C:\\k\\a.txt', Buffer.from('hi')),
      args: { path: 'C:\\k\\a.txt', contentBase64: 'aGk=', expectedSha256: null },
      expect: /changed since it was probed/,
    },
  },
  'Add-PlayFileChunk': {
    happy: {
      args: { path: 'C:\\k\\new\\a.msu.play-upload', offset: 0, contentBase64: 'aGk=' },
      expect: (v) => v.size === 2,
    },
    failure: {
      seed: (s) => writeFile(s, 'C:\\k\\a.msu.play-upload', Buffer.from('h')),
      args: { path: 'C:\\k\\a.msu.play-upload', offset: 2, contentBase64: 'aGk=' },
      expect: /holds 1 bytes, not the 2 sent so far: the upload starts over/,
    },
  },
  'Complete-PlayUpload': {
    happy: {
      seed: (s) => writeFile(s, 'C:\\k\\a.msu.play-upload', Buffer.from('hi')),
      args: {
        tempPath: 'C:\\k\\a.msu.play-upload',
        path: 'C:\\k\\a.msu',
        sha256: '8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4',
      },
      expect: (v) => v.sha256 === '8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4',
    },
    failure: {
      seed: (s) => writeFile(s, 'C:\\k\\a.msu.play-upload', Buffer.from('hx')),
      args: {
        tempPath: 'C:\\k\\a.msu.play-upload',
        path: 'C:\\k\\a.msu',
        sha256: '8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4',
      },
      expect: /arrived with sha256 [0-9a-f]{64}, not the 8f434346648f.* sent: not put in place/,
    },
  },
  'Get-PlayService': {
    happy: {
      args: { name: 'W32Time' },
      expect: (v) => /SERVICE_NAME: W32Time/.test(v.qc) && /RUNNING/.test(v.queryex),
    },
    failure: { args: { name: 'nosuch' }, expect: (v) => v === null },
  },
  'Set-PlayService': {
    happy: {
      args: { name: 'svc1', create: true, binPath: 'C:\\k\\svc1.exe --flag=""', startMode: 'Auto' },
      expect: (v) => typeof v === 'object',
    },
    failure: { args: { name: 'nosuch', create: false, startMode: 'Auto' }, expect: /OpenService FAILED 1060/ },
  },
  'Set-PlayServiceState': {
    happy: { args: { name: 'W32Time', action: 'restart' }, expect: (v) => v.state === 'Running' && v.pid > 0 },
    failure: {
      args: { name: 'ssh-agent', action: 'start' },
      expect: /ssh-agent cannot start: .*disabled.*\(Win32 error 1058\)/,
    },
  },
  'Get-PlayHnsNetwork': {
    happy: {
      before: [{ fn: 'New-PlayHnsNetwork', args: CBR0_L2BRIDGE }],
      args: { name: 'cbr0' },
      expect: (v) => v.type === 'L2Bridge' && v.addressPrefix === '10.244.9.0/24',
    },
    failure: { args: { name: 'cbr0' }, expect: (v) => v === null },
  },
  'New-PlayHnsNetwork': {
    happy: { args: CBR0_L2BRIDGE, expect: (v) => /^[0-9A-Fa-f-]{36}$/.test(v.id) },
    failure: { args: { ...CBR0_L2BRIDGE, adapterName: 'nosuch' }, expect: /HNS POST \/networks failed/ },
  },
  'Remove-PlayHnsNetwork': {
    happy: {
      before: [{ fn: 'New-PlayHnsNetwork', args: CBR0_L2BRIDGE }],
      args: { name: 'cbr0' },
      expect: (v) => typeof v === 'object',
    },
    failure: { args: { name: 'cbr0' }, expect: (v) => typeof v === 'object' },
  },
};

/** Every step folder's function cases. */
const folderCases = STEP_FOLDER_CASES.map((f) => f.CASES);

export const FUNCTION_CASES = Object.assign({}, CONTRACT_CASES, ...folderCases) as Cases<PlayFunctionName>;
