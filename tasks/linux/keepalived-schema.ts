// keepalived.conf's settings as a zod schema: each field's message names its keepalived keyword, and
// the output is normalized (addresses canonical, peers and VIPs sorted by address, defaults filled
// in). The limits are keepalived 2.2.7's (keepalived-model.ts says what `keepalived -t` taught us). Pure.
import { z } from 'zod';
import { isSecret, type Secret } from '../../runner/core/secret.js';
import { formatIPv4, parseIPv4 } from '../common/ipv4.js';

/** keepalived reads only this many characters of auth_pass. */
export const AUTH_PASS_MAX = 8;
export const MAX_INTERVAL = 4294.967295;
/** Words keepalived reads as one token, unquoted: no blanks, comments, braces or quotes. */
const TOKEN = /^[A-Za-z0-9_.:@+-]{1,255}$/;
/** A conservative Linux interface name (IFNAMSIZ - 1 = 15 characters). */
const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;
const LABEL = /^[A-Za-z0-9_.:-]{1,15}$/;

/** How a given value is named in a message: never a secret's text, never more than 40 characters. */
export function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (isSecret(v)) return 'a secret';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'an array';
  return v === null ? 'null' : `${typeof v} ${JSON.stringify(v)}`;
}

/** A value `ok` accepts, else `(keyword) must <expected>, got <value>`. */
const accepted = <T>(ok: (v: unknown) => boolean, keyword: string | null, expected: string) =>
  z.custom<T>(ok, { error: (iss) => `${keyword ? `(${keyword}) ` : ''}must ${expected}, got ${show(iss.input)}` });

