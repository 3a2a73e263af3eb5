// Errors the simulated Windows node (a test double) raises from a call: the message is what the
// real node's PowerShell function would report (`$_.Exception.Message`), e.g. sc.exe's text.

export class WindowsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WindowsError';
  }
}

/** PowerShell's CommandNotFoundException message for a name it cannot resolve. */
export function notRecognized(name: string): string {
  return (
    `The term '${name}' is not recognized as the name of a cmdlet, function, script file, or operable program. ` +
    'Check the spelling of the name, or if a path was included, verify that the path is correct and try again.'
  );
}

/** An `sc.exe` failure as sc prints it: `[SC] OpenService FAILED 1060:` then the system message. */
export function scFailure(operation: string, code: number, text: string): WindowsError {
  return new WindowsError(`[SC] ${operation} FAILED ${code}:\n\n${text}`);
}

/** Win32 system messages the simulated service control manager reports. */
export const WIN32 = {
  1051: 'A stop control has been sent to a service that other running services are dependent on.',
  1056: 'An instance of the service is already running.',
  1058: 'The service cannot be started, either because it is disabled or because it has no enabled devices associated with it.',
  1059: 'Circular service dependency was specified.',
  1060: 'The specified service does not exist as an installed service.',
  1067: 'The process terminated unexpectedly.',
  1068: 'The dependency service or group failed to start.',
  1073: 'The specified service already exists.',
  1075: 'The dependency service does not exist or has been marked for deletion.',
  1057: 'The account name is invalid or does not exist, or the password is invalid for the account name specified.',
  2: 'The system cannot find the file specified.',
} as const;

/** A value of the wrong shape in a call's argument: a contract violation by the caller. */
export function badArgument(fn: string, field: string, expected: string, got: unknown): WindowsError {
  const shown = got === undefined ? 'nothing' : JSON.stringify(got);
  return new WindowsError(
    `${fn}: argument '${field}' must be ${expected}, got ${shown} (SimulatedWindowsNode checks the contract of tasks/windows/remote/contract.ts)`,
  );
}
