import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, UnauthorizedError } from '../../../main/base/errors.js';
import { createAccessKey, deleteAccessKeyByName, listAccessKeys, loadKey, secretMatches } from '../../../main/accounts/access-keys.js';
import { createOwner } from '../../../main/accounts/accounts.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock } from '../../helpers/manual-clock.js';

describe('access keys', () => {
  let fx: AccountsFixture;
  let ownerId: number;
  beforeEach(async () => {
    fx = accountsFixture(manualClock(Date.UTC(2027, 0, 1)));
    ownerId = (await createOwner(fx.ctx)).id;
  });
  afterEach(() => fx.close());

  it('creates a UUID key with a 64-character base64url secret (48 bytes), stored only sealed', async () => {
    const key = await createAccessKey(fx.ctx, ownerId, 'k1', ['read', 'pin']);
    expect(key.access_key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(key.access_secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(Buffer.from(key.access_secret, 'base64url').length).toBe(48);
    const row = await fx.ctx.store.keys.accessKeyById(key.access_key);
    expect(row?.permissions).toEqual(['read', 'pin']);
    expect(row?.secretSealed.includes(Buffer.from(key.access_secret))).toBe(false);
    expect(row?.secretSealed.includes(Buffer.from(key.access_secret, 'base64url'))).toBe(false);
  });

  it('lists name, access_key and permissions only', async () => {
    const key = await createAccessKey(fx.ctx, ownerId, 'k1', ['write']);
    expect(await listAccessKeys(fx.ctx, ownerId)).toEqual([{ name: 'k1', access_key: key.access_key, permissions: ['write'] }]);
  });

  it('a duplicate name in one account is a conflict and adds nothing', async () => {
    await createAccessKey(fx.ctx, ownerId, 'k1', ['read']);
    await expect(createAccessKey(fx.ctx, ownerId, 'k1', ['admin'])).rejects.toThrow(ConflictError);
    expect(await listAccessKeys(fx.ctx, ownerId)).toHaveLength(1);
  });

  it('decrypts a key once, then serves it from the cache', async () => {
    const key = await createAccessKey(fx.ctx, ownerId, 'k1', ['read']);
    const before = fx.opens();
    const first = await loadKey(fx.ctx, key.access_key);
    expect(fx.opens()).toBe(before + 1);
    // A cache hit answers without a promise: auth's hot path gains no await.
    for (let i = 0; i < 5; i++) expect(loadKey(fx.ctx, key.access_key)).toBe(first);
    expect(fx.opens()).toBe(before + 1);
    expect(first.secretBytes.toString('utf8')).toBe(key.access_secret);
    expect(first.hmacKey.equals(Buffer.from(key.access_secret, 'base64url'))).toBe(true);
  });

  it('a deleted key is evicted from the cache at once', async () => {
    const key = await createAccessKey(fx.ctx, ownerId, 'k1', ['read']);
    await loadKey(fx.ctx, key.access_key);
    expect(fx.ctx.keyCache.get(key.access_key, 0)).toBeDefined();
    await deleteAccessKeyByName(fx.ctx, ownerId, 'k1');
    expect(fx.ctx.keyCache.get(key.access_key, 0)).toBeUndefined();
    await expect(loadKey(fx.ctx, key.access_key)).rejects.toThrow(UnauthorizedError);
  });

  it('deleting an unknown name is 404 and deletes nothing', async () => {
    await createAccessKey(fx.ctx, ownerId, 'k1', ['read']);
    await expect(deleteAccessKeyByName(fx.ctx, ownerId, 'nope')).rejects.toThrow(NotFoundError);
    expect(await listAccessKeys(fx.ctx, ownerId)).toHaveLength(1);
  });

  it('unknown keys are not cached', async () => {
    await expect(loadKey(fx.ctx, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(UnauthorizedError);
    expect(fx.ctx.keyCache.get('00000000-0000-4000-8000-000000000000', 0)).toBeUndefined();
  });

  it('secretMatches compares the whole secret', async () => {
    const key = await createAccessKey(fx.ctx, ownerId, 'k1', ['read']);
    const cached = await loadKey(fx.ctx, key.access_key);
    expect(secretMatches(cached, key.access_secret)).toBe(true);
    expect(secretMatches(cached, key.access_secret.slice(0, -1))).toBe(false);
    expect(secretMatches(cached, `${key.access_secret}x`)).toBe(false);
    expect(secretMatches(cached, '')).toBe(false);
  });
});