/** An object of the settings in `shape` and no others (a Secret is not one). */
const settings = <S extends z.core.$ZodLooseShape>(shape: S) =>
  accepted<object>(
    (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !isSecret(v),
    null,
    'be an object',
  ).pipe(
    z.strictObject(shape, {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `is not a keepalived setting here (known: ${Object.keys(shape).join(', ')})`
          : undefined,
    }),
  );

const integer = (keyword: string, min: number, max: number) =>
  accepted<number>(
    (v) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max,
    keyword,
    `be an integer ${min}-${max}`,
  );

const flag = () => accepted<boolean>((v) => typeof v === 'boolean', null, 'be true or false');

const token = (keyword: string) =>
  accepted<string>(
    (v) => typeof v === 'string' && TOKEN.test(v),
    keyword,
    'be one word of letters, digits and _ . : @ + -',
  );

const ifname = (keyword: string) =>
  accepted<string>(
    (v) => typeof v === 'string' && IFNAME.test(v) && v !== '.' && v !== '..',
    keyword,
    "be a Linux interface name: 1-15 letters, digits, '.', '_' or '-' (no spaces, slashes or colons)",
  );

/** An IPv4 address, as its number (so that duplicates written differently are found). */
const ipv4 = (keyword: string) =>
  accepted<string>(
    (v) => typeof v === 'string' && parseIPv4(v) !== null,
    keyword,
    'be an IPv4 address such as 10.160.11.1',
  ).transform((v) => parseIPv4(v)!);

const interval = (keyword: string) =>
  accepted<number>(
    (v) =>
      typeof v === 'number' &&
      Number.isFinite(v) &&
      v >= 0 &&
      v <= MAX_INTERVAL &&
      Math.abs(Math.round(v * 1e6) - v * 1e6) <= 1e-3,
    keyword,
    `be a number of seconds 0-${MAX_INTERVAL} with at most 6 decimals`,
  ).optional();

/** A non-empty list, each item then checked by `item`. */
const list = <I extends z.ZodType>(item: I, keyword: string, expected: string) =>
  accepted<unknown[]>((v) => Array.isArray(v) && v.length > 0, keyword, expected).pipe(z.array(item));

/** auth_pass: a Secret keepalived can read. Its text is never echoed: the message says what is wrong. */
const authPass = () =>
  z
    .custom<Secret>(isSecret, {
      error: (iss) =>
        `(auth_pass) must be a Secret (from the environment), got ${typeof iss.input === 'string' ? 'plain text' : show(iss.input)}`,
    })
    .superRefine((v, ctx) => {
      const clear = v.reveal();
      if (clear === '') ctx.addIssue({ code: 'custom', message: '(auth_pass) must not be empty' });
      else if (!/^[\x20-\x7e]+$/.test(clear) || /["\\]/.test(clear))
        ctx.addIssue({
          code: 'custom',
          message: `(auth_pass, from ${v.source}) may hold printable ASCII except '"' and '\\' (keepalived cannot read those)`,
        });
    });

/** The first index of each number, and the issue for the second listing of one. */
function refuseRepeats(
  numbers: readonly number[],
  ctx: z.RefinementCtx,
  at: (i: number) => PropertyKey[],
  also: (i: number) => string,
  own?: number,
): void {
  const first = new Map<number, number>();
  numbers.forEach((n, i) => {
    if (n === own)
      ctx.addIssue({ code: 'custom', path: at(i), message: `is this host's own unicast_src_ip ${formatIPv4(n)}` });
    else if (first.has(n))
      ctx.addIssue({
        code: 'custom',
        path: at(i),
        message: `${formatIPv4(n)} is listed twice (also ${also(first.get(n)!)})`,
      });
    else first.set(n, i);
  });
}

const byAddress = (a: number, b: number) => a - b;

const instanceSchema = settings({
  name: token('vrrp_instance'),
  state: accepted<'MASTER' | 'BACKUP'>((v) => v === 'MASTER' || v === 'BACKUP', 'state', "be 'MASTER' or 'BACKUP'"),
  interface: ifname('interface'),
  virtualRouterId: integer('virtual_router_id', 1, 255),
  priority: integer('priority', 1, 254),
  nopreempt: flag().default(false),
  advertInt: integer('advert_int', 1, 255).default(1),
  authPass: authPass(),
  unicastSrcIp: ipv4('unicast_src_ip'),
  unicastPeers: list(ipv4('unicast_peer'), 'unicast_peer', "list the other hosts' addresses"),
})
  .superRefine((o, ctx) => {
    if (o.nopreempt && o.state === 'MASTER')
      ctx.addIssue({
        code: 'custom',
        path: ['nopreempt'],
        message:
          'needs state BACKUP (keepalived ignores nopreempt with state MASTER, and keepalived -t rejects the pair)',
      });
    refuseRepeats(
      o.unicastPeers,
      ctx,
      (i) => ['unicastPeers', i],
      (i) => `instance.unicastPeers[${i}]`,
      o.unicastSrcIp,
    );
  })
  .transform((o) => ({
    ...o,
    unicastSrcIp: formatIPv4(o.unicastSrcIp),
    unicastPeers: [...o.unicastPeers].sort(byAddress).map(formatIPv4),
  }));

const vipSchema = settings({
  address: ipv4('virtual_ipaddress'),
  prefix: integer('prefix length', 1, 32),
  dev: ifname('dev'),
  label: z.unknown().optional(),
}).superRefine((o, ctx) => {
  const { label, dev } = o;
  if (label === undefined) return;
  if (typeof label !== 'string' || !LABEL.test(label) || (label !== dev && !label.startsWith(`${dev}:`)))
    ctx.addIssue({
      code: 'custom',
      path: ['label'],
      message: `(label) must be at most 15 characters, the device name or '${dev}:' and a suffix (as ip address add requires), got ${show(label)}`,
    });
});

const vipsSchema = list(
  vipSchema,
  'virtual_ipaddress',
  'list at least one VIP (keepalived -t rejects an instance without one)',
)
  .superRefine((vips, ctx) =>
    refuseRepeats(
      vips.map((v) => v.address),
      ctx,
      (i) => [i, 'address'],
      (i) => `vips[${i}]`,
    ),
  )
  .transform((vips) =>
    [...vips]
      .sort((a, b) => byAddress(a.address, b.address))
      .map(({ address, prefix, dev, label }) => ({
        address: formatIPv4(address),
        prefix,
        dev,
        ...(label !== undefined && { label: label as string }),
      })),
  );

/** The whole config's settings, in the order they are checked. */
const configSettings = settings({
  globalDefs: settings({
    vrrpSkipCheckAdvAddr: flag().default(true),
    vrrpGarpInterval: interval('vrrp_garp_interval'),
    vrrpGnaInterval: interval('vrrp_gna_interval'),
  }).default({ vrrpSkipCheckAdvAddr: true }),
  routerId: token('router_id'),
  instance: instanceSchema,
  vips: vipsSchema,
});

/** A misspelt setting's issue first, since it is likely why another setting seems missing. */
const misspeltFirst = (issues: readonly z.core.$ZodIssue[]) => [
  ...issues.filter((i) => i.code === 'unrecognized_keys'),
  ...issues.filter((i) => i.code !== 'unrecognized_keys'),
];

/**
 * The whole config. Its issues keep their paths (within the config) and come in the order a reader
 * should see them: a misspelt setting first, then the rest as the settings are checked.
 */
export const keepalivedConfigSchema = z.unknown().transform((input, ctx) => {
  const result = configSettings.safeParse(input);
  if (result.success) return result.data;
  for (const issue of misspeltFirst(result.error.issues)) ctx.addIssue({ ...issue });
  return z.NEVER;
});
