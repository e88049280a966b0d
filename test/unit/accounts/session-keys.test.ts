import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, SessionExpiredError } from '../../../main/base/errors.js';
import { createAccessKey, listAccessKeys, listAccessKeyViews, loadKey } from '../../../main/accounts/access-keys.js';
import { createOwner, createPartnerUser } from '../../../main/accounts/accounts.js';
import {
  createSessionBurst,
  createSessionKey,
  endSession,
  MAX_LIVE_SESSIONS,
  revokeAllSessions,
  SESSION_BURST_SECONDS,
  SESSION_LIFETIME_SECONDS,
  sessionKeyName,
  sweepExpiredSessions,
} from '../../../main/accounts/session-keys.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock, type ManualClock } from '../../helpers/manual-clock.js';

const START_MS = Date.UTC(2026, 10, 25, 14, 3, 27);
const START = START_MS / 1000;

describe('session keys', () => {
  let clock: ManualClock;
  let fx: AccountsFixture;
  let ownerId: number;
  beforeEach(async () => {
    clock = manualClock(START_MS);
    fx = accountsFixture(clock);
    ownerId = (await createOwner(fx.ctx)).id;
  });
  afterEach(() => fx.close());

  it('is an admin key named after its minute, expiring 7 days later, its secret sealed at rest', async () => {
    const session = await createSessionKey(fx.ctx, ownerId);
    expect(session.name).toBe('Browser session 2026-11-25 14:03 UTC');
    expect(sessionKeyName(START)).toBe(session.name);
    expect(session.expires_at).toBe(START + SESSION_LIFETIME_SECONDS);
    expect(SESSION_LIFETIME_SECONDS).toBe(7 * 24 * 3600);
    expect(session.access_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    const row = await fx.ctx.store.keys.accessKeyById(session.access_key);
    expect(row?.permissions).toEqual(['admin']);
    expect(row?.expiresAt).toBe(session.expires_at);
    expect(row?.secretSealed.includes(Buffer.from(session.access_secret))).toBe(false);
  });

  it('two sessions in one minute get distinct names', async () => {
    const first = await createSessionKey(fx.ctx, ownerId);
    const second = await createSessionKey(fx.ctx, ownerId);
    expect(second.name).toBe(`${first.name} (2)`);
  });

  it('is listed with session: true and expires_at; ordinary keys with session: false; the spec listing stays as it was', async () => {
    const ordinary = await createAccessKey(fx.ctx, ownerId, 'ci', ['read']);
    const session = await createSessionKey(fx.ctx, ownerId);
    expect(await listAccessKeyViews(fx.ctx, ownerId)).toEqual(
      expect.arrayContaining([
        { name: 'ci', access_key: ordinary.access_key, permissions: ['read'], session: false },
        { name: session.name, access_key: session.access_key, permissions: ['admin'], session: true, expires_at: session.expires_at },
      ]),
    );
    for (const listing of await listAccessKeys(fx.ctx, ownerId)) expect(Object.keys(listing).sort()).toEqual(['access_key', 'name', 'permissions']);
  });

  it('is refused from its expiry second on, even when cached, with SessionExpiredError', async () => {
    const session = await createSessionKey(fx.ctx, ownerId);
    expect((await loadKey(fx.ctx, session.access_key)).accessKey).toBe(session.access_key);
    clock.set((session.expires_at - 1) * 1000);
    expect((await loadKey(fx.ctx, session.access_key)).accessKey).toBe(session.access_key);
    clock.set(session.expires_at * 1000);
    await expect(loadKey(fx.ctx, session.access_key)).rejects.toThrow(SessionExpiredError);
    await expect(loadKey(fx.ctx, session.access_key)).rejects.toThrow('session expired');
  });

  it('the sweep deletes expired session keys only', async () => {
    const ordinary = await createAccessKey(fx.ctx, ownerId, 'ci', ['read']);
    const old = await createSessionKey(fx.ctx, ownerId);
    clock.set(START_MS + 3600_000);
    const fresh = await createSessionKey(fx.ctx, ownerId);
    expect(await sweepExpiredSessions(fx.ctx)).toBe(0);
    clock.set(old.expires_at * 1000);
    expect(await sweepExpiredSessions(fx.ctx)).toBe(1);
    expect(await fx.ctx.store.keys.accessKeyById(old.access_key)).toBeNull();
    expect(await fx.ctx.store.keys.accessKeyById(fresh.access_key)).not.toBeNull();
    expect(await fx.ctx.store.keys.accessKeyById(ordinary.access_key)).not.toBeNull();
  });

  it('sign-out deletes the calling session key; an ordinary key is BadInputError and stays', async () => {
    const ordinary = await createAccessKey(fx.ctx, ownerId, 'ci', ['admin']);
    const session = await createSessionKey(fx.ctx, ownerId);
    await loadKey(fx.ctx, session.access_key);
    await expect(endSession(fx.ctx, ordinary.access_key)).rejects.toThrow(BadInputError);
    expect(await fx.ctx.store.keys.accessKeyById(ordinary.access_key)).not.toBeNull();
    await endSession(fx.ctx, session.access_key);
    expect(await fx.ctx.store.keys.accessKeyById(session.access_key)).toBeNull();
    expect(fx.ctx.keyCache.get(session.access_key, START)).toBeUndefined();
  });

  const sessionKeysOf = async (accountId: number) => (await fx.ctx.store.keys.accessKeysOf(accountId)).filter((row) => row.expiresAt !== null);

  it(`keeps at most ${MAX_LIVE_SESSIONS} live: a new one revokes the oldest (which then stops working); expired ones do not count; ordinary keys stay`, async () => {
    expect(MAX_LIVE_SESSIONS).toBe(20);
    const ordinary = await createAccessKey(fx.ctx, ownerId, 'ci', ['admin']);
    const stale = await createSessionKey(fx.ctx, ownerId);
    clock.set(stale.expires_at * 1000);
    const made: string[] = [];
    for (let i = 0; i < MAX_LIVE_SESSIONS; i += 1) {
      clock.set(stale.expires_at * 1000 + i * 60_000);
      made.push((await createSessionKey(fx.ctx, ownerId)).access_key);
    }
    // The stale one is past its expiry: not live, so the cap was not reached; the sweep takes it.
    expect((await sessionKeysOf(ownerId)).map((row) => row.accessKey).sort()).toEqual([...made, stale.access_key].sort());
    await loadKey(fx.ctx, made[0] as string);

    clock.set(stale.expires_at * 1000 + MAX_LIVE_SESSIONS * 60_000);
    const newest = await createSessionKey(fx.ctx, ownerId);
    const live = (await sessionKeysOf(ownerId)).filter((row) => (row.expiresAt as number) * 1000 > clock.nowMs()).map((row) => row.accessKey);
    expect(live).toHaveLength(MAX_LIVE_SESSIONS);
    expect(live).toEqual([newest.access_key, ...made.slice(1).reverse()]);
    expect(await fx.ctx.store.keys.accessKeyById(made[0] as string)).toBeNull();
    await expect(loadKey(fx.ctx, made[0] as string)).rejects.toThrow('unknown access key');
    expect(await fx.ctx.store.keys.accessKeyById(ordinary.access_key)).not.toBeNull();
  });

  it('the cap holds for sign-ins that race each other', async () => {
    await Promise.all(Array.from({ length: MAX_LIVE_SESSIONS + 5 }, () => createSessionKey(fx.ctx, ownerId)));
    expect(await sessionKeysOf(ownerId)).toHaveLength(MAX_LIVE_SESSIONS);
  });

  it(`a burst shares one session: the same key for ${SESSION_BURST_SECONDS / 60} minutes after it was made, then a new one`, async () => {
    const burst = createSessionBurst(fx.ctx, ownerId);
    const first = await burst.take();
    clock.set(START_MS + (SESSION_BURST_SECONDS - 1) * 1000);
    const again = await burst.take();
    expect(again).toEqual(first);
    expect((await loadKey(fx.ctx, again.access_key)).secretBytes.toString('utf8')).toBe(first.access_secret);
    expect(await sessionKeysOf(ownerId)).toHaveLength(1);

    clock.set(START_MS + SESSION_BURST_SECONDS * 1000);
    const next = await burst.take();
    expect(next.access_key).not.toBe(first.access_key);
    expect(next.expires_at).toBe(START + SESSION_BURST_SECONDS + SESSION_LIFETIME_SECONDS);
    expect(await burst.take()).toEqual(next);
    // Plain sign-ins are not part of it, and do not end it.
    expect((await createSessionKey(fx.ctx, ownerId)).access_key).not.toBe(next.access_key);
    expect((await burst.take()).access_key).toBe(next.access_key);
  });

  it('a burst whose session was signed out or revoked starts a new one; tabs arriving together get one session', async () => {
    const burst = createSessionBurst(fx.ctx, ownerId);
    const first = await burst.take();
    await endSession(fx.ctx, first.access_key);
    const second = await burst.take();
    expect(second.access_key).not.toBe(first.access_key);
    await revokeAllSessions(fx.ctx, ownerId);
    const together = await Promise.all([burst.take(), burst.take(), burst.take()]);
    expect(new Set(together.map((session) => session.access_key)).size).toBe(1);
    expect(together[0]?.access_key).not.toBe(second.access_key);
    expect(await sessionKeysOf(ownerId)).toHaveLength(1);
  });

  it('revoking all deletes every session key of the account, expired or not, and nothing else; they stop working at once', async () => {
    const ordinary = await createAccessKey(fx.ctx, ownerId, 'ci', ['admin']);
    const owner = await fx.ctx.store.accounts.ownerAccount();
    const other = await createPartnerUser(fx.ctx, owner as NonNullable<typeof owner>, { uuid: 'session-user', name: 'user', email: '' });
    const othersSession = await createSessionKey(fx.ctx, other.id);
    const expired = await createSessionKey(fx.ctx, ownerId);
    clock.set(expired.expires_at * 1000);
    const live = [await createSessionKey(fx.ctx, ownerId), await createSessionKey(fx.ctx, ownerId)];
    await loadKey(fx.ctx, live[0]?.access_key as string);
    expect(await revokeAllSessions(fx.ctx, ownerId)).toBe(3);
    expect(await sessionKeysOf(ownerId)).toEqual([]);
    await expect(loadKey(fx.ctx, live[0]?.access_key as string)).rejects.toThrow('unknown access key');
    expect(await fx.ctx.store.keys.accessKeyById(ordinary.access_key)).not.toBeNull();
    expect(await fx.ctx.store.keys.accessKeyById(othersSession.access_key)).not.toBeNull();
    expect(await revokeAllSessions(fx.ctx, ownerId)).toBe(0);
  });
});
