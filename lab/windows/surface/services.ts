// The service control manager as Get-Service, Start/Stop/Set-Service, Win32_Service and Stop-Process
// see it (mock/Services.psm1), over the model's rules in services.ts: start brings dependencies up,
// a stop with running dependents is refused (1051), a disabled service does not start (1058).
import { scFailure, WIN32, WindowsError } from '../errors.js';
import { dependentsOf, findService, mustFindService, startService, stopService } from '../services.js';
import type { ServiceRecord } from '../node-state.js';
import { type Ops, optStr, str } from './types.js';

/** A service as the mocks build ServiceController and Win32_Service objects from it. */
function view(svc: ServiceRecord) {
  return {
    name: svc.name,
    displayName: svc.displayName,
    binPath: svc.binPath,
    type: svc.type,
    startMode: svc.startMode,
    account: svc.account,
    dependencies: [...svc.dependencies],
    state: svc.state,
    pid: svc.state === 'Running' ? svc.pid : 0,
    pausable: svc.pausable,
  };
}

const BUILTIN_ACCOUNTS = new Set([
  'localsystem',
  '.\\localsystem',
  'nt authority\\system',
  'nt authority\\localservice',
  'nt authority\\networkservice',
]);

export const serviceOps: Ops = {
  'Service.List': (node) =>
    Object.values(node.state.services)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(view),

  /** EnumDependentServices order (what ServiceController.DependentServices returns). */
  'Service.Dependents': (node, a) =>
    dependentsOf(node.state, mustFindService(node.state, str(a, 'name')).name).map(view),

  /**
   * ServiceController.Start/Stop/Continue. A refusal is answered, not thrown, so that the mock can
   * throw what .NET throws: InvalidOperationException("Cannot start service X on computer '.'.")
   * around a Win32Exception with the SCM's code and text (the reason is only in the inner one).
   */
  'Service.Control': (node, a) => {
    const s = node.state;
    const name = str(a, 'name');
    const control = str(a, 'control');
    const svc = findService(s, name);
    if (!svc) throw new WindowsError(`Service '${name}' was not found on computer '.'.`);
    try {
      if (control === 'start' || control === 'continue') startService(s, svc.name);
      else if (control === 'stop') stopService(s, svc.name);
      else throw new Error(`unknown service control ${control}`);
    } catch (e) {
      if (!(e instanceof WindowsError)) throw e;
      const m = /FAILED (\d+):\n\n(.*)$/s.exec(e.message);
      const verb = control === 'stop' ? 'stop' : 'start';
      return {
        refused: `Cannot ${verb} service ${svc.name} on computer '.'.`,
        win32Code: m ? Number(m[1]) : 0,
        win32Message: m ? m[2]! : e.message,
      };
    }
    return { refused: null, service: view(svc) };
  },

  /** Set-Service -StartupType / -DisplayName. */
  'Service.Configure': (node, a) => {
    const svc = findService(node.state, str(a, 'name'));
    if (!svc) throw new WindowsError(`Service ${str(a, 'name')} was not found on computer '.'.`);
    const mode = optStr(a, 'startMode');
    if (mode !== null) {
      if (mode !== 'Auto' && mode !== 'Manual' && mode !== 'Disabled') throw new Error(`start mode ${mode}`);
      svc.startMode = mode;
    }
    const display = optStr(a, 'displayName');
    if (display !== null) svc.displayName = display;
    return view(svc);
  },

  /**
   * Win32_Service.Change(StartName, StartPassword): its ReturnValue (0 success, 21 invalid
   * parameter, 22 invalid service account). The password goes to the SCM; the model keeps none.
   */
  'Service.ChangeAccount': (node, a) => {
    const svc = findService(node.state, str(a, 'name'));
    if (!svc) return 5; // the service cannot accept the control (it is gone)
    const account = str(a, 'account');
    const password = optStr(a, 'password');
    if (account.trim() === '') return 21;
    if (!BUILTIN_ACCOUNTS.has(account.toLowerCase()) && !password) return 22;
    svc.account = account;
    return 0;
  },

  /** Stop-Process -Id N -Force: a service's process killed, the service stops (1067: terminated unexpectedly). */
  'Process.Kill': (node, a) => {
    const pid = a.pid;
    const svc = Object.values(node.state.services).find((x) => x.state === 'Running' && x.pid === pid);
    if (!svc) throw new WindowsError(`Cannot find a process with the process identifier ${String(pid)}.`);
    svc.state = 'Stopped';
    svc.pid = 0;
    svc.win32ExitCode = 1067;
    return null;
  },
};

export { scFailure, WIN32 };
