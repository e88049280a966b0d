import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * How the desktop app tells its own service process from any other program that answers on the
 * service's port (after a crash the port is free until the restart, and any local process may take
 * it). The main process gives each service process it starts a random token of its own, through the
 * process's environment (never its command line, which `ps` shows to every local user); before it
 * trusts the port, it sends a fresh random nonce and checks the answer, an HMAC of the nonce under that
 * token. A squatter has no token, and an answer seen once is worth nothing for the next nonce.
 */

/** The environment variable that carries a service process's run token. */
export const RUN_TOKEN_ENV = 'PINFOLD_RUN_TOKEN';

/** base64url of 32 random bytes: a run token, a nonce and a proof all have this form. */
const TOKEN_FORM = /^[A-Za-z0-9_-]{43}$/;

const PROOF_CONTEXT = 'pinfold run proof\n';

const random32 = (): string => randomBytes(32).toString('base64url');

export const newRunToken = random32;
export const newRunNonce = random32;

export function isRunToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_FORM.test(value);
}

export const isRunNonce = isRunToken;

/** The answer to `nonce` of the process that holds `token`. */
export function runProof(token: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(token, 'base64url'))
    .update(PROOF_CONTEXT + nonce)
    .digest('base64url');
}

/** Whether `answer` is the proof of `token` for `nonce`, compared in constant time. */
export function isRunProof(token: string, nonce: string, answer: unknown): boolean {
  if (typeof answer !== 'string' || !TOKEN_FORM.test(answer)) return false;
  const expected = Buffer.from(runProof(token, nonce), 'base64url');
  const given = Buffer.from(answer, 'base64url');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
