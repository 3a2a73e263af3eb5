// keepalived.conf for the ToR gateway (docs/field-notes.md#a-upstream-tor-gateway) as typed data: a validator that names the
// field at fault, and a deterministic renderer in the field note's layout. Pure.
//
// What keepalived 2.2.7 (Debian 12) taught us, each checked with `keepalived -t`:
//  - `auth_pass` longer than 8 characters: keepalived uses the first 8, and `-t` exits 5
//    ("Truncating auth_pass to 8 characters"). We warn and write the first 8, which is what a
//    peer with the long value uses too.
//  - An unquoted `#` or `!` starts a comment: the field note's `auth_pass lvs#Win.Gate@Q1` is the
//    password `lvs`. We quote a password with such characters; `"` and `\` cannot be written.
//  - `vrrp_garp_interval 0` / `vrrp_gna_interval 0` (the field note, from keepalived 1.3 on
//    CentOS) are rejected by 2.x (range starts at 0.000001; 0 is the default): a warning.
//  - No VIP, `nopreempt` with state MASTER, priority 255 with nopreempt, a fractional advert_int
//    (VRRPv2) and prefix > 32 all make `-t` fail: refused here, before any host is touched.
import type { z } from 'zod';
import { StepOptionError } from '../../runner/core/errors.js';
import { MASK, Secret } from '../../runner/core/secret.js';
import { fieldOf } from '../../runner/core/step-options.js';
import { AUTH_PASS_MAX, keepalivedConfigSchema } from './keepalived-schema.js';

export { AUTH_PASS_MAX } from './keepalived-schema.js';

export type VrrpState = 'MASTER' | 'BACKUP';

export interface KeepalivedVip {
  /** e.g. 10.160.11.1 (the Windows node's pod gateway). */
  readonly address: string;
  readonly prefix: number;
  readonly dev: string;
  /** e.g. eth1:1; must be the device name or start with `<dev>:`. */
  readonly label?: string;
}

export interface KeepalivedInstance {
  readonly name: string;
  readonly state: VrrpState;
  readonly interface: string;
  /** 1-255; the same on every peer, unique in the broadcast domain. */
  readonly virtualRouterId: number;
  /** 1-254; differs per host. */
  readonly priority: number;
  /** The validator's default is false. */
  readonly nopreempt: boolean;
  /** Seconds, an integer 1-255 (VRRPv2); the validator's default is 1. */
  readonly advertInt: number;
  readonly authPass: Secret;
  readonly unicastSrcIp: string;
  readonly unicastPeers: readonly string[];
}

export interface KeepalivedGlobalDefs {
  readonly vrrpSkipCheckAdvAddr?: boolean;
  /** Seconds; keepalived 2.x accepts 0.000001-4294.967295 (0 draws a warning, see above). */
  readonly vrrpGarpInterval?: number;
  readonly vrrpGnaInterval?: number;
}

export interface KeepalivedConfig {
  /** Unique per host. */
  readonly routerId: string;
  readonly instance: KeepalivedInstance;
  readonly vips: readonly KeepalivedVip[];
  /** Default: `{ vrrpSkipCheckAdvAddr: true }`. */
  readonly globalDefs?: KeepalivedGlobalDefs;
}

export interface ValidatedKeepalivedConfig {
  /** Frozen; peers and VIPs sorted by address, globalDefs filled in. */
  readonly config: KeepalivedConfig;
  readonly warnings: readonly string[];
}

/** A password written without quotes; anything else is quoted. */
const PLAIN_PASS = /^[A-Za-z0-9_.,:;@%+=/-]+$/;

/** The problem to report: a misspelt setting first, since it is likely why another one seems missing. */
function firstIssue(issues: readonly z.core.$ZodIssue[]): [path: string, message: string] {
  const issue = issues.find((i) => i.code === 'unrecognized_keys') ?? issues[0]!;
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]!] : issue.path;
  return [fieldOf(path), issue.message];
}

