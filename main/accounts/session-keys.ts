import type { CreatedAccessKey, SessionKey } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError } from '../base/errors.js';
import type { AccessKeyRow } from '../store/repositories/keys.js';
import { createAccessKey, keySecret, removeAccessKey } from './access-keys.js';
import type { AccountsContext } from './context.js';

/**
 * Session keys (issue 12): what a browser gets for a one-time sign-in code. An ordinary admin key of the
 * owner in every way (secret sealed at rest, listed by GET /api/v0/keys, deletable by name), except that
 * it stops working SESSION_LIFETIME_SECONDS after it was made and the sweep then deletes it.
 *
 * Issue 22, item 5: at most MAX_LIVE_SESSIONS live at once (a new one revokes the oldest), the desktop's
 * links of one burst share one session (createSessionBurst), and the owner can revoke them all.
 */

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/**
 * Live session keys an account keeps at most: a browser session is a 7-day owner admin key, so they
 * must not pile up (one per link clicked); 20 is more windows and browsers than a person keeps open.
 */
export const MAX_LIVE_SESSIONS = 20;
/** Shared codes redeemed within this many seconds of the session's making sign in to that same session. */
export const SESSION_BURST_SECONDS = 10 * 60;
/** Two sign-ins in the same minute get `... UTC (2)`: names are unique per account. */
const MAX_NAME_ATTEMPTS = 100;

/** `Browser session 2026-11-25 14:03 UTC`: when the session began, as the Keys page lists it. */
export function sessionKeyName(nowSeconds: number): string {
  const iso = new Date(nowSeconds * 1000).toISOString();
  return `Browser session ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

const isSession = (row: AccessKeyRow) => row.expiresAt !== null;

/** A new session key; when that makes more than MAX_LIVE_SESSIONS live, the oldest are revoked. */
export async function createSessionKey(ctx: AccountsContext, accountId: number): Promise<SessionKey> {
  const now = unixSeconds(ctx.clock);
  const expiresAt = now + SESSION_LIFETIME_SECONDS;
  const base = sessionKeyName(now);
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const name = attempt === 1 ? base : `${base} (${attempt})`;
    let key: CreatedAccessKey;
    try {
      key = await createAccessKey(ctx, accountId, name, ['admin'], { expiresAt });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      continue;
    }
    await revokeBeyondCap(ctx, accountId);
    return { ...key, expires_at: expiresAt, name };
  }
  throw new ConflictError(`too many browser sessions began at ${base}`);
}

/**
 * Counted after the insert, so sign-ins racing each other still end at the cap: each revokes whatever
 * lies beyond it, newest kept (the list comes newest first, the one just made at its head).
 */
async function revokeBeyondCap(ctx: AccountsContext, accountId: number): Promise<void> {
  const now = unixSeconds(ctx.clock);
  const live = (await ctx.store.keys.accessKeysOf(accountId)).filter((row) => isSession(row) && (row.expiresAt as number) > now);
  for (const row of live.slice(MAX_LIVE_SESSIONS)) await removeAccessKey(ctx, row);
}

/**
 * One session per burst of links: the desktop opens each `ipfs://` link in a new browser tab, each with
 * a code of its own, and a tab cannot see another's session (the window keeps its key in the tab's
 * sessionStorage). So the service hands every shared code redeemed within SESSION_BURST_SECONDS of the
 * burst's first the same session key (its secret unsealed again), as long as it was not revoked or
 * signed out; after that, or once it is gone, the next shared code starts a new one. Kept in memory:
 * a restart simply starts a new burst.
 */
export interface SessionBurst {
  take(): Promise<SessionKey>;
}

export function createSessionBurst(ctx: AccountsContext, accountId: number): SessionBurst {
  let current: { accessKey: string; madeAt: number } | null = null;
  // One at a time, so two tabs of one burst arriving together do not make two sessions.
  let queue: Promise<unknown> = Promise.resolve();
  const takeNow = async (): Promise<SessionKey> => {
    const now = unixSeconds(ctx.clock);
    if (current !== null && now - current.madeAt < SESSION_BURST_SECONDS) {
      const row = await ctx.store.keys.accessKeyById(current.accessKey);
      if (row !== null && row.expiresAt !== null && row.expiresAt > now) {
        return { access_key: row.accessKey, access_secret: keySecret(ctx, row), expires_at: row.expiresAt, name: row.name };
      }
    }
    const session = await createSessionKey(ctx, accountId);
    current = { accessKey: session.access_key, madeAt: now };
    return session;
  };
  return {
    take() {
      const next = queue.then(takeNow, takeNow);
      queue = next.catch(() => undefined);
      return next;
    },
  };
}

/** Sign-out: deletes the session key the request came with; any other key is 400 (delete those by name). */
export async function endSession(ctx: AccountsContext, accessKey: string): Promise<void> {
  const row = await ctx.store.keys.accessKeyById(accessKey);
  if (row === null || row.expiresAt === null) throw new BadInputError('not a session key (sign-out ends only the session key it is sent with)');
  await removeAccessKey(ctx, row);
}

/** "Revoke all browser sessions": deletes every session key of the account (expired or not); answers how many. */
export async function revokeAllSessions(ctx: AccountsContext, accountId: number): Promise<number> {
  const sessions = (await ctx.store.keys.accessKeysOf(accountId)).filter(isSession);
  for (const row of sessions) await removeAccessKey(ctx, row);
  return sessions.length;
}

/** Deletes every session key past its expiry (auth refuses them already); returns how many. */
export async function sweepExpiredSessions(ctx: AccountsContext): Promise<number> {
  const expired = await ctx.store.keys.expiredSessionKeys(unixSeconds(ctx.clock));
  for (const row of expired) await removeAccessKey(ctx, row);
  return expired.length;
}
