import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AccessKeyListing, AccessKeyView, CreatedAccessKey, Permission } from '../../shared/api-types.js';
import { ConflictError, NotFoundError, SessionExpiredError, UnauthorizedError } from '../base/errors.js';
import { unixSeconds } from '../base/clock.js';
import { UniqueViolation } from '../store/repositories/index.js';
import type { AccessKeyRow } from '../store/repositories/keys.js';
import type { AccountsContext } from './context.js';
import { isExpired, type CachedKey } from './key-cache.js';

const SECRET_BYTES = 48;

/** Binds a sealed secret to its key id, so a sealed value cannot be replayed under another key. */
export function sealContext(accessKey: string): string {
  return `access-secret:${accessKey}`;
}

export interface NewKeyOptions {
  /** The key and secret to store (the owner's key from the environment); default: new random ones. */
  explicit?: CreatedAccessKey;
  /** Unix second the key stops working: a session key (issue 12). Default: never. */
  expiresAt?: number;
}

export async function createAccessKey(
  ctx: AccountsContext,
  accountId: number,
  name: string,
  permissions: Permission[],
  options: NewKeyOptions = {},
): Promise<CreatedAccessKey> {
  const accessKey = options.explicit?.access_key ?? randomUUID();
  const secret = options.explicit?.access_secret ?? randomBytes(SECRET_BYTES).toString('base64url');
  try {
    await ctx.store.keys.insertAccessKey({
      accessKey,
      accountId,
      name,
      permissions,
      secretSealed: ctx.box.seal(Buffer.from(secret, 'utf8'), sealContext(accessKey)),
      createdAt: unixSeconds(ctx.clock),
      expiresAt: options.expiresAt ?? null,
    });
  } catch (error) {
    if (error instanceof UniqueViolation) throw new ConflictError(`an access key named ${JSON.stringify(name)} already exists`);
    throw error;
  }
  ctx.events?.keyChanged(accountId, { access_key: accessKey });
  return { access_key: accessKey, access_secret: secret };
}

/** The spec's listing (name, access_key, permissions), as the partner API shows a user's keys. */
export async function listAccessKeys(ctx: AccountsContext, accountId: number): Promise<AccessKeyListing[]> {
  return (await ctx.store.keys.accessKeysOf(accountId)).map((row) => ({
    name: row.name,
    access_key: row.accessKey,
    permissions: row.permissions as Permission[],
  }));
}

/** `GET /api/v0/keys`: the listing with the session extension (`session`, and `expires_at` for a session key). */
/** The account's keys as `GET /api/v0/keys` lists them; `ownerKey`, the owner key's access key (null when this instance holds none), is marked. */
export async function listAccessKeyViews(ctx: AccountsContext, accountId: number, ownerKey: string | null = null): Promise<AccessKeyView[]> {
  return (await ctx.store.keys.accessKeysOf(accountId)).map((row) => {
    const listing = {
      name: row.name,
      access_key: row.accessKey,
      permissions: row.permissions as Permission[],
      ...(row.accessKey === ownerKey ? { owner: true as const } : {}),
    };
    return row.expiresAt === null ? { ...listing, session: false } : { ...listing, session: true, expires_at: row.expiresAt };
  });
}

export async function deleteAccessKeyByName(ctx: AccountsContext, accountId: number, name: string): Promise<void> {
  const row = await ctx.store.keys.accessKeyByName(accountId, name);
  if (!row) throw new NotFoundError(`no access key named ${JSON.stringify(name)}`);
  await removeAccessKey(ctx, row);
}

/** Deletes a key with what hangs on it; every deletion (by name, sign-out, session sweep) goes through here. */
export async function removeAccessKey(ctx: AccountsContext, row: AccessKeyRow): Promise<void> {
  await ctx.store.transaction(async (tx) => {
    await tx.keys.deleteAccessKey(row.accessKey);
    // The upload addresses the key asked for die with it (contract section 4), and so does their ingress hold.
    await tx.uploads.deleteUploadReservationsOfKey(row.accessKey);
  });
  ctx.keyCache.evict(row.accessKey);
  ctx.changes?.published({ kind: 'access-key', key: row.accessKey });
  ctx.events?.keyChanged(row.accountId, { access_key: row.accessKey, removed: true });
}

/**
 * Looks a key up, from the cache when possible. Unknown keys are not cached, so a flood of made-up
 * keys cannot evict real ones; it costs them a primary-key lookup each. A session key past its
 * expiry is refused (401 "session expired") until the sweep deletes it.
 */
export function loadKey(ctx: AccountsContext, accessKey: string): CachedKey | Promise<CachedKey> {
  const now = unixSeconds(ctx.clock);
  const cached = ctx.keyCache.get(accessKey, now);
  return cached ?? loadStoredKey(ctx, accessKey, now);
}

/** A key not in the cache: read, checked, its secret opened, then cached. */
async function loadStoredKey(ctx: AccountsContext, accessKey: string, now: number): Promise<CachedKey> {
  const row = await ctx.store.keys.accessKeyById(accessKey);
  if (!row) throw new UnauthorizedError('unknown access key');
  if (isExpired(row, now)) throw new SessionExpiredError();
  const secret = keySecret(ctx, row);
  const entry: CachedKey = {
    accessKey,
    accountId: row.accountId,
    permissions: row.permissions as Permission[],
    secretBytes: Buffer.from(secret, 'utf8'),
    hmacKey: Buffer.from(secret, 'base64url'),
    expiresAt: row.expiresAt,
  };
  ctx.keyCache.set(entry);
  return entry;
}

/** A stored key's secret, unsealed (for the signature mode's HMAC, and a browser session handed out again). */
export function keySecret(ctx: AccountsContext, row: AccessKeyRow): string {
  return ctx.box.open(row.secretSealed, sealContext(row.accessKey)).toString('utf8');
}

/** Constant-time check of an `X-Access-Secret` header against the key's secret. */
export function secretMatches(key: CachedKey, presented: string): boolean {
  const presentedBytes = Buffer.from(presented, 'utf8');
  const expected = key.secretBytes;
  return presentedBytes.length === expected.length && timingSafeEqual(presentedBytes, expected);
}
