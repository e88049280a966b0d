import { createHash, randomBytes } from 'node:crypto';
import { unixSeconds, type Clock } from '../base/clock.js';

/**
 * One-time sign-in codes (issue 12): the owner signs a browser in without ever seeing a secret, the way
 * Jupyter hands over its token. A code is 32 random bytes (base64url, 43 characters), valid for five
 * minutes, redeemed once. Codes live only in this process's memory, and only as SHA-256 hashes, so a
 * heap dump or a restart leaks nothing that still works; at most {@link MAX_OUTSTANDING} wait at once
 * (the oldest is dropped), so asking for codes in a loop cannot grow memory.
 */

export const SIGN_IN_CODE_LIFETIME_SECONDS = 300;
export const MAX_OUTSTANDING = 16;
const CODE_BYTES = 32;
/** What a code looks like (base64url of {@link CODE_BYTES} bytes): the route refuses anything else as malformed (400). */
export const SIGN_IN_CODE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Which session a code signs in to: `new` mints a session key of its own; `shared` takes the session
 * the other shared codes of the last few minutes got (the desktop's links: one burst, one session; see
 * session-keys.ts).
 */
export type CodeSession = 'new' | 'shared';

export interface IssueOptions {
  session?: CodeSession;
  /**
   * Called once when the code stops being redeemable: redeemed (whatever the outcome), found expired,
   * or dropped for a newer one. What was made to carry the code (a handoff page) goes with it.
   */
  onRetired?: () => void;
}

export interface IssuedCode {
  code: string;
  /** Unix seconds; refused from this second on. */
  expiresAt: number;
}

export interface SignInCodes {
  issue(options?: IssueOptions): IssuedCode;
  /**
   * The session a code was issued for, once, for a code that was issued and has not expired; null for
   * an unknown, used or expired one (text that cannot be a code at all is refused before, by the route's
   * schema, so a typo is told apart from a stale link).
   */
  redeem(code: string): CodeSession | null;
}

export interface SignInCodesInit {
  /** Tests shorten it; the service uses {@link SIGN_IN_CODE_LIFETIME_SECONDS}. */
  lifetimeSeconds?: number;
}

function hashOf(code: string): string {
  return createHash('sha256').update(code, 'utf8').digest('hex');
}

interface Outstanding {
  expiresAt: number;
  session: CodeSession;
  onRetired: (() => void) | undefined;
}

export function createSignInCodes(clock: Clock, init: SignInCodesInit = {}): SignInCodes {
  const lifetime = init.lifetimeSeconds ?? SIGN_IN_CODE_LIFETIME_SECONDS;
  // Hash -> code, in issue order (a Map keeps insertion order): the first entry is the oldest.
  const outstanding = new Map<string, Outstanding>();
  const retire = (hash: string): Outstanding | undefined => {
    const entry = outstanding.get(hash);
    if (entry === undefined) return undefined;
    outstanding.delete(hash);
    entry.onRetired?.();
    return entry;
  };
  const dropExpired = (now: number): void => {
    for (const [hash, entry] of outstanding) if (entry.expiresAt <= now) retire(hash);
  };
  return {
    issue(options = {}) {
      const now = unixSeconds(clock);
      dropExpired(now);
      const code = randomBytes(CODE_BYTES).toString('base64url');
      const expiresAt = now + lifetime;
      outstanding.set(hashOf(code), { expiresAt, session: options.session ?? 'new', onRetired: options.onRetired });
      while (outstanding.size > MAX_OUTSTANDING) retire(outstanding.keys().next().value as string);
      return { code, expiresAt };
    },
    redeem(code) {
      const hash = hashOf(code);
      const now = unixSeconds(clock);
      // Used up by this attempt whatever its outcome: an expired code is gone too.
      const entry = retire(hash);
      dropExpired(now);
      return entry !== undefined && now < entry.expiresAt ? entry.session : null;
    },
  };
}