/** What keepalived would do differently from what was written (the config is valid). */
function warningsOf(c: KeepalivedConfig, root: string): string[] {
  const warnings: string[] = [];
  const g = c.globalDefs ?? {};
  for (const [field, keyword, value] of [
    ['vrrpGarpInterval', 'vrrp_garp_interval', g.vrrpGarpInterval],
    ['vrrpGnaInterval', 'vrrp_gna_interval', g.vrrpGnaInterval],
  ] as const) {
    if (value === 0)
      warnings.push(
        `${root}.globalDefs.${field}: keepalived 2.x rejects '${keyword} 0' (its range starts at 0.000001; 0 is the default anyway), so keepalived -t will fail: leave it out`,
      );
  }
  const pass = c.instance.authPass;
  const clear = pass.reveal();
  const path = `${root}.instance.authPass`;
  if (clear.length > AUTH_PASS_MAX) {
    warnings.push(
      `${path} (from ${pass.source}) is ${clear.length} characters; keepalived uses only the first ${AUTH_PASS_MAX} (and keepalived -t rejects a longer one), so the first ${AUTH_PASS_MAX} are written`,
    );
  }
  if (/[#!]/.test(clear.slice(0, AUTH_PASS_MAX))) {
    warnings.push(
      `${path} contains '#' or '!', which start a comment in keepalived.conf: it is written in quotes; a peer configured by hand without quotes uses only the part before it`,
    );
  }
  return warnings;
}

/**
 * Checks a config and returns its normalized, frozen form. Errors are StepOptionErrors naming the
 * field (`config.instance.priority`); warnings are things keepalived would do differently from
 * what was written.
 */
export function validateKeepalivedConfig(
  input: unknown,
  kind = 'linux.keepalivedConf',
  root = 'config',
): ValidatedKeepalivedConfig {
  const result = keepalivedConfigSchema.safeParse(input);
  if (!result.success) {
    const [path, message] = firstIssue(result.error.issues);
    throw new StepOptionError(kind, path ? `${root}.${path}` : root, message);
  }
  return frozenConfig(result.data, root);
}

/** A config the schema read, frozen, with what keepalived would do differently from what it says. */
export function frozenConfig(
  parsed: z.output<typeof keepalivedConfigSchema>,
  root = 'config',
): ValidatedKeepalivedConfig {
  const { globalDefs: g, instance, vips, routerId } = parsed;
  const config: KeepalivedConfig = Object.freeze({
    routerId,
    instance: Object.freeze({ ...instance, unicastPeers: Object.freeze(instance.unicastPeers) }),
    vips: Object.freeze(vips.map((v) => Object.freeze(v))),
    globalDefs: Object.freeze({
      vrrpSkipCheckAdvAddr: g.vrrpSkipCheckAdvAddr,
      vrrpGarpInterval: g.vrrpGarpInterval,
      vrrpGnaInterval: g.vrrpGnaInterval,
    }),
  });
  return Object.freeze({ config, warnings: Object.freeze(warningsOf(config, root)) });
}

function seconds(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(6).replace(/0+$/, '');
}

/** What goes after `auth_pass`: the first 8 characters, quoted unless plain. */
function authPassWord(pass: string): string {
  const used = pass.slice(0, AUTH_PASS_MAX);
  return PLAIN_PASS.test(used) ? used : `"${used}"`;
}

function renderText(c: KeepalivedConfig, authPass: string): string {
  const g = c.globalDefs ?? { vrrpSkipCheckAdvAddr: true };
  const i = c.instance;
  const lines = ['! Configuration File for keepalived', '', 'global_defs {', `   router_id ${c.routerId}`];
  if (g.vrrpSkipCheckAdvAddr) lines.push('   vrrp_skip_check_adv_addr');
  if (g.vrrpGarpInterval !== undefined) lines.push(`   vrrp_garp_interval ${seconds(g.vrrpGarpInterval)}`);
  if (g.vrrpGnaInterval !== undefined) lines.push(`   vrrp_gna_interval ${seconds(g.vrrpGnaInterval)}`);
  lines.push(
    '}',
    '',
    `vrrp_instance ${i.name} {`,
    `    state ${i.state}`,
    `    interface ${i.interface}`,
    `    virtual_router_id ${i.virtualRouterId}`,
    `    priority ${i.priority}`,
    ...(i.nopreempt ? ['    nopreempt'] : []),
    `    advert_int ${i.advertInt}`,
    '    authentication {',
    '        auth_type PASS',
    `        auth_pass ${authPass}`,
    '    }',
    '',
    `    unicast_src_ip ${i.unicastSrcIp}`,
    '    unicast_peer {',
    ...i.unicastPeers.map((p) => `        ${p}`),
    '    }',
    '',
    '    virtual_ipaddress {',
    ...c.vips.map(
      (v) => `        ${v.address}/${v.prefix} dev ${v.dev}${v.label !== undefined ? ` label ${v.label}` : ''}`,
    ),
    '    }',
    '}',
  );
  return `${lines.join('\n')}\n`;
}

/** The file's content (a validated config): a Secret, since it holds auth_pass. */
export function renderKeepalivedConf(c: KeepalivedConfig): Secret {
  const { authPass } = c.instance;
  const pass = authPass.reveal();
  // keepalived's messages may quote the written (cut) password: reveal() registers it for redact().
  new Secret(pass.slice(0, AUTH_PASS_MAX), authPass.source).reveal();
  return new Secret(renderText(c, authPassWord(pass)), `keepalived.conf with auth_pass from ${authPass.source}`);
}

/** The same text with the password masked: what plans diff and show. */
export function renderKeepalivedConfMasked(c: KeepalivedConfig): string {
  return renderText(c, MASK);
}

/**
 * Masks every auth_pass value in a keepalived.conf; the probe runs AUTH_PASS_SED on the host, so
 * the old file's password never leaves it. Both must agree: `[^\n]*` is sed's `.*` (one line).
 */
export function maskAuthPass(text: string): string {
  return text.replace(/auth_pass[ \t\v\f\r][^\n]*/g, `auth_pass ${MASK}`);
}

/** sed -E program equivalent to maskAuthPass, for LC_ALL=C sed on the host. */
export const AUTH_PASS_SED = `s/auth_pass[[:space:]].*/auth_pass ${MASK}/`;
