// The host a task is for, as a step function (and a rolling gate) sees it: its own module, so what
// reads hosts needs nothing else of the playbook DSL.
import type { OsFamily } from '../inventory/model.js';

export interface HostView {
  readonly name: string;
  readonly vars: Readonly<Record<string, unknown>>;
  readonly groups: readonly string[];
  readonly os: OsFamily;
}
