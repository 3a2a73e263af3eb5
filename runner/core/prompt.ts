// Asking for a password on the terminal, as Python's getpass (which ansible uses) does: on the
// controlling terminal (/dev/tty), not stdin or stdout, so `play ... | tee` and a redirected stdin still
// ask the person at the keyboard; with echo off, so the password never shows on the screen. It never
// goes on a command line or into a child's environment: it stays in this process, and callers make it
// a Secret. The one prompt of play: vault passwords (--ask-vault-pass) and connection passwords (-k, -K).
import { closeSync, constants, openSync } from 'node:fs';
import { ReadStream, WriteStream } from 'node:tty';
import { PlayError, UsageError } from './errors.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_U = '\u0015';
const BACKSPACES = new Set(['\u007f', '\b']);

/** Who asks, for the messages when asking is impossible or interrupted. */
export interface Asking {
  /** The flag that asks: `--ask-vault-pass`, `-K`. */
  readonly flag: string;
  /** What is asked: `vault password`, `become password`. */
  readonly what: string;
  /** What to do without a terminal: `give the password with --vault-password-file FILE`. */
  readonly instead: string;
}

/** The line typed at `question` on the terminal, not echoed. No terminal: a usage error saying what to do instead. */
export async function promptHidden(question: string, asking: Asking): Promise<string> {
  let inFd: number;
  let outFd: number;
  try {
    inFd = openSync('/dev/tty', constants.O_RDONLY);
  } catch {
    throw new UsageError(`${asking.flag}: there is no terminal to ask on: ${asking.instead}`);
  }
  try {
    outFd = openSync('/dev/tty', constants.O_WRONLY);
  } catch (e) {
    closeSync(inFd);
    throw e;
  }
  const input = new ReadStream(inFd);
  const output = new WriteStream(outFd);
  try {
    // Echo off before the question shows: what is typed after it must never reach the screen.
    input.setRawMode(true);
    output.write(question);
    return await readLine(input, asking.what);
  } finally {
    input.setRawMode(false);
    output.write('\n');
    input.destroy();
    output.destroy();
  }
}

/** Characters up to Enter; backspace and Ctrl-U edit, Ctrl-C interrupts (exit 130), Ctrl-D on nothing ends. */
function readLine(input: ReadStream, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (result: string | Error) => {
      input.off('data', onData);
      if (typeof result === 'string') resolve(result);
      else reject(result);
    };
    const onData = (chunk: Buffer) => {
      for (const c of chunk.toString('utf8')) {
        if (c === '\r' || c === '\n') return done(line);
        if (c === CTRL_C) return done(new PlayError(`interrupted at the ${what} prompt`, 130));
        if (c === CTRL_D && line === '') return done(line);
        if (BACKSPACES.has(c)) line = [...line].slice(0, -1).join('');
        else if (c === CTRL_U) line = '';
        else line += c;
      }
    };
    input.on('data', onData);
  });
}
