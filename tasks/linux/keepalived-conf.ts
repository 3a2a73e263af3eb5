// keepalivedConf({ path?, config, keepalivedBin?, mode?, owner?, group? }): keepalived.conf rendered
// from typed data (keepalived-model.ts). Fields: content (by sha256), mode (default 0640),
// owner and group (default root).
//
// The content holds auth_pass, so it is a Secret: the probe masks auth_pass in the current file on
// the host (sed) before sending it, and the plan's text diff is between the two masked texts, so
// an operator sees the changed VIP lines but never a password, old or new. Apply writes the new
// file next to the target, runs `keepalived -t -f` on it (interfaces are checked in the host's own
// network namespace), and only when that passes renames it into place with the guarded atomic
// write of fs-write.ts; otherwise the step fails with keepalived's (redacted) messages and the old
// file stays as it was. Restarting keepalived is the service step's job (triggeredBy).
import { posix } from 'node:path';
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { RemoteError } from '../../runner/core/errors.js';
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import { MASK, type Secret } from '../../runner/core/secret.js';
import { STAT_SIZE } from '../../runner/core/shared-stat.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { absolutePath, filePath, fileMode, principal, readOptions } from '../../runner/core/step-options.js';
import {
  fsProbeScript,
  parseFsProbe,
  principalMatches,
  principalsView,
  readBase64Section,
  sha256Hex,
  textOf,
  type FsEntry,
} from './fs-probe.js';
import {
  atomicWriteScript,
  chmodScript,
  FILE_APPLY_ORDER,
  ownershipSetters,
  refuseWrongType,
  runApply,
  wrongTypeChange,
} from './fs-write.js';
import {
  AUTH_PASS_SED,
  renderKeepalivedConf,
  renderKeepalivedConfMasked,
  frozenConfig,
  type KeepalivedConfig,
} from './keepalived-model.js';
import { keepalivedConfigSchema } from './keepalived-schema.js';
import { ProbeLines } from './probe-lines.js';
import { unifiedDiff } from '../common/text-diff.js';

export interface KeepalivedConfDesired {
  readonly path: string;
  readonly config: KeepalivedConfig;
  readonly content: Secret;
  /** The content with auth_pass masked: what plans show. */
  readonly masked: string;
  readonly sha256: string;
  readonly mode: string;
  readonly owner: string;
  readonly group: string;
  readonly keepalivedBin: string;
  /** The validator's warnings, carried by every non-noop change. */
  readonly warnings: readonly string[];
}

export interface KeepalivedConfActual {
  /** Type and stat; `sha256` of a regular file; never its content. */
  readonly file: FsEntry | null;
  /** The current file with auth_pass masked on the host; null when large or not UTF-8 text. */
  readonly maskedText: string | null;
  /** keepalivedBin is executable (apply needs it for the config test). */
  readonly keepalived: boolean;
}

const KIND = 'linux.keepalivedConf';
const FIELDS = ['content', 'mode', 'owner', 'group'] as const;
export const DEFAULT_KEEPALIVED_CONF = '/etc/keepalived/keepalived.conf';
export const DEFAULT_KEEPALIVED_BIN = '/usr/sbin/keepalived';
/** Files up to this size come back masked, for the plan's text diff. */
const MASKED_LIMIT = 64 * 1024;
/** The temp file keepalived -t reads; its name appears in keepalived's messages. */
const CHECK_PREFIX = '.play-check-';

const Options = z.strictObject({
  /** Default /etc/keepalived/keepalived.conf; its directory must exist. */
  path: filePath().default(DEFAULT_KEEPALIVED_CONF),
  /** keepalived's settings; each issue's path names the field (`config.instance.priority`). */
  config: keepalivedConfigSchema,
  /** Used for `keepalived -t`; default /usr/sbin/keepalived. */
  keepalivedBin: absolutePath().default(DEFAULT_KEEPALIVED_BIN),
  mode: fileMode().default('0640'),
  owner: principal().default('root'),
  group: principal().default('root'),
});

