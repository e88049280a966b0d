import { createHash, randomBytes } from 'node:crypto';
import { unixSeconds, type Clock } from '../base/clock.js';
import { BadInputError } from '../base/errors.js';

/**
 * One-time sign-in codes (issue 12): the owner signs a browser in without ever seeing a secret, the way
 * Jupyter prints its token URL. A code is 32 random bytes (base64url, 43 characters), valid for five
 * minutes, redeemed once. Codes live only in this process's memory, and only as SHA-256 hashes, so a
 * heap dump or a restart leaks nothing that still works; at most {@link MAX_OUTSTANDING} wait at once
 * (the oldest is dropped), so asking for codes in a loop cannot grow memory.
 */

export const SIGN_IN_CODE_LIFETIME_SECONDS = 300;
export const MAX_OUTSTANDING = 16;
const CODE_BYTES = 32;
const CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedCode {
  code: string;
  /** Unix seconds; refused from this second on. */
  expiresAt: number;
}

export interface SignInCodes {
  issue(): IssuedCode;
  /**
   * True once for a code that was issued and has not expired; false for an unknown, used or expired one.
   * A value that cannot be a code at all is 400 (BadInputError), so a typo is told apart from a stale link.
   */
  redeem(code: unknown): boolean;
}

function hashOf(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

/** Checks the form of a code as sent (`?code=`), without looking it up. */
export function parseSignInCode(value: unknown): string {
  if (value === undefined || value === '') throw new BadInputError('code is required');
  if (typeof value !== 'string' || !CODE_PATTERN.test(value)) throw new BadInputError('code is malformed (43 base64url characters expected)');
  return value;
}

export function createSignInCodes(clock: Clock): SignInCodes {
  // Hash -> expiry, in issue order (a Map keeps insertion order): the first entry is the oldest.
  const outstanding = new Map<string, number>();
  const dropExpired = (now: number): void => {
    for (const [hash, expiresAt] of outstanding) if (expiresAt <= now) outstanding.delete(hash);
  };
  return {
    issue() {
      const now = unixSeconds(clock);
      dropExpired(now);
      const code = randomBytes(CODE_BYTES).toString('base64url');
      const expiresAt = now + SIGN_IN_CODE_LIFETIME_SECONDS;
      outstanding.set(hashOf(code), expiresAt);
      while (outstanding.size > MAX_OUTSTANDING) outstanding.delete(outstanding.keys().next().value as string);
      return { code, expiresAt };
    },
    redeem(value) {
      const hash = hashOf(parseSignInCode(value));
      const expiresAt = outstanding.get(hash);
      // Used up by this attempt whatever its outcome: an expired code is gone too.
      outstanding.delete(hash);
      return expiresAt !== undefined && unixSeconds(clock) < expiresAt;
    },
  };
}
