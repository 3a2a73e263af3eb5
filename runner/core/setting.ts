// A value and where it was set, for messages: `-u`, `--private-key`, `ANSIBLE_REMOTE_USER`,
// `/dir/ansible.cfg:7`, an inventory variable's name, or `default`. One type for every layer of settings.
export interface Setting<T> {
  readonly value: T;
  readonly origin: string;
}
