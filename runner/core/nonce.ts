// The nonces that frame a batch's or a kept shell's output (probe-batch.ts, kept-shell.ts): 9 random
// bytes from the system's generator, so that no file content can forge a frame. A kept tick of 1,000
// hosts takes thousands of them, and a call to the generator per nonce cost more than the rest of
// making one: they are taken from a buffer of its bytes, filled 4,608 at a time.
import { randomBytes } from 'node:crypto';

const NONCE_BYTES = 9;
const POOL_BYTES = NONCE_BYTES * 512;

let pool = Buffer.alloc(0);
let next = 0;

/** 18 hex digits, never handed out twice from the pool. */
export function newNonce(): string {
  if (next + NONCE_BYTES > pool.length) {
    pool = randomBytes(POOL_BYTES);
    next = 0;
  }
  const nonce = pool.toString('hex', next, next + NONCE_BYTES);
  next += NONCE_BYTES;
  return nonce;
}
