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
import { StepOptionError } from '../../runner/core/errors.js';
import { isSecret, MASK, Secret } from '../../runner/core/secret.js';
import { formatIPv4, parseIPv4 } from '../common/ipv4.js';

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

/** keepalived reads only this many characters of auth_pass. */
export const AUTH_PASS_MAX = 8;
const MAX_INTERVAL = 4294.967295;
/** Words keepalived reads as one token, unquoted: no blanks, comments, braces or quotes. */
const TOKEN = /^[A-Za-z0-9_.:@+-]{1,255}$/;
/** A conservative Linux interface name (IFNAMSIZ - 1 = 15 characters). */
const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;
const LABEL = /^[A-Za-z0-9_.:-]{1,15}$/;
/** A password written without quotes; anything else is quoted. */
const PLAIN_PASS = /^[A-Za-z0-9_.,:;@%+=/-]+$/;

type Obj = Record<string, unknown>;

class Reader {
  constructor(
    readonly kind: string,
    readonly root: string,
  ) {}

  fail(path: string, detail: string): never {
    throw new StepOptionError(this.kind, `${this.root}${path ? `.${path}` : ''}`, detail);
  }

  object(v: unknown, path: string, known: readonly string[]): Obj {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || isSecret(v))
      this.fail(path, `must be an object, got ${show(v)}`);
    for (const k of Object.keys(v))
      if (!known.includes(k))
        this.fail(path ? `${path}.${k}` : k, `is not a keepalived setting here (known: ${known.join(', ')})`);
    return v as Obj;
  }

  integer(v: unknown, path: string, keyword: string, min: number, max: number): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      this.fail(path, `(${keyword}) must be an integer ${min}-${max}, got ${show(v)}`);
    return v;
  }

  boolean(v: unknown, path: string, fallback: boolean): boolean {
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(path, `must be true or false, got ${show(v)}`);
    return v;
  }

  token(v: unknown, path: string, keyword: string): string {
    if (typeof v !== 'string' || !TOKEN.test(v))
      this.fail(path, `(${keyword}) must be one word of letters, digits and _ . : @ + -, got ${show(v)}`);
    return v;
  }

  ifname(v: unknown, path: string, keyword: string): string {
    if (typeof v !== 'string' || !IFNAME.test(v) || v === '.' || v === '..') {
      this.fail(
        path,
        `(${keyword}) must be a Linux interface name: 1-15 letters, digits, '.', '_' or '-' (no spaces, slashes or colons), got ${show(v)}`,
      );
    }
    return v;
  }

  ipv4(v: unknown, path: string, keyword: string): number {
    const n = typeof v === 'string' ? parseIPv4(v) : null;
    if (n === null) this.fail(path, `(${keyword}) must be an IPv4 address such as 10.160.11.1, got ${show(v)}`);
    return n;
  }

  interval(v: unknown, path: string, keyword: string, warnings: string[]): number | undefined {
    if (v === undefined) return undefined;
    if (
      typeof v !== 'number' ||
      !Number.isFinite(v) ||
      v < 0 ||
      v > MAX_INTERVAL ||
      Math.abs(Math.round(v * 1e6) - v * 1e6) > 1e-3
    ) {
      this.fail(
        path,
        `(${keyword}) must be a number of seconds 0-${MAX_INTERVAL} with at most 6 decimals, got ${show(v)}`,
      );
    }
    if (v === 0)
      warnings.push(
        `${this.root}.${path}: keepalived 2.x rejects '${keyword} 0' (its range starts at 0.000001; 0 is the default anyway), so keepalived -t will fail: leave it out`,
      );
    return v;
  }
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (isSecret(v)) return 'a secret';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : `${typeof v} ${JSON.stringify(v)}`;
}

