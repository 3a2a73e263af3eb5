// Services (sc.exe) and nssm on the simulated Windows node (a test double): sc qc / sc queryex texts
// as in docs/field-notes.md#b-sc-qc-and-nssm-get, dependents, sc create/config, start/stop/restart with the SCM's dependency rules,
// and nssm's parameters (its DependOnService is the service's own dependency list).
import { scFailure, WIN32, WindowsError } from '../errors.js';
import { fileExists } from '../file-store.js';
import { scQc, scQueryex } from '../sc-text.js';
import {
  dependentsOf,
  dependsOn,
  findService,
  mustFindService,
  restartService,
  startService,
  stopService,
} from '../services.js';
import type { NodeState, ServiceRecord } from '../state.js';
import type { Handlers } from './types.js';

const BUILTIN_ACCOUNTS = [
  'localsystem',
  '.\\localsystem',
  'nt authority\\system',
  'nt authority\\localservice',
  'nt authority\\networkservice',
];

function checkDependencies(s: NodeState, name: string, dependencies: readonly string[], operation: string): void {
  if (dependencies.some((d) => d.toLowerCase() === name.toLowerCase() || dependsOn(s, d, name))) {
    throw scFailure(operation, 1059, WIN32[1059]);
  }
}

/** The steps' functions find nssm.exe on the PATH or as C:\k\nssm.exe (the node's nssmPath). */
function requireNssm(s: NodeState): void {
  if (!fileExists(s, s.nssmPath))
    throw new WindowsError('nssm.exe was not found (neither on the PATH nor as C:\\k\\nssm.exe)');
}

/** `nssm get` prints UTF-16LE text ending in CRLF, one line per entry of a list. */
const nssmOut = (lines: readonly string[]) => (lines.length === 0 ? '\r\n' : lines.map((l) => `${l}\r\n`).join(''));

function directoryOf(path: string): string {
  const i = path.replace(/\//g, '\\').lastIndexOf('\\');
  return i > 2 ? path.slice(0, i) : path.slice(0, 3);
}

export const serviceHandlers = {
  'Get-PlayService': (node, { name }) => {
    const svc = findService(node.state, name);
    if (!svc) return null;
    return {
      qc: scQc(svc),
      queryex: scQueryex(svc),
      dependents: dependentsOf(node.state, svc.name).map((d) => d.name),
    };
  },

  'Set-PlayService': (node, a) => {
    const s = node.state;
    const operation = a.create ? 'CreateService' : 'ChangeServiceConfig';
    if (/[\\/]/.test(a.name) || a.name === '')
      throw scFailure(operation, 123, 'The filename, directory name, or volume label syntax is incorrect.');
    let svc: ServiceRecord;
    if (a.create) {
      if (findService(s, a.name)) throw scFailure('CreateService', 1073, WIN32[1073]);
      if (!a.binPath) throw scFailure('CreateService', 87, 'The parameter is incorrect.');
      svc = {
        name: a.name,
        displayName: a.name,
        binPath: a.binPath,
        type: 'own',
        startMode: 'Manual',
        account: 'LocalSystem',
        dependencies: [],
        state: 'Stopped',
        pid: 0,
        win32ExitCode: 1077,
        pausable: false,
      };
    } else {
      svc = { ...mustFindService(s, a.name) };
    }
    if (a.dependencies) {
      checkDependencies(s, svc.name, a.dependencies, operation);
      svc.dependencies = [...a.dependencies];
    }
    if (a.account !== undefined && a.account !== null) {
      if (!BUILTIN_ACCOUNTS.includes(a.account.toLowerCase()) && !a.password)
        throw scFailure(operation, 1057, WIN32[1057]);
      svc.account = a.account;
    }
    if (a.binPath) svc.binPath = a.binPath;
    if (a.displayName) svc.displayName = a.displayName;
    if (a.startMode) svc.startMode = a.startMode;
    // The password is handed to the SCM, never kept: nothing of it is in the model.
    s.services[svc.name.toLowerCase()] = svc;
    return {};
  },

  'Set-PlayServiceState': (node, { name, action }) => {
    const s = node.state;
    let restartedDependents: string[] = [];
    let svc: ServiceRecord;
    if (action === 'start') svc = startService(s, name);
    else if (action === 'stop') {
      // The steps' function checks DependentServices first and throws its own message (the SCM's
      // 1051 never comes back through it).
      const running = dependentsOf(s, mustFindService(s, name).name)
        .filter((d) => d.state !== 'Stopped')
        .map((d) => d.name);
      if (running.length > 0)
        throw new WindowsError(
          `${name} cannot be stopped while services that depend on it run: ${running.join(', ')} (stop them first)`,
        );
      svc = stopService(s, name);
    } else ({ svc, restartedDependents } = restartService(s, name));
    return { state: svc.state, pid: svc.pid, restartedDependents };
  },

  'Get-PlayNssmService': (node, { name }) => {
    const svc = findService(node.state, name);
    const n = svc && node.state.nssm[svc.name.toLowerCase()];
    // Only a service whose ImagePath runs nssm.exe counts (sc config binPath= can take it away).
    if (!svc || !n || !/nssm(\.exe)?"?\s*$/i.test(svc.binPath)) return null;
    requireNssm(node.state);
    return {
      Application: nssmOut([n.Application]),
      AppParameters: nssmOut([n.AppParameters]),
      AppDirectory: nssmOut([n.AppDirectory]),
      DependOnService: nssmOut(svc.dependencies),
    };
  },

  'Set-PlayNssmService': (node, a) => {
    const s = node.state;
    requireNssm(s);
    let svc = findService(s, a.name);
    if (a.install) {
      if (svc)
        throw new WindowsError('Error creating service!\nCreateService(): The specified service already exists.');
      if (!a.application) throw new WindowsError(`Usage: nssm install <servicename> <application> [<options>]`);
      svc = {
        name: a.name,
        displayName: a.name,
        binPath: s.nssmPath,
        type: 'own',
        startMode: 'Auto',
        account: 'LocalSystem',
        dependencies: [],
        state: 'Stopped',
        pid: 0,
        win32ExitCode: 1077,
        pausable: true,
      };
      s.services[a.name.toLowerCase()] = svc;
      s.nssm[a.name.toLowerCase()] = {
        Application: a.application,
        AppParameters: '',
        AppDirectory: directoryOf(a.application),
      };
    }
    if (!svc)
      throw new WindowsError(
        "Can't open service!\nOpenService(): The specified service does not exist as an installed service.",
      );
    const n = s.nssm[svc.name.toLowerCase()];
    if (!n) throw new WindowsError(`The service ${svc.name} is not managed by nssm.`);
    if (a.dependOnService) {
      checkDependencies(s, svc.name, a.dependOnService, 'ChangeServiceConfig');
      svc.dependencies = [...a.dependOnService];
    }
    if (a.application) n.Application = a.application;
    if (a.appParameters !== undefined && a.appParameters !== null) n.AppParameters = a.appParameters;
    if (a.appDirectory) n.AppDirectory = a.appDirectory;
    return {};
  },
} satisfies Partial<Handlers>;
