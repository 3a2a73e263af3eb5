// `play PLAYBOOK --list-hosts | --list-tasks | --list-tags`: what a run with the same --limit, --tags,
// --skip-tags and --start-at-task would do, printed from the compiled graph without connecting
// anywhere (ansible-playbook's --list-* looks). Pure: text from a graph.
import type { TaskGraph } from '../playbook/compile.js';
import type { ListKind } from './part-options.js';

/** The tasks a run performs, in run order: not left out, with at least one host. */
function performed(graph: TaskGraph): string[] {
  const withHosts = new Set(graph.nodes.map((n) => n.task));
  return graph.taskOrder.filter((t) => withHosts.has(t) && !graph.leftOut?.has(t));
}

function hostsText(graph: TaskGraph): string[] {
  const tasks = new Set(performed(graph));
  const used = new Set(graph.nodes.filter((n) => tasks.has(n.task)).map((n) => n.runsOn.name));
  const hosts = graph.hosts.filter((h) => used.has(h.name)).map((h) => `  ${h.name}`);
  return [`hosts of ${graph.playbook.name} (${hosts.length}):`, ...hosts];
}

function tasksText(graph: TaskGraph): string[] {
  const tasks = performed(graph);
  const width = Math.max(0, ...tasks.map((t) => t.length));
  const lines = tasks.map((id) => {
    const spec = graph.playbook.tasks[id]!;
    const where = spec.delegateTo ? `for ${spec.on}, on ${spec.delegateTo}` : `on ${spec.on}`;
    const n = String(graph.taskOrder.indexOf(id) + 1).padStart(4);
    return `${n}. ${id.padEnd(width)}  ${where}  [${(spec.tags ?? []).join(', ')}]`;
  });
  const total = graph.taskOrder.length;
  return [`tasks of ${graph.playbook.name}, in run order (${tasks.length} of ${total}):`, ...lines];
}

function tagsText(graph: TaskGraph): string[] {
  const byTag = new Map<string, string[]>();
  for (const id of performed(graph)) {
    for (const tag of graph.playbook.tasks[id]!.tags ?? []) byTag.set(tag, [...(byTag.get(tag) ?? []), id]);
  }
  const tags = [...byTag.keys()].sort();
  const width = Math.max(0, ...tags.map((t) => t.length));
  const lines = tags.map((t) => `  ${t.padEnd(width)}  ${byTag.get(t)!.join(', ')}`);
  return [`tags of ${graph.playbook.name} (${tags.length}):`, ...lines];
}

/** The looks asked for, in Ansible's order (hosts, tasks, tags), a blank line between them. */
export function listText(graph: TaskGraph, kinds: readonly ListKind[]): string {
  const parts: Record<ListKind, (g: TaskGraph) => string[]> = { hosts: hostsText, tasks: tasksText, tags: tagsText };
  const order: ListKind[] = ['hosts', 'tasks', 'tags'];
  return (
    order
      .filter((k) => kinds.includes(k))
      .map((k) => parts[k](graph).join('\n'))
      .join('\n\n') + '\n'
  );
}
