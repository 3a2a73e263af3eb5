// netsh.exe on the simulated node: `interface ipv4 set interface <name> forwarding=enabled|disabled`,
// as field note A runs it (`netsh int ipv4 set int "vEthernet (cbr0)" for=en`,
// docs/field-notes.md#a-hns-network-and-endpoint). netsh takes any unambiguous prefix of a context,
// command, tag or value (int, for=, en, dis). It answers "Ok." and exit 0. An interface name it cannot
// find is reported the way Windows Server 2019's netsh does for `interface ipv4 set`: with the text of
// ERROR_INVALID_NAME (123), "The filename, directory name, or volume label syntax is incorrect.",
// exit 1 ("Element not found." is what it says for an interface that exists without IPv4). Forwarding is
// kept for HNS host endpoints' vNICs (the only interfaces the steps set it on); anything else
// netsh can do is a simulator gap, said plainly.
import { sameName } from '../adapters.js';
import { endpointOfVNic } from '../hns-store.js';
import type { SimulatedWindowsNode } from '../model.js';
import { crlf, type NativeProgram, type NativeResult } from './program.js';

/** netsh ends each message with an empty line. */
const say = (code: number, message: string): NativeResult => ({ code, stdout: crlf([message, '']) });

const INVALID_NAME = 'The filename, directory name, or volume label syntax is incorrect.';

/** `word` abbreviates `full` (netsh matches case-insensitively, from the start). */
const abbreviates = (word: string, full: string) => word.length > 0 && full.startsWith(word.toLowerCase());

function gap(argv: readonly string[]): Error {
  return new Error(
    `the simulated netsh.exe models only \`interface ipv4 set interface <name> forwarding=enabled|disabled\`, not ${JSON.stringify(argv)} (lab/windows/native/netsh.ts)`,
  );
}

/** The tags of `set interface` in netsh's order: a prefix means the first tag it starts (for= is forwarding). */
const SET_INTERFACE_TAGS = ['interface', 'forwarding'] as const;

function parameters(argv: readonly string[]): Map<string, string> | null {
  const found = new Map<string, string>();
  argv.forEach((arg, i) => {
    const eq = arg.indexOf('=');
    const tag = eq < 0 ? SET_INTERFACE_TAGS[i] : SET_INTERFACE_TAGS.find((t) => abbreviates(arg.slice(0, eq), t));
    if (tag) found.set(tag, eq < 0 ? arg : arg.slice(eq + 1));
    else found.set('?', arg);
  });
  return found.has('?') ? null : found;
}

function setForwarding(node: SimulatedWindowsNode, name: string, value: string): NativeResult | null {
  const enable = abbreviates(value, 'enabled') ? true : abbreviates(value, 'disabled') ? false : null;
  if (enable === null) return null;
  const s = node.state;
  const ipIf = s.adapters.find((a) => sameName(a.name, name) || String(a.interfaceIndex) === name);
  if (!ipIf) return say(1, INVALID_NAME);
  const e = endpointOfVNic(s, ipIf);
  if (!e) return null;
  e.forwarding = enable;
  return say(0, 'Ok.');
}

export const netsh: NativeProgram = (node, argv) => {
  const [context, family, verb, object, ...rest] = argv;
  const known =
    abbreviates(context ?? '', 'interface') &&
    (sameName(family ?? '', 'ipv4') || sameName(family ?? '', 'ip')) &&
    abbreviates(verb ?? '', 'set') &&
    abbreviates(object ?? '', 'interface');
  const p = known ? parameters(rest) : null;
  const name = p?.get('interface');
  const forwarding = p?.get('forwarding');
  if (name === undefined || forwarding === undefined || p!.size !== 2) throw gap(argv);
  const result = setForwarding(node, name, forwarding);
  if (!result) throw gap(argv);
  return result;
};
