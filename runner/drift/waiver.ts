// One waiver: the entry of a waivers file that the loader (waivers-load.ts) validates and the
// matcher (waivers.ts) applies. Its own module so that neither of them imports the other.

/** One entry of a waivers file, validated. */
export interface Waiver {
  /** A host pattern in Ansible's grammar (runner/inventory/pattern.ts), as written. */
  hosts: string;
  /** Exact names: a waiver is about one task of one playbook. */
  playbook: string;
  task: string;
  /** When given (never empty): the waiver covers an item only if every drifted field is listed. */
  fields?: string[];
  reason: string;
  /** yyyy-mm-dd: the last day (UTC) the waiver holds. */
  expires: string;
  /** Where it is written: `FILE:LINE`. */
  source: string;
}