/** The schema reads the config from any value; a caller writes a KeepalivedConfig. */
export type KeepalivedConfOptions = Omit<z.input<typeof Options>, 'config'> & { readonly config: KeepalivedConfig };

function diffConf(d: Readonly<KeepalivedConfDesired>, a: KeepalivedConfActual | null): Change {
  const warnings = [...d.warnings];
  if (a !== null && !a.keepalived)
    warnings.push(
      `${d.keepalivedBin} is not installed: apply cannot test the new config with keepalived -t and will fail (install keepalived first)`,
    );
  const desiredView: Fields = { content: MASK, mode: d.mode, owner: d.owner, group: d.group };
  const pick = (view: Fields, fields: readonly string[]): Fields => Object.fromEntries(fields.map((f) => [f, view[f]]));
  const file = a?.file ?? null;
  if (file === null) {
    return {
      action: 'create',
      fields: FIELDS,
      before: null,
      after: desiredView,
      textDiff: unifiedDiff(null, d.masked, { path: d.path }),
      ...(warnings.length ? { warnings } : {}),
    };
  }
  if (file.type !== 'file') {
    const blocked = wrongTypeChange(d.path, file.type, 'file', 'content', { content: MASK });
    return { ...blocked, warnings: [...blocked.warnings!, ...warnings] };
  }
  const st = file.stat!;
  const changed = FIELDS.filter((f) =>
    f === 'content'
      ? d.sha256 !== file.sha256
      : f === 'mode'
        ? d.mode !== st.mode
        : f === 'owner'
          ? !principalMatches(d.owner, st.owner, st.uid)
          : !principalMatches(d.group, st.group, st.gid),
  );
  if (changed.length === 0) return NOOP;
  const actualView: Fields = { content: MASK, mode: st.mode, ...principalsView(d, st) };
  let textDiff: string | undefined;
  if (changed.includes('content') && a!.maskedText !== null) {
    textDiff = unifiedDiff(a!.maskedText, d.masked, { path: d.path });
    if (textDiff === '') {
      textDiff = undefined;
      warnings.push('only the masked auth_pass line differs');
    }
  }
  return {
    action: 'update',
    fields: changed,
    before: pick(actualView, changed),
    after: pick(desiredView, changed),
    ...(textDiff !== undefined ? { textDiff } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

// Its report shows the owner and group by name, however they were given.
const FS_PROBE = { names: true } as const;

function probeScript(path: string, bin: string): Script {
  // The size from the stat line fsProbeScript left in play_st: no `wc` on the host.
  const maskedText = sh`${STAT_SIZE}; if [ "$play_sz" -le ${MASKED_LIMIT} ]; then echo masked; LC_ALL=C sed -E ${AUTH_PASS_SED} < ${path} | LC_ALL=C base64; echo end; else echo 'masked none'; fi`;
  return joinScripts('sh', [
    fsProbeScript(path, FS_PROBE),
    sh`if [ -f ${path} ] && ! [ -L ${path} ]; then play_sum=$(LC_ALL=C sha256sum < ${path}) && printf 'sha256 %s\\n' "\${play_sum%% *}" && ${maskedText}; fi`,
    sh`if [ -x ${bin} ]; then echo 'keepalived present'; else echo 'keepalived absent'; fi`,
  ]);
}

function parseProbe(lines: ProbeLines): KeepalivedConfActual {
  let file = parseFsProbe(lines, FS_PROBE);
  let maskedText: string | null = null;
  if (file?.type === 'file') {
    file = { ...file, sha256: lines.match('sha256', /^[0-9a-f]{64}$/)[0] };
    if (lines.peek() === 'masked') {
      lines.next('masked');
      maskedText = textOf(readBase64Section(lines));
    } else if (lines.record('masked') !== 'none') {
      lines.fail("expected 'masked' or 'masked none'");
    }
  }
  const bin = lines.record('keepalived');
  if (bin !== 'present' && bin !== 'absent') lines.fail(`unknown keepalived state ${JSON.stringify(bin)}`);
  return { file, maskedText, keepalived: bin === 'present' };
}

/**
 * Writes stdin to a temp file, has keepalived test it, then hands it to the guarded atomic write
 * (through fd 3: the checked bytes are the written bytes, and the temp file is already unlinked,
 * so nothing is left behind whatever happens next).
 */
function checkedWriteScript(d: Readonly<KeepalivedConfDesired>, expect: string): Script {
  const dir = posix.dirname(d.path);
  const template = `${dir === '/' ? '' : dir}/${CHECK_PREFIX}XXXXXXXX`;
  const rejected = `keepalived -t rejected the new configuration; ${d.path} is unchanged`;
  return joinScripts('sh', [
    sh`play_check=$(mktemp ${template})`,
    sh`trap 'rm -f "$play_check"' EXIT`,
    sh`cat > "$play_check"`,
    sh`if play_out=$(${d.keepalivedBin} -t -f "$play_check" 2>&1); then :; else play_rc=$?; printf '%s\\n%s (exit %s)\\n' "$play_out" ${rejected} "$play_rc" >&2; exit "$play_rc"; fi`,
    sh`exec 3< "$play_check"`,
    sh`rm -f "$play_check"`,
    sh`trap - EXIT`,
    sh`{
${atomicWriteScript({ path: d.path, mode: d.mode, owner: d.owner, group: d.group, expect })}
} <&3`,
    sh`exec 3<&-`,
  ]);
}

export function keepalivedConf(options: KeepalivedConfOptions): ShellStep<KeepalivedConfDesired, KeepalivedConfActual> {
  const { config: parsed, ...o } = readOptions(KIND, Options, options);
  // The model freezes the config the schema read and says what keepalived would do differently.
  const { config, warnings } = frozenConfig(parsed, 'config');
  const content = renderKeepalivedConf(config);
  const desired: KeepalivedConfDesired = Object.freeze({
    ...o,
    config,
    content,
    masked: renderKeepalivedConfMasked(config),
    sha256: sha256Hex(content.reveal()),
    warnings,
  });
  const { path } = desired;
  const title = `keepalived.conf ${path}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: probeScript(path, desired.keepalivedBin),
      parse: (result: ExecResult) => {
        const lines = new ProbeLines(title, result);
        const actual = parseProbe(lines);
        lines.end();
        return actual;
      },
    }),
    diff: diffConf,
    async apply(
      remote: Remote,
      change: Change,
      actual: KeepalivedConfActual | null,
      d: Readonly<KeepalivedConfDesired>,
    ): Promise<void> {
      const { path } = d;
      const current = actual?.file ?? null;
      refuseWrongType(path, current, 'file');
      const scripts: Script[] = [];
      let stdin: Secret | undefined;
      // A rewrite gives the new file its mode, owner and group before it replaces the old one.
      const rewritten = change.fields.includes('content');
      await applyFields(change, FILE_APPLY_ORDER, {
        content: async () => {
          scripts.push(checkedWriteScript(d, current?.sha256 ?? 'absent'));
          stdin = d.content;
        },
        mode: async () => {
          if (!rewritten) scripts.push(chmodScript(path, d.mode, false));
        },
        ...ownershipSetters(path, change, d, (s) => {
          if (!rewritten) scripts.push(...s);
        }),
      });
      try {
        await runApply(remote, title, scripts, stdin);
      } catch (e) {
        if (!(e instanceof RemoteError)) throw e;
        // keepalived names the temp file in its messages: say which file it stands for.
        const named = (text: string) => text.replace(/(?:[^\s(]*\/)?\.play-check-[A-Za-z0-9]{8}/g, `${path} (new)`);
        throw new RemoteError(named(e.message), e.code, named(e.stderr));
      }
    },
  });
}
