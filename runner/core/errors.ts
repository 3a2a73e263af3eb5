// Errors a user can act on. Each names where the problem is (file, field, host) and how to fix it,
// and maps to one of the CLI's exit codes.

export class PlayError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Wrong command-line usage: exit 64 (EX_USAGE). */
export class UsageError extends PlayError {
  constructor(message: string) {
    super(message, 64);
  }
}

/** Invalid inventory or playbook, found before any host is touched: exit 65 (EX_DATAERR). */
export class InputError extends PlayError {
  constructor(message: string) {
    super(message, 65);
  }
}

/** A problem in an inventory file, at a YAML path such as `all.children.tor.hosts.tor1.ansible_port`. */
export class InventoryError extends InputError {
  constructor(
    readonly file: string,
    readonly path: string,
    detail: string,
  ) {
    super(`${file}: ${path ? `at ${path}: ` : ''}${detail}`);
  }
}

/** A step built with options of the wrong shape: names the step kind and the field. */
export class StepOptionError extends InputError {
  constructor(
    readonly kind: string,
    readonly field: string,
    detail: string,
  ) {
    super(`${kind}: option '${field}' ${detail}`);
  }
}

/** A remote command failed: carries its exit code and (redacted) stderr. */
export class RemoteError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly stderr = '',
  ) {
    super(message);
    this.name = 'RemoteError';
  }
}

/**
 * The host could not be reached or authenticated with. `lasting`: the cause is one that waiting does not
 * cure (a host key that does not match, a key file of ours that cannot be read), so a step that waits
 * for the host to come back (a reboot) gives up at once.
 */
export class UnreachableError extends Error {
  constructor(
    readonly host: string,
    message: string,
    readonly lasting = false,
  ) {
    super(message);
    this.name = 'UnreachableError';
  }
}
