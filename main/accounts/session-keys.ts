import type { SessionKey } from '../../shared/api-types.js';
import { unixSeconds } from '../base/clock.js';
import { BadInputError, ConflictError } from '../base/errors.js';
import { createAccessKey, removeAccessKey } from './access-keys.js';
import type { AccountsContext } from './context.js';

/**
 * Session keys (issue 12): what a browser gets for a one-time sign-in code. An ordinary admin key of the
 * owner in every way (secret sealed at rest, listed by GET /api/v0/keys, deletable by name), except that
 * it stops working SESSION_LIFETIME_SECONDS after it was made and the sweep then deletes it.
 */

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60;
/** Two sign-ins in the same minute get `... UTC (2)`: names are unique per account. */
const MAX_NAME_ATTEMPTS = 100;

/** `Browser session 2026-11-25 14:03 UTC`: when the session began, as the Keys page lists it. */
export function sessionKeyName(nowSeconds: number): string {
  const iso = new Date(nowSeconds * 1000).toISOString();
  return `Browser session ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export async function createSessionKey(ctx: AccountsContext, accountId: number): Promise<SessionKey> {
  const now = unixSeconds(ctx.clock);
  const expiresAt = now + SESSION_LIFETIME_SECONDS;
  const base = sessionKeyName(now);
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const name = attempt === 1 ? base : `${base} (${attempt})`;
    try {
      const key = await createAccessKey(ctx, accountId, name, ['admin'], { expiresAt });
      return { ...key, expires_at: expiresAt, name };
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  throw new ConflictError(`too many browser sessions began at ${base}`);
}

/** Sign-out: deletes the session key the request came with; any other key is 400 (delete those by name). */
export async function endSession(ctx: AccountsContext, accessKey: string): Promise<void> {
  const row = await ctx.store.keys.accessKeyById(accessKey);
  if (row === null || row.expiresAt === null) throw new BadInputError('not a session key (sign-out ends only the session key it is sent with)');
  await removeAccessKey(ctx, row);
}

/** Deletes every session key past its expiry (auth refuses them already); returns how many. */
export async function sweepExpiredSessions(ctx: AccountsContext): Promise<number> {
  const expired = await ctx.store.keys.expiredSessionKeys(unixSeconds(ctx.clock));
  for (const row of expired) await removeAccessKey(ctx, row);
  return expired.length;
}
