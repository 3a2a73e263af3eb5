// One command on one SSH channel: stdin in (binary-safe, secrets revealed only here), stdout and
// stderr out, the exit status, and a timeout that kills the command and closes its channel.
import type { Client as SshClient, ClientChannel } from 'ssh2';
import { longTimeout } from '../core/long-sleep.js';
import { isSecret, type Secret } from '../core/secret.js';
import type { ExecResult } from '../core/step.js';
import { ConnectionLostError, TimeoutError } from './errors.js';

/** A connected client and whether its connection has since closed. */
export interface Live {
  readonly client: SshClient;
  gone: boolean;
}

/** The channel never opened, so the command never ran: safe to retry on a new connection. */
export class ChannelNotOpened extends Error {
  constructor(
    readonly connectionGone: boolean,
    message: string,
  ) {
    super(message);
    this.name = 'ChannelNotOpened';
  }
}

export interface ChannelRequest {
  readonly hostName: string;
  /** `linux1 (198.18.0.101:22)`, for messages. */
  readonly where: string;
  readonly command: string;
  readonly stdin?: string | Buffer | Secret;
  readonly timeoutMs?: number;
  /**
   * Called exactly once, when the server has closed the channel too (or it never opened). The
   * caller's MaxSessions slot is held until then: sshd counts a session until it is closed.
   */
  readonly onDone: () => void;
}

/** How long a timed-out channel may take to confirm its close before its slot is given back anyway. */
const CLOSE_GRACE_MS = 5000;

// ssh2's channel.signal() is a no-op once stdin has been ended (it checks `writable`), and we end
// stdin right away. A signal after EOF is valid SSH (RFC 4254 6.9), so send the request directly.
function sendSignal(s: ClientChannel, name: string): void {
  const ch = s as unknown as {
    outgoing?: { id: number; state: string };
    _client?: { _protocol?: { signal(id: number, signal: string): void } };
  };
  const out = ch.outgoing;
  if (!out || (out.state !== 'open' && out.state !== 'eof')) return;
  try {
    ch._client?._protocol?.signal(out.id, name);
  } catch {
    // The connection is going away; closing the channel is all that is left to do.
  }
}

// Long because one Promise holds one channel's whole life (open, stdin, output, exit, timeout, close):
// its handlers share the settle-once state, and split apart they would have to pass it around.
export function runChannel(live: Live, r: ChannelRequest): Promise<ExecResult> {
  return new Promise<ExecResult>((resolve, reject) => {
    let stream: ClientChannel | null = null;
    let timedOut = false;
    let settled = false;
    let done = false;
    let cancelTimer: (() => void) | undefined;
    let grace: NodeJS.Timeout | undefined;

    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(grace);
      r.onDone();
    };
    const settle = (act: () => void) => {
      if (settled) return;
      settled = true;
      cancelTimer?.();
      act();
    };
    const startGrace = () => {
      clearTimeout(grace);
      grace = setTimeout(finish, CLOSE_GRACE_MS);
      grace.unref();
    };
    const abandon = (s: ClientChannel) => {
      // Ask sshd to kill the command, then close the channel. OpenSSH 7.9+ honours `signal`, but not
      // in root sessions (no post-auth privilege separation): there the command lives on until it
      // ends or writes to the closed channel, and sshd confirms the close only then.
      sendSignal(s, 'KILL');
      s.close();
      startGrace();
    };

    if (r.timeoutMs !== undefined && r.timeoutMs > 0) {
      // Not setTimeout: a limit past 2^31-1 ms (a playbook's timeoutSec) would fire at once.
      cancelTimer = longTimeout(() => {
        timedOut = true;
        settle(() => reject(new TimeoutError(r.hostName, r.timeoutMs!, r.where)));
        if (stream) abandon(stream);
        else startGrace(); // still opening: a server that never answers must not keep the slot
      }, r.timeoutMs);
    }

    const onOpen = (err: Error | undefined, s: ClientChannel) => {
      if (err) {
        finish();
        return settle(() => reject(new ChannelNotOpened(live.gone, err.message)));
      }
      stream = s;
      const out: Buffer[] = [];
      const errOut: Buffer[] = [];
      let code: number | null | undefined;
      s.on('data', (d: Buffer) => out.push(d));
      s.stderr.on('data', (d: Buffer) => errOut.push(d));
      // exit-status gives a number; exit-signal gives (null, signalName, ...): code null.
      s.on('exit', (c: unknown) => {
        code = typeof c === 'number' ? c : null;
      });
      s.on('error', () => {
        /* the close that follows decides */
      });
      s.on('close', () => {
        finish();
        if (code === undefined && live.gone) {
          return settle(() =>
            reject(
              new ConnectionLostError(
                r.hostName,
                `host ${r.where}: the connection was lost while a command ran; it may or may not have completed`,
              ),
            ),
          );
        }
        // Decode once at the end: a chunk boundary may split a UTF-8 character.
        settle(() =>
          resolve({
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(errOut).toString('utf8'),
            code: code ?? null,
          }),
        );
      });
      if (timedOut) return abandon(s);
      const input = isSecret(r.stdin) ? r.stdin.reveal() : r.stdin;
      // end() with the data: ssh2 honours the channel window, so 1 MiB does not flood the server.
      if (input !== undefined && input.length > 0) s.end(input);
      else s.end();
    };

    try {
      live.client.exec(r.command, onOpen);
    } catch (e) {
      // ssh2 throws 'Not connected' synchronously when the socket is already gone.
      finish();
      settle(() => reject(new ChannelNotOpened(true, (e as Error).message)));
    }
  });
}
