// The service control manager of the simulated Windows node (a test double): start starts the
// dependencies first; stop refuses while running services depend on the service (error 1051,
// docs/field-notes.md#b-restarting-a-service-with-dependents); restart stops the running dependents
// first and starts them again after. sc.exe's messages.
import { scFailure, WIN32, WindowsError } from './errors.js';
import { fileExists, readFile } from './file-store.js';
import type { NodeState, ServiceRecord } from './node-state.js';

export const DAEMON_JSON = 'C:\\ProgramData\\Docker\\config\\daemon.json';

/**
 * A service as the SCM creates it: stopped, never started since boot (1077), its own process, run
 * as LocalSystem, started by hand, with what the caller sets on top.
 */
export function serviceRecord(name: string, binPath: string, more: Partial<ServiceRecord> = {}): ServiceRecord {
  return {
    name,
    displayName: name,
    binPath,
    type: 'own',
    startMode: 'Manual',
    account: 'LocalSystem',
    dependencies: [],
    state: 'Stopped',
    pid: 0,
    win32ExitCode: 1077,
    pausable: false,
    ...more,
  };
}

export function findService(s: NodeState, name: string): ServiceRecord | undefined {
  return s.services[name.toLowerCase()];
}

export function mustFindService(s: NodeState, name: string, operation = 'OpenService'): ServiceRecord {
  const svc = findService(s, name);
  if (!svc) throw scFailure(operation, 1060, WIN32[1060]);
  return svc;
}

