// Reads an Ansible INI inventory the way ansible-core 2.14's ini plugin does, line by line: host
// lines (`name key=value ...`, split as Python's shlex does) go to the current section's group,
// `[g:vars]` sets group variables, `[g:children]` nests groups, a child named before its own section
// waits for it. Every value goes through Python's literal_eval as in ansible (`a=1` is a number,
// `b=yes` a string), inline or under `:vars`. Where ansible stops at the first error, we list them all.
import type { GroupNode, InventoryGraph } from './graph.js';
import { checkGroupName, hostNames, setGroupVar } from './parse.js';
import { iniValue, shlexSplit, UnsupportedLiteral } from './py-literal.js';
import { FileReporter, type Origin, type Problems } from './source.js';
import { convert, defineVar } from './vars.js';

const SECTION = /^\[([^:\]\s]+)(?::(\w+))?\]\s*(?:#.*)?$/;
const GROUP_NAME = /^([^:\]\s]+)\s*(?:#.*)?$/;

interface Pending {
  line: number;
  state: 'vars' | 'children';
  parents: string[];
}

class IniReader extends FileReporter {
  group: GroupNode;
  state = 'hosts';
  line = 0;
  readonly pending = new Map<string, Pending>();

  constructor(
    file: string,
    report: Problems,
    readonly graph: InventoryGraph,
  ) {
    super(file, report);
    this.group = graph.ungrouped;
  }

  at(path = `[${this.group.name}${this.state === 'hosts' ? '' : `:${this.state}`}]`): Origin {
    return { file: this.file, path, line: this.line };
  }

  section(name: string, state: string | undefined): void {
    state ??= 'hosts';
    const origin = this.at(`[${name}${state === 'hosts' ? '' : `:${state}`}]`);
    checkGroupName(this, origin, name);
    if (state !== 'hosts' && state !== 'vars' && state !== 'children') {
      this.problem(
        origin,
        `section [${name}:${state}] has an unknown type '${state}': expected hosts, vars or children`,
      );
      this.state = 'skip';
      return;
    }
    if (!this.graph.groups.has(name) && state === 'vars' && !this.pending.has(name))
      this.pending.set(name, { line: this.line, state, parents: [] });
    this.group = this.graph.group(name, origin);
    this.state = state;
    const waiting = this.pending.get(name);
    if (waiting && state !== 'vars') {
      if (waiting.state === 'children') this.addPendingChildren(name);
      else this.pending.delete(name);
    }
  }

  /** ansible's _add_pending_children: the group is declared now, so it joins the parents that named it. */
  addPendingChildren(name: string): void {
    const child = this.graph.groups.get(name)!;
    for (const parent of this.pending.get(name)?.parents ?? []) {
      this.addChild(this.graph.groups.get(parent)!, child);
      if (this.pending.get(parent)?.state === 'children') this.addPendingChildren(parent);
    }
    this.pending.delete(name);
  }

  addChild(parent: GroupNode, child: GroupNode): void {
    const cycle = this.graph.addChild(parent, child);
    if (cycle)
      this.problem(
        this.at(),
        `group '${parent.name}' would be its own ancestor: ${cycle} (a group cannot contain itself)`,
      );
  }

  value(text: string, name: string): unknown {
    try {
      return convert(iniValue(text), this, this.at(`${this.at().path} ${name}`));
    } catch (e) {
      if (!(e instanceof UnsupportedLiteral)) throw e;
      this.problem(this.at(), `${name}=${text} is ${e.message} in Python, which play cannot hold: quote it`);
      return text;
    }
  }

  hostLine(line: string): void {
    let tokens: string[];
    try {
      tokens = shlexSplit(line);
    } catch (e) {
      this.problem(this.at(), `cannot split the host line as ansible does (${(e as Error).message}): ${line}`);
      return;
    }
    const [key = '', ...assignments] = tokens;
    if (key === '---') {
      this.problem(this.at(), "'---' is not a host name: is this a YAML file?");
      return;
    }
    if (key.endsWith(':')) {
      this.problem(this.at(), `'${key}': a ':' after a host name must be followed by a port`);
      return;
    }
    const vars: [string, unknown][] = [];
    for (const t of assignments) {
      const eq = t.indexOf('=');
      if (eq <= 0) this.problem(this.at(), `expected key=value after the host name, got '${t}'`);
      else vars.push([t.slice(0, eq), this.value(t.slice(eq + 1), t.slice(0, eq))]);
    }
    const expanded = hostNames(this, this.graph, this.at(), key, this.group.name);
    if (!expanded) return;
    for (const name of expanded.names) {
      const origin = this.at(`${this.at().path} ${name}`);
      const { host, created } = this.graph.host(name, origin);
      // As in ansible, a port in the host key only applies where the host is first defined.
      if (created && expanded.port !== undefined) host.vars.set('ansible_port', { value: expanded.port, origin });
      this.graph.addHost(this.group, host);
      for (const [k, v] of vars) defineVar(this, host.vars, k, v, this.at(`${origin.path}.${k}`));
    }
  }

  varLine(line: string): void {
    const eq = line.indexOf('=');
    if (eq < 0) {
      this.problem(this.at(), `expected key=value, got '${line}'`);
      return;
    }
    const name = line.slice(0, eq).trim();
    if (!name) {
      this.problem(this.at(), `a variable name cannot be empty: '${line}'`);
      return;
    }
    const value = this.value(line.slice(eq + 1).trim(), name);
    setGroupVar(this, this.group, { name, value, origin: this.at(`${this.at().path} ${name}`) });
  }

  childLine(line: string): void {
    const m = GROUP_NAME.exec(line);
    if (!m) {
      this.problem(this.at(), `expected a group name, got '${line}'`);
      return;
    }
    const name = m[1]!;
    const child = this.graph.groups.get(name);
    if (child) {
      this.addChild(this.group, child);
      return;
    }
    const waiting = this.pending.get(name);
    if (waiting) waiting.parents.push(this.group.name);
    else this.pending.set(name, { line: this.line, state: 'children', parents: [this.group.name] });
  }

  read(lines: string[]): void {
    for (const raw of lines) {
      this.line++;
      const line = raw.trim();
      if (!line || line[0] === '#' || line[0] === ';') continue;
      const m = SECTION.exec(line);
      if (m) this.section(m[1]!, m[2]);
      else if (line.startsWith('[') && line.endsWith(']'))
        this.problem(
          this.at(line),
          'not a valid section header: expected [group], [group:vars] or [group:children], without spaces',
        );
      else if (this.state === 'hosts') this.hostLine(line);
      else if (this.state === 'vars') this.varLine(line);
      else if (this.state === 'children') this.childLine(line);
    }
    for (const [name, p] of this.pending) {
      const origin = { file: this.file, path: '', line: p.line };
      if (p.state === 'vars')
        this.problem(origin, `[${name}:vars] sets variables of group '${name}', which this file never defines`);
      else
        this.problem(
          origin,
          `[${p.parents.at(-1)}:children] names group '${name}', which this file never defines: add a [${name}] section`,
        );
    }
  }
}

/** Adds the groups and hosts of the INI inventory `text` (of `file`) to `graph`. */
export function parseIni(file: string, text: string, graph: InventoryGraph, report: Problems): void {
  new IniReader(file, report, graph).read(text.split(/\r\n|\r|\n/));
}
