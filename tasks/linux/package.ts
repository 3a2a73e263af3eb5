// pkg({ name, manager? }): a distribution package is installed. Field: installed. (Named pkg:
// `package` is a reserved word in ES modules and cannot be imported by name.)
// The probe finds the package manager (apt/dpkg, then dnf, then yum, by `command -v`) and asks
// it whether the package is there: dpkg-query's status word `installed` (`install ok installed`,
// or `hold ok installed` for a held package), `rpm -q --whatprovides` on dnf/yum hosts (so a name
// that dnf resolves through Provides is found after installing it too). A host that has the
// package is noop: nothing is installed or refreshed. Apply installs with the manager the probe
// found: apt-get (noninteractive, no recommends, waiting for the dpkg lock; `apt-get update` only
// when the package lists do not know the package yet), `dnf -y install`, `yum -y install`.
// Removing packages and version pins are not supported.
import { NOOP, type Change } from '../../runner/core/change.js';
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import { mustRun } from '../../runner/core/remote.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { nonEmpty, oneOf, readOptions } from '../../runner/core/step-options.js';
import { ProbeLines } from './probe-lines.js';

export type PackageManager = (typeof MANAGERS)[number];

export interface PackageActual {
  /** null: the host has none of the managers asked for. */
  readonly manager: PackageManager | null;
  readonly installed: boolean;
  /** What the manager said, for the plan: `deinstall ok config-files`, `not installed`. */
  readonly status: string;
}

const KIND = 'linux.package';
const MANAGERS = ['apt', 'dnf', 'yum'] as const;
// Debian names are lowercase [a-z0-9+.-]; RPM names also allow capitals and '_'. Never a leading '-'.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;
/** apt-get's words for package lists that do not know the package (yet): worth one `apt-get update`. */
const STALE_LISTS = ['Unable to locate package', 'has no installation candidate'];

const Options = z
  .strictObject({
    name: nonEmpty().refine((n) => NAME.test(n), {
      error: (iss) =>
        `must be a package name (letters, digits, '.', '_', '+', '-'; not starting with '-'), got ${JSON.stringify(String(iss.input).slice(0, 60))}`,
    }),
    /** Default 'auto': the first of apt, dnf, yum the host has. */
    manager: oneOf('auto', ...MANAGERS).default('auto'),
  })
  .transform((o) => ({ ...o, installed: true as const }));

export type PackageOptions = z.input<typeof Options>;
export type PackageDesired = Readonly<z.output<typeof Options>>;

function diffPackage(d: Readonly<PackageDesired>, a: PackageActual | null): Change {
  if (a?.installed) return NOOP;
  const warnings =
    a !== null && a.manager === null
      ? [
          `no supported package manager (${d.manager === 'auto' ? 'apt-get with dpkg, dnf or yum' : d.manager}) on this host: apply will fail`,
        ]
      : [];
  return {
    action: 'create',
    fields: ['installed'],
    before: { installed: a?.status ?? 'not installed' },
    after: { installed: true },
    ...(warnings.length ? { warnings } : {}),
  };
}

function branch(manager: PackageManager, name: string): Script {
  if (manager === 'apt') {
    // One status line per installed architecture; the package is there when any says `installed`.
    return sh`command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then echo 'manager apt'; dpkg-query -W -f=${'status ${Status}\\n'} ${name} 2>/dev/null || echo 'status not-installed'`;
  }
  return sh`command -v ${manager} >/dev/null 2>&1 && command -v rpm >/dev/null 2>&1; then echo ${`manager ${manager}`}; if rpm -q --quiet --whatprovides ${name}; then echo 'status installed'; else echo 'status not-installed'; fi`;
}

export function packageProbeScript(name: string, manager: 'auto' | PackageManager): Script {
  const order = manager === 'auto' ? MANAGERS : [manager];
  const branches = order.map((m, i) => (i === 0 ? sh`if ${branch(m, name)}` : sh`elif ${branch(m, name)}`));
  return joinScripts('sh', [...branches, sh`else echo 'manager none'; fi`]);
}

export function parsePackageProbe(lines: ProbeLines): PackageActual {
  const manager = lines.record('manager');
  if (manager === 'none') return { manager: null, installed: false, status: 'no package manager' };
  if (!(MANAGERS as readonly string[]).includes(manager))
    lines.fail(`unknown package manager ${JSON.stringify(manager)}`);
  const statuses: string[] = [];
  while (!lines.done) statuses.push(lines.record('status'));
  if (statuses.length === 0) lines.fail('no status line');
  // dpkg: `want flag state`; the state word `installed` is the only complete one.
  const installed = statuses.some((s) => s === 'installed' || /^\S+ ok installed$/.test(s));
  const status = statuses.join('; ').replace('not-installed', 'not installed');
  return { manager: manager as PackageManager, installed, status };
}

function installScript(manager: PackageManager, name: string): Script {
  if (manager === 'dnf') return sh`dnf -y install ${name} </dev/null`;
  if (manager === 'yum') return sh`yum -y install ${name} </dev/null`;
  // LC_ALL=C: the stale-lists messages are matched in English.
  const install = sh`LC_ALL=C DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 ${name} </dev/null`;
  const stale = joinScripts(
    'sh',
    STALE_LISTS.map((m) => sh`*${m}*`),
    '|',
  );
  return sh`if play_out=$(${install} 2>&1); then printf '%s\\n' "$play_out"; else
  play_rc=$?
  case $play_out in
    ${stale}) printf '%s\\n' "$play_out" >&2
      LC_ALL=C DEBIAN_FRONTEND=noninteractive apt-get update -o DPkg::Lock::Timeout=120 </dev/null >&2 && ${install} ;;
    *) printf '%s\\n' "$play_out" >&2; exit "$play_rc" ;;
  esac
fi`;
}

export function pkg(options: PackageOptions): ShellStep<PackageDesired, PackageActual> {
  const desired: PackageDesired = Object.freeze(readOptions(KIND, Options, options));
  const { name } = desired;
  const title = `package ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: packageProbeScript(name, desired.manager),
      parse: (result: ExecResult) => parsePackageProbe(new ProbeLines(title, result)),
    }),
    diff: diffPackage,
    async apply(remote: Remote, change: Change, actual: PackageActual | null, d: Readonly<PackageDesired>) {
      await applyFields(change, ['installed'], {
        installed: async () => {
          if (!actual?.manager) throw new Error(`${title}: no supported package manager on this host`);
          await mustRun(remote, installScript(actual.manager, d.name), `${title}: ${actual.manager} install`);
        },
      });
    },
  });
}