function readAuthPass(r: Reader, v: unknown, warnings: string[]): Secret {
  const path = 'instance.authPass';
  if (!isSecret(v))
    r.fail(
      path,
      `(auth_pass) must be a Secret (from the environment), got ${typeof v === 'string' ? 'plain text' : show(v)}`,
    );
  const clear = v.reveal();
  // Never echo the value: say what is wrong with it, not what it is.
  if (clear === '') r.fail(path, '(auth_pass) must not be empty');
  if (!/^[\x20-\x7e]+$/.test(clear) || /["\\]/.test(clear)) {
    r.fail(
      path,
      `(auth_pass, from ${v.source}) may hold printable ASCII except '"' and '\\' (keepalived cannot read those)`,
    );
  }
  if (clear.length > AUTH_PASS_MAX) {
    warnings.push(
      `${r.root}.${path} (from ${v.source}) is ${clear.length} characters; keepalived uses only the first ${AUTH_PASS_MAX} (and keepalived -t rejects a longer one), so the first ${AUTH_PASS_MAX} are written`,
    );
  }
  if (/[#!]/.test(clear.slice(0, AUTH_PASS_MAX))) {
    warnings.push(
      `${r.root}.${path} contains '#' or '!', which start a comment in keepalived.conf: it is written in quotes; a peer configured by hand without quotes uses only the part before it`,
    );
  }
  return v;
}

function readInstance(r: Reader, v: unknown, warnings: string[]): KeepalivedInstance {
  const o = r.object(v, 'instance', [
    'name',
    'state',
    'interface',
    'virtualRouterId',
    'priority',
    'nopreempt',
    'advertInt',
    'authPass',
    'unicastSrcIp',
    'unicastPeers',
  ]);
  if (o.state !== 'MASTER' && o.state !== 'BACKUP')
    r.fail('instance.state', `(state) must be 'MASTER' or 'BACKUP', got ${show(o.state)}`);
  const priority = r.integer(o.priority, 'instance.priority', 'priority', 1, 254);
  const nopreempt = r.boolean(o.nopreempt, 'instance.nopreempt', false);
  if (nopreempt && o.state === 'MASTER')
    r.fail(
      'instance.nopreempt',
      'needs state BACKUP (keepalived ignores nopreempt with state MASTER, and keepalived -t rejects the pair)',
    );
  const src = r.ipv4(o.unicastSrcIp, 'instance.unicastSrcIp', 'unicast_src_ip');
  if (!Array.isArray(o.unicastPeers) || o.unicastPeers.length === 0)
    r.fail('instance.unicastPeers', `(unicast_peer) must list the other hosts' addresses, got ${show(o.unicastPeers)}`);
  const peers = new Map<number, number>();
  o.unicastPeers.forEach((p, i) => {
    const path = `instance.unicastPeers[${i}]`;
    const n = r.ipv4(p, path, 'unicast_peer');
    if (n === src) r.fail(path, `is this host's own unicast_src_ip ${formatIPv4(n)}`);
    if (peers.has(n)) r.fail(path, `${formatIPv4(n)} is listed twice (also instance.unicastPeers[${peers.get(n)}])`);
    peers.set(n, i);
  });
  return Object.freeze({
    name: r.token(o.name, 'instance.name', 'vrrp_instance'),
    state: o.state,
    interface: r.ifname(o.interface, 'instance.interface', 'interface'),
    virtualRouterId: r.integer(o.virtualRouterId, 'instance.virtualRouterId', 'virtual_router_id', 1, 255),
    priority,
    nopreempt,
    advertInt: r.integer(o.advertInt ?? 1, 'instance.advertInt', 'advert_int', 1, 255),
    authPass: readAuthPass(r, o.authPass, warnings),
    unicastSrcIp: formatIPv4(src),
    unicastPeers: Object.freeze([...peers.keys()].sort((a, b) => a - b).map(formatIPv4)),
  });
}

function readVips(r: Reader, v: unknown): readonly KeepalivedVip[] {
  if (!Array.isArray(v) || v.length === 0)
    r.fail(
      'vips',
      `(virtual_ipaddress) must list at least one VIP (keepalived -t rejects an instance without one), got ${show(v)}`,
    );
  const seen = new Map<number, number>();
  const vips = v.map((item, i): [number, KeepalivedVip] => {
    const path = `vips[${i}]`;
    const o = r.object(item, path, ['address', 'prefix', 'dev', 'label']);
    const n = r.ipv4(o.address, `${path}.address`, 'virtual_ipaddress');
    if (seen.has(n)) r.fail(`${path}.address`, `${formatIPv4(n)} is listed twice (also vips[${seen.get(n)}])`);
    seen.set(n, i);
    const dev = r.ifname(o.dev, `${path}.dev`, 'dev');
    let label: string | undefined;
    if (o.label !== undefined) {
      if (typeof o.label !== 'string' || !LABEL.test(o.label) || (o.label !== dev && !o.label.startsWith(`${dev}:`))) {
        r.fail(
          `${path}.label`,
          `(label) must be at most 15 characters, the device name or '${dev}:' and a suffix (as ip address add requires), got ${show(o.label)}`,
        );
      }
      label = o.label;
    }
    const vip: KeepalivedVip = {
      address: formatIPv4(n),
      prefix: r.integer(o.prefix, `${path}.prefix`, 'prefix length', 1, 32),
      dev,
      ...(label !== undefined ? { label } : {}),
    };
    return [n, Object.freeze(vip)];
  });
  return Object.freeze(vips.sort((a, b) => a[0] - b[0]).map(([, vip]) => vip));
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
  const r = new Reader(kind, root);
  const warnings: string[] = [];
  const o = r.object(input, '', ['routerId', 'instance', 'vips', 'globalDefs']);
  const g =
    o.globalDefs === undefined
      ? {}
      : r.object(o.globalDefs, 'globalDefs', ['vrrpSkipCheckAdvAddr', 'vrrpGarpInterval', 'vrrpGnaInterval']);
  const globalDefs: KeepalivedGlobalDefs = {
    vrrpSkipCheckAdvAddr: r.boolean(g.vrrpSkipCheckAdvAddr, 'globalDefs.vrrpSkipCheckAdvAddr', true),
    vrrpGarpInterval: r.interval(g.vrrpGarpInterval, 'globalDefs.vrrpGarpInterval', 'vrrp_garp_interval', warnings),
    vrrpGnaInterval: r.interval(g.vrrpGnaInterval, 'globalDefs.vrrpGnaInterval', 'vrrp_gna_interval', warnings),
  };
  const config: KeepalivedConfig = Object.freeze({
    routerId: r.token(o.routerId, 'routerId', 'router_id'),
    instance: readInstance(r, o.instance, warnings),
    vips: readVips(r, o.vips),
    globalDefs: Object.freeze(globalDefs),
  });
  return Object.freeze({ config, warnings: Object.freeze(warnings) });
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