/** Services that list `name` among their dependencies, in name order. */
export function directDependentsOf(s: NodeState, name: string): ServiceRecord[] {
  const n = name.toLowerCase();
  return Object.values(s.services)
    .filter((x) => x.dependencies.some((d) => d.toLowerCase() === n))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** True when `from` depends, directly or not, on `target`. */
export function dependsOn(s: NodeState, from: string, target: string, seen = new Set<string>()): boolean {
  const key = from.toLowerCase();
  if (key === target.toLowerCase()) return true;
  if (seen.has(key)) return false;
  seen.add(key);
  return (findService(s, from)?.dependencies ?? []).some((d) => dependsOn(s, d, target, seen));
}

export function allocatePid(s: NodeState): number {
  const pid = s.nextPid;
  s.nextPid += 4;
  return pid;
}

/** The executable of a binPath: `"C:\a b\x.exe" --flag` or `C:\k\kubelet.exe --flag`. */
export function executableOf(binPath: string): string {
  const t = binPath.trim();
  if (t.startsWith('"')) return t.slice(1, t.indexOf('"', 1) > 0 ? t.indexOf('"', 1) : undefined);
  const exe = /^(.*?\.exe)(\s|$)/i.exec(t);
  return exe ? exe[1]! : t.split(/\s+/)[0]!;
}

/** Why the service's process would not come up, as a Win32 error code; null when it would. */
function startFailure(s: NodeState, svc: ServiceRecord): number | null {
  const exe = executableOf(svc.binPath);
  // System binaries (svchost.exe and friends) are not modelled as files; everything else must exist.
  const system = /^[a-z]:\\windows\\/i.test(exe);
  if (!system && /^[a-z]:\\/i.test(exe) && !fileExists(s, exe)) return 2;
  if (svc.name.toLowerCase() === 'docker') {
    // dockerd exits at once without the Containers feature (installed by the reboot after Docker's install).
    if (s.docker.install !== 'installed' || s.features['containers']?.installState !== 'Installed') return 1067;
    const config = readFile(s, DAEMON_JSON);
    if (config !== null) {
      try {
        JSON.parse(config.toString('utf8').replace(/^\uFEFF/, ''));
      } catch {
        return 1067; // dockerd refuses a daemon.json it cannot parse
      }
    }
  }
  return null;
}

export function startService(s: NodeState, name: string, chain: string[] = []): ServiceRecord {
  const svc = mustFindService(s, name);
  if (svc.state === 'Running') return svc;
  if (svc.startMode === 'Disabled') throw scFailure('StartService', 1058, WIN32[1058]);
  for (const dep of svc.dependencies) {
    const d = findService(s, dep);
    if (!d) throw scFailure('StartService', 1075, WIN32[1075]);
    if (chain.includes(d.name.toLowerCase())) throw scFailure('StartService', 1059, WIN32[1059]);
    try {
      startService(s, d.name, [...chain, svc.name.toLowerCase()]);
    } catch (e) {
      if (e instanceof WindowsError) throw scFailure('StartService', 1068, WIN32[1068]);
      throw e;
    }
  }
  const failure = startFailure(s, svc);
  if (failure !== null) {
    svc.win32ExitCode = failure;
    throw scFailure('StartService', failure, WIN32[failure as keyof typeof WIN32]);
  }
  svc.state = 'Running';
  svc.pid = allocatePid(s);
  svc.win32ExitCode = 0;
  if (svc.name.toLowerCase() === 'docker') s.dockerLoadedInsecureRegistries = daemonInsecureRegistries(s);
  return svc;
}

/** daemon.json's insecure-registries now: dockerd reads the file only when it starts (a changed file needs a restart). */
export function daemonInsecureRegistries(s: NodeState): string[] {
  const config = readFile(s, DAEMON_JSON);
  if (config === null) return [];
  const parsed: unknown = JSON.parse(config.toString('utf8').replace(/^\uFEFF/, ''));
  const list =
    parsed !== null && typeof parsed === 'object'
      ? (parsed as Record<string, unknown>)['insecure-registries']
      : undefined;
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
}

function halt(svc: ServiceRecord): void {
  svc.state = 'Stopped';
  svc.pid = 0;
  svc.win32ExitCode = 0;
}

export function stopService(s: NodeState, name: string): ServiceRecord {
  const svc = mustFindService(s, name);
  if (svc.state !== 'Running') return svc;
  if (directDependentsOf(s, svc.name).some((d) => d.state === 'Running'))
    throw scFailure('ControlService', 1051, WIN32[1051]);
  halt(svc);
  return svc;
}

/**
 * Every service that depends on `name`, directly or not, in the order that stops each before what it
 * depends on: EnumDependentServices' "reverse order of the start order", which .NET's
 * ServiceController.DependentServices (and so the steps' functions) return.
 */
export function dependentsOf(s: NodeState, name: string, out: ServiceRecord[] = []): ServiceRecord[] {
  for (const d of directDependentsOf(s, name)) {
    if (out.includes(d)) continue;
    dependentsOf(s, d.name, out);
    if (!out.includes(d)) out.push(d);
  }
  return out;
}

/** Stops running dependents, restarts the service, starts the dependents again; returns their names. */
export function restartService(s: NodeState, name: string): { svc: ServiceRecord; restartedDependents: string[] } {
  const svc = mustFindService(s, name);
  const dependents = dependentsOf(s, svc.name).filter((d) => d.state === 'Running');
  for (const d of dependents) halt(d);
  halt(svc);
  startService(s, svc.name);
  const again = [...dependents].reverse();
  for (const d of again) startService(s, d.name);
  return { svc, restartedDependents: again.map((d) => d.name) };
}

/** At boot every service is stopped, then the Auto ones start (failures leave them stopped). */
export function bootServices(s: NodeState): void {
  for (const svc of Object.values(s.services)) {
    svc.state = 'Stopped';
    svc.pid = 0;
    svc.win32ExitCode = 1077;
  }
  for (const svc of Object.values(s.services).sort((a, b) => a.name.localeCompare(b.name))) {
    if (svc.startMode !== 'Auto' || svc.state === 'Running') continue;
    try {
      startService(s, svc.name);
    } catch (e) {
      if (!(e instanceof WindowsError)) throw e;
    }
  }
}
