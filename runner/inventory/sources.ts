// Inventory sources (the -i paths) into one InventoryGraph, in ansible-core 2.14's order: sources
// as given; a directory's entries sorted by name, subdirectories walked in place, skipping what
// ansible skips (hidden names, group_vars, host_vars, vars_plugins and INVENTORY_IGNORE_EXTS:
// .pyc .pyo .swp .bak ~ .rpm .md .txt .rst .orig .ini .cfg .retry). Each file is read by the
// first of ansible's default plugins that would take it (host_list, script, auto, yaml, ini, toml),
// decrypted first when it is vault-encrypted (as ansible's loader does for every plugin): what play
// cannot read (a script, a plugin configuration, TOML) is an error naming the file.
import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { isMap } from 'yaml';
import { InventoryError } from '../core/errors.js';
import { inputPathKind } from '../core/read-input-file.js';
import { enterDirectory, sortedNames } from './directory-walk.js';
import type { InventoryGraph } from './graph.js';
import { parseAddress } from './host-range.js';
import { parseInventory } from './parse.js';
import { parseIni } from './parse-ini.js';
import { parseYaml, readPlainText, type Problems } from './source.js';

const IGNORED =
  /^\.|^host_vars$|^group_vars$|^vars_plugins$|(?:\.pyc|\.pyo|\.swp|\.bak|~|\.rpm|\.md|\.txt|\.rst|\.orig|\.ini|\.cfg|\.retry)$/;
const YAML_EXTENSIONS = ['.yml', '.yaml', '.json'];
const INI_SECTION = /^\[[^\]]+\]\s*(?:[#;].*)?$/;
const EXPORT_HINT = (file: string) => `\`ansible-inventory -i ${file} --list --yaml > inventory.yaml\``;

/**
 * True when an inventory source is a list of hosts (`-i 'h1,h2,'`): ansible's host_list plugin takes
 * any source that is not an existing path and has a comma.
 */
export function isHostList(source: string): boolean {
  return source.includes(',') && !existsSync(resolve(source));
}

/**
 * ansible's host_list plugin: each name (or address, with an optional :port) into `ungrouped`, unless an
 * earlier source defined it. Ranges are not expanded there, so play refuses them.
 */
function readHostList(list: string, graph: InventoryGraph, report: Problems): void {
  const origin = { file: `-i ${list}`, path: '' };
  for (const raw of list.split(',')) {
    const name = raw.trim();
    if (!name) continue;
    const parsed = parseAddress(name);
    if (!parsed) {
      report.problem(
        origin,
        `'${name}' is not a host name or address (optionally with :port); a host list takes no ranges or patterns`,
      );
      continue;
    }
    const { host, created } = graph.host(parsed.host, origin);
    if (!created) continue;
    if (parsed.port !== undefined) host.vars.set('ansible_port', { value: parsed.port, origin });
    graph.addHost(graph.ungrouped, host);
  }
}

/** Reads every source into `graph`; returns the files read, in order. */
export function readSources(sources: readonly string[], graph: InventoryGraph, report: Problems): string[] {
  const files: string[] = [];
  for (const source of sources) {
    if (isHostList(source)) readHostList(source, graph, report);
    else if (inputPathKind(source) === 'directory') {
      if (readDirectory(source, source, graph, report, files, new Set()) === 0)
        report.problem(
          { file: source, path: '' },
          'is a directory with no inventory file in it (ansible skips hidden files, group_vars, host_vars, ' +
            'and names ending in .ini .cfg .md .txt .rst .bak .orig .retry .swp .pyc .pyo .rpm ~)',
        );
    } else {
      readFile(source, graph, report);
      files.push(source);
    }
  }
  return files;
}

/** ansible's parse_source on a directory: the number of files read. */
function readDirectory(
  top: string,
  dir: string,
  graph: InventoryGraph,
  report: Problems,
  files: string[],
  walking: ReadonlySet<string>,
): number {
  const inside = enterDirectory(dir, walking);
  let count = 0;
  const skipped: string[] = [];
  const special: string[] = [];
  for (const name of sortedNames(dir)) {
    const path = join(dir, name);
    if (IGNORED.test(name)) {
      // Ansible skips these without a word; hidden files, vars directories and backups are expected.
      if (!/^\.|_vars$|_plugins$|~$|\.(?:bak|orig|swp|pyc|pyo|retry)$/.test(name)) skipped.push(name);
      if (dir !== top && /^(?:group|host)_vars$/.test(name))
        report.warn(
          { file: path, path: '' },
          `not read: ansible reads group_vars and host_vars only beside an inventory source (here ${top}), not in its subdirectories`,
        );
      continue;
    }
    const kind = inputPathKind(path);
    if (kind === 'directory') count += readDirectory(top, path, graph, report, files, inside);
    else if (kind === 'file') {
      readFile(path, graph, report);
      files.push(path);
      count++;
    } else if (kind === 'other') special.push(name);
  }
  if (skipped.length)
    report.warn(
      { file: dir, path: '' },
      `not read, as ansible skips them in an inventory directory: ${skipped.join(', ')}` +
        (skipped.some((n) => n.endsWith('.ini')) ? ' (rename an INI inventory without .ini to have it read)' : ''),
    );
  if (special.length)
    report.warn(
      { file: dir, path: '' },
      `not read, as they are not regular files (a pipe, a socket or a device): ${special.join(', ')}`,
    );
  return count;
}

/** The first line that is not blank or a comment (found without splitting a large file into lines). */
function firstLine(text: string): string | undefined {
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line && line[0] !== '#' && line[0] !== ';') return line;
    if (end < 0) break;
    start = end + 1;
  }
  return undefined;
}

function readFile(file: string, graph: InventoryGraph, report: Problems): void {
  const text = readPlainText(file, report);
  if (text === null) return;
  const refuse = (detail: string) => {
    throw new InventoryError(file, '', detail);
  };
  if (text.startsWith('#!'))
    refuse(
      'is a dynamic inventory script (it starts with #!); play reads static inventories only: ' +
        `save its output with ${EXPORT_HINT(file)}`,
    );
  const ext = extname(file);
  if (ext === '.toml')
    refuse(`is a TOML inventory, which play does not read yet: convert it with ${EXPORT_HINT(file)}`);
  const first = firstLine(text);
  const iniLooking = first !== undefined && INI_SECTION.test(first);
  if ((ext && !YAML_EXTENSIONS.includes(ext)) || iniLooking) parseIni(file, text, graph, report);
  else if (ext) parseInventory(parseYaml(file, text, report), graph);
  else readUnnamed(file, text, graph, report);
}

/** No extension: YAML when it is a YAML mapping, else INI, as ansible tries yaml before ini. */
function readUnnamed(file: string, text: string, graph: InventoryGraph, report: Problems): void {
  let src: ReturnType<typeof parseYaml> | undefined;
  try {
    src = parseYaml(file, text, report);
  } catch (e) {
    // Not YAML (a syntax error): INI. Past a YAML limit, it is YAML, and the error stands.
    if (!(e instanceof InventoryError)) throw e;
    src = undefined;
  }
  if (src && isMap(src.doc.contents)) parseInventory(src, graph);
  else parseIni(file, text, graph, report);
}
