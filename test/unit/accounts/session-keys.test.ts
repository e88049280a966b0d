import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, SessionExpiredError } from '../../../main/base/errors.js';
import { createAccessKey, listAccessKeys, listAccessKeyViews, loadKey } from '../../../main/accounts/access-keys.js';
import { createOwner } from '../../../main/accounts/accounts.js';
import { createSessionKey, endSession, SESSION_LIFETIME_SECONDS, sessionKeyName, sweepExpiredSessions } from '../../../main/accounts/session-keys.js';
import { accountsFixture, manualClock, type AccountsFixture, type ManualClock } from './accounts-fixture.js';

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
});
