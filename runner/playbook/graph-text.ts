// `play graph`: the task graph as text. Without an inventory, tasks in order with their hosts
// and dependencies; with one, the host-level nodes in waves (a wave can start once the earlier
// waves it depends on are done), which shows the cross-host order.
import type { Playbook } from './define.js';
import type { TaskGraph, TaskNode } from './compile.js';
import { taskOrder } from './compile.js';

export function taskGraphText(pb: Playbook): string {
  const lines = [`${pb.name}: ${pb.description}`];
  taskOrder(pb).forEach((id, i) => {
    const t = pb.tasks[id]!;
    const where = t.delegateTo ? `for ${t.on}, runs on ${t.delegateTo}` : `on ${t.on}`;
    const needs = t.needs?.length ? `  needs ${t.needs.join(', ')}` : '';
    const trig = t.triggeredBy?.length ? `  when changed: ${t.triggeredBy.join(', ')}` : '';
    lines.push(
      `${String(i + 1).padStart(3)}. ${id}  (${where})${needs}${trig}${t.description ? `  - ${t.description}` : ''}`,
    );
  });
  return lines.join('\n') + '\n';
}

export function nodeGraphText(graph: TaskGraph): string {
  const depth = new Map<TaskNode, number>();
  for (const n of graph.nodes) depth.set(n, n.deps.length ? Math.max(...n.deps.map((d) => depth.get(d)!)) + 1 : 0);
  const waves: TaskNode[][] = [];
  for (const n of graph.nodes) (waves[depth.get(n)!] ??= []).push(n);
  const lines = [`${graph.playbook.name} on ${graph.hosts.map((h) => h.name).join(', ')}`];
  waves.forEach((wave, i) => {
    lines.push(`wave ${i + 1}:`);
    for (const n of wave) {
      const where = n.runsOn === n.target ? n.target.name : `${n.runsOn.name} (for ${n.target.name})`;
      const after = n.deps.length ? `  after ${n.deps.map((d) => d.id).join(', ')}` : '';
      lines.push(`  ${n.task} @ ${where}${after}`);
    }
  });
  if (graph.emptyTasks.length) lines.push(`no host here: ${graph.emptyTasks.join(', ')}`);
  return lines.join('\n') + '\n';
}
