// registryValue({ path, name, type, data }): a registry value of this kind and data (docs/field-notes.md#a-network-clean-up-and-nics:
// `Set-ItemProperty -Path HKLM:\SYSTEM\CurrentControlSet\Services\Tcpip\Parameters -Name 'NV Domain'
// -Value 'mylan.k8s'`). Fields: type, data (one write sets both). name '(default)' (or '') is the
// key's default value. data by type: String and ExpandString a string (an ExpandString is compared
// unexpanded), DWord an integer 0..4294967295, QWord an integer 0..2^53-1, MultiString an array of
// non-empty strings, Binary bytes as a hex string ('0aff') or an array of numbers.
import { isDeepStrictEqual } from 'node:util';
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { invoke, probeCall } from '../../remote/calls.js';
import { accepted, checked, type Refuse } from '../../options/checked.js';
import { registryPath } from '../../options/win-options.js';
import type { FunctionResult } from '../step-remote.js';
import { REGISTRY_TYPE, REGISTRY_VALUE_REMOTE as REMOTE, type RegistryType } from './remote.js';

type RegistryData = string | number | readonly string[] | readonly number[];

export interface RegistryValueActual {
  readonly type: string;
  readonly data: string | number | readonly string[];
}

const KIND = 'windows.registryValue';
const TYPES: readonly RegistryType[] = REGISTRY_TYPE.options;

/** data as its type wants it: a Binary's bytes as lower-case hex. */
function readData(v: unknown, type: RegistryType, refuse: Refuse): string | number | string[] {
  const bad = (expected: string): never =>
    refuse(`must be ${expected} for type ${type}, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`, 'data');
  switch (type) {
    case 'String':
    case 'ExpandString':
      if (typeof v !== 'string' || v.includes('\0')) bad('a string without NUL');
      return v as string;
    case 'DWord':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
        bad('an integer from 0 to 4294967295');
      return v as number;
    case 'QWord':
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) bad('an integer from 0 to 2^53-1');
      return v as number;
    case 'MultiString':
      if (!Array.isArray(v) || v.some((s) => typeof s !== 'string' || s === '' || s.includes('\0')))
        bad('an array of non-empty strings');
      return [...(v as string[])];
    case 'Binary':
      if (typeof v === 'string') {
        const hex = v.replace(/\s+/g, '').toLowerCase();
        if (!/^(?:[0-9a-f]{2})*$/.test(hex)) bad('hex digits in pairs, such as 0aff');
        return hex;
      }
      if (Array.isArray(v) && v.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
        return (v as number[]).map((b) => b.toString(16).padStart(2, '0')).join('');
      return bad('a hex string or an array of bytes');
  }
}

const Options = checked(
  z.strictObject({
    path: registryPath(),
    name: z
      .string()
      .refine((v) => !/[\0\r\n]/.test(v), { error: 'must not contain a line break or NUL' })
      .transform((v) => (v === '' ? '(default)' : v)),
    type: accepted<RegistryType>(
      (v) => TYPES.includes(v as RegistryType),
      (v) => `must be one of ${TYPES.join(', ')}, got ${JSON.stringify(v)}`,
    ),
    // Checked with type below; optional here so that a missing data is refused in those words.
    data: z.custom<RegistryData>(() => true).optional(),
  }),
  (o, refuse: Refuse) => {
    const data = readData(o.data, o.type, refuse);
    return { ...o, data: Array.isArray(data) ? Object.freeze(data) : (data as string | number | readonly string[]) };
  },
);

export type RegistryValueOptions = z.input<typeof Options> & { data: RegistryData };
export type RegistryValueDesired = Readonly<z.output<typeof Options>>;

function diffRegistryValue(d: Readonly<RegistryValueDesired>, a: RegistryValueActual | null): Change {
  const after: Fields = { type: d.type, data: d.data };
  if (a === null) return { action: 'create', fields: ['type', 'data'], before: null, after };
  if (a.type !== d.type)
    return { action: 'update', fields: ['type', 'data'], before: { type: a.type, data: a.data }, after };
  if (isDeepStrictEqual(a.data, d.data)) return NOOP;
  return { action: 'update', fields: ['data'], before: { data: a.data }, after: { data: d.data } };
}

/** A one-string MultiString may come back as the string (PowerShell 5.1, as psList in step-remote.ts). */
function readActual(value: FunctionResult<(typeof REMOTE)['Get-PlayRegistryValue']>): RegistryValueActual | null {
  if (value === null) return null;
  const { type, data } = value;
  return { type, data: type === 'MultiString' && !Array.isArray(data) ? [String(data)] : data };
}

export function registryValue(options: RegistryValueOptions): Step<RegistryValueDesired, RegistryValueActual> {
  const desired: RegistryValueDesired = Object.freeze(readOptions(KIND, Options, options));
  const { path, name } = desired;
  const title = `registry ${path} ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayRegistryValue'], { path, name }, readActual),
    diff: diffRegistryValue,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(
      remote: Remote,
      change: Change,
      _actual: RegistryValueActual | null,
      d: RegistryValueDesired,
    ): Promise<void> {
      if (change.fields.length === 0) return;
      const { data } = d;
      await invoke(
        remote,
        REMOTE['Set-PlayRegistryValue'],
        { path: d.path, name: d.name, type: d.type, data: typeof data === 'object' ? [...data] : data },
        `${title}: set`,
      );
    },
  });
}
