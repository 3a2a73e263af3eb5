// The systemd service manager: used where systemd is PID 1 (`/run/systemd/system` exists, as
// sd_booted() checks). State from `systemctl show`/`is-active`/`is-enabled`; actions by
// `systemctl start|stop|restart|enable|disable` (`enable --now` when both are wanted), then a
// check that the unit is active, with its status in the error when it is not.
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import type { ProbeLines } from './probe-lines.js';

export interface SystemdState {
  readonly running: boolean;
  readonly pid: number | null;
  /** is-enabled says the unit starts at boot (or cannot be enabled, e.g. static). */
  readonly enabled: boolean;
  /** `active`, `inactive`, `failed`, ... and the unit-file state: for the plan. */
  readonly detail: string;
  /** LoadState not-found: there is no such unit on the host. */
  readonly missing: boolean;
}

export const SYSTEMD_MARKER = '/run/systemd/system';
const RUNNING = ['active', 'reloading'];
// `static`, `indirect`, `generated`, `alias`: nothing to enable; counted as enabled so that
// `enabled: true` is satisfied by them rather than failing.
const ENABLED = ['enabled', 'enabled-runtime', 'static', 'indirect', 'generated', 'alias', 'linked', 'linked-runtime'];

/** Records `load`, `active`, `enabled`, `mainpid` (each first line only). */
export function systemdProbeScript(unit: string): Script {
  return sh`echo 'manager systemd'
printf 'load %s\\n' "$(systemctl show -p LoadState --value ${unit} 2>/dev/null | head -n 1)"
printf 'active %s\\n' "$(systemctl is-active ${unit} 2>/dev/null | head -n 1)"
printf 'enabled %s\\n' "$(systemctl is-enabled ${unit} 2>/dev/null | head -n 1)"
printf 'mainpid %s\\n' "$(systemctl show -p MainPID --value ${unit} 2>/dev/null | head -n 1)"`;
}

export function parseSystemdProbe(lines: ProbeLines): SystemdState {
  const load = lines.record('load');
  const active = lines.record('active');
  const enabled = lines.record('enabled');
  const mainpid = lines.record('mainpid');
  if (mainpid !== '' && !/^[0-9]+$/.test(mainpid)) lines.fail(`malformed MainPID ${JSON.stringify(mainpid)}`);
  const running = RUNNING.includes(active);
  const pid = running && mainpid !== '' && mainpid !== '0' ? Number(mainpid) : null;
  return {
    running,
    pid,
    enabled: ENABLED.includes(enabled),
    detail: `${active || 'unknown'}, ${enabled || 'unknown'}`,
    missing: load === 'not-found',
  };
}

export interface SystemdPlan {
  readonly start?: boolean;
  readonly stop?: boolean;
  readonly restart?: boolean;
  /** true: enable, false: disable, undefined: leave alone. */
  readonly enable?: boolean;
  /** After the actions: require the unit active and print `pid N`. */
  readonly expectRunning: boolean;
}

export function systemdActionScript(unit: string, p: SystemdPlan): Script {
  const cmds: Script[] = [];
  if (p.enable === true && p.start) cmds.push(sh`systemctl enable --now ${unit}`);
  else if (p.enable === false && p.stop) cmds.push(sh`systemctl disable --now ${unit}`);
  else {
    if (p.enable === true) cmds.push(sh`systemctl enable ${unit}`);
    if (p.enable === false) cmds.push(sh`systemctl disable ${unit}`);
    if (p.start) cmds.push(sh`systemctl start ${unit}`);
    if (p.stop) cmds.push(sh`systemctl stop ${unit}`);
  }
  if (p.restart) cmds.push(sh`systemctl restart ${unit}`);
  const check = p.expectRunning
    ? sh`if ! systemctl is-active --quiet ${unit}; then systemctl status --no-pager --lines=20 ${unit} >&2; exit 1; fi
printf 'pid %s\\n' "$(systemctl show -p MainPID --value ${unit})"`
    : sh`:`;
  return joinScripts('sh', [sh`set -e`, ...cmds, check]);
}
