// What every command's handler gets from main.ts: the streams, the run's abort signal, and where it
// leaves its exit code.
export interface Io {
  out: NodeJS.WriteStream;
  err: NodeJS.WriteStream;
  signal: AbortSignal;
  /** The exit code a command's handler decided. */
  code: number;
  /** A command for which Ctrl-C is the normal way to stop (play drift --every): its own code stands. */
  cleanStop?: boolean;
}
