import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { ensureOwner, fileOwnerKeyStore, ownerKeyFromEnv } from '../../../main/accounts/owner-key.js';
import { loadKey, secretMatches } from '../../../main/accounts/access-keys.js';
import { accountsFixture, type AccountsFixture } from './accounts-fixture.js';
import { manualClock } from '../../helpers/manual-clock.js';

const KEY = '11111111-2222-4333-8444-555555555555';
const SECRET = Buffer.alloc(48, 7).toString('base64url');

describe('owner account and key', () => {
  let fx: AccountsFixture;
  beforeEach(() => {
    fx = accountsFixture(manualClock(Date.UTC(2027, 0, 1)));
  });
  afterEach(() => fx.close());

  it('first start creates the owner and an admin key in a 0600 owner-key.json; the next start reuses both', async () => {
    const store = fileOwnerKeyStore(fx.dir);
    const first = await ensureOwner(fx.ctx, store, null);
    expect(first.created).toBe(true);
    const path = join(fx.dir, 'owner-key.json');
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await store.load()).toEqual(first.ownerKey);
    const cached = await loadKey(fx.ctx, first.ownerKey.access_key);
    expect(cached.permissions).toEqual(['admin']);
    expect(secretMatches(cached, first.ownerKey.access_secret)).toBe(true);

    const second = await ensureOwner(fx.ctx, store, null);
    expect(second).toEqual({ ownerAccountId: first.ownerAccountId, ownerKey: first.ownerKey, created: false, location: store.description });
    expect(await fx.ctx.store.accounts.allAccounts()).toHaveLength(1);
  });

  it('a lost or foreign owner-key.json is replaced by a new admin key', async () => {
    const store = fileOwnerKeyStore(fx.dir);
    const first = await ensureOwner(fx.ctx, store, null);
    writeFileSync(join(fx.dir, 'owner-key.json'), JSON.stringify({ access_key: KEY, access_secret: SECRET }));
    const again = await ensureOwner(fx.ctx, store, null);
    expect(again.created).toBe(true);
    expect(again.ownerKey.access_key).not.toBe(KEY);
    expect(again.ownerKey.access_key).not.toBe(first.ownerKey.access_key);
  });

  it('PINFOLD_OWNER_KEY and PINFOLD_OWNER_SECRET set the owner key explicitly', async () => {
    const explicit = ownerKeyFromEnv({ PINFOLD_OWNER_KEY: KEY, PINFOLD_OWNER_SECRET: SECRET });
    expect(explicit).toEqual({ access_key: KEY, access_secret: SECRET });
    const store = fileOwnerKeyStore(fx.dir);
    const setup = await ensureOwner(fx.ctx, store, explicit);
    expect(setup).toMatchObject({ ownerKey: { access_key: KEY, access_secret: SECRET }, created: true });
    expect(secretMatches(await loadKey(fx.ctx, KEY), SECRET)).toBe(true);
    expect(await store.load()).toBeNull();
    expect((await ensureOwner(fx.ctx, store, explicit)).created).toBe(false);
  });

  it('shared database: the instance that makes the owner mints the key; another without a key of its own mints none and says where it is', async () => {
    const makerStore = fileOwnerKeyStore(fx.dir);
    const otherDir = mkdtempSync(join(tmpdir(), 'pinfold-owner-other-'));
    try {
      const otherStore = fileOwnerKeyStore(otherDir);
      const made = await ensureOwner(fx.ctx, makerStore, null, { home: 'host-a:/a/owner-key.json' });
      expect(made).toMatchObject({ created: true, location: makerStore.description });
      const other = await ensureOwner(fx.ctx, otherStore, null, { home: 'host-b:/b/owner-key.json' });
      expect(other).toEqual({ ownerAccountId: made.ownerAccountId, ownerKey: null, created: false, location: 'host-a:/a/owner-key.json' });
      expect(await otherStore.load()).toBeNull();
      expect(await fx.ctx.store.keys.accessKeysOf(made.ownerAccountId)).toHaveLength(1);
      // A copy of the owner key in the other folder is used as it is.
      await otherStore.save(made.ownerKey as NonNullable<typeof made.ownerKey>);
      expect(await ensureOwner(fx.ctx, otherStore, null, { home: 'host-b:/b/owner-key.json' })).toMatchObject({ ownerKey: made.ownerKey, created: false });
      // The maker, having lost its file, replaces the key: it is the key's recorded home.
      rmSync(join(fx.dir, 'owner-key.json'));
      const remade = await ensureOwner(fx.ctx, makerStore, null, { home: 'host-a:/a/owner-key.json' });
      expect(remade.created).toBe(true);
      expect(remade.ownerKey?.access_key).not.toBe(made.ownerKey?.access_key);
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('shared database made before the home was recorded: the first instance to come claims it', async () => {
    await ensureOwner(fx.ctx, fileOwnerKeyStore(fx.dir), null);
    rmSync(join(fx.dir, 'owner-key.json'));
    const claimed = await ensureOwner(fx.ctx, fileOwnerKeyStore(fx.dir), null, { home: 'host-a:/a' });
    expect(claimed.created).toBe(true);
    expect((await fx.ctx.store.meta.metaValue('owner-key-home'))?.toString('utf8')).toBe('host-a:/a');
  });

  it('refuses half or malformed environment settings', () => {
    expect(ownerKeyFromEnv({})).toBeNull();
    expect(() => ownerKeyFromEnv({ PINFOLD_OWNER_KEY: KEY })).toThrow(/must be set together/);
    expect(() => ownerKeyFromEnv({ PINFOLD_OWNER_SECRET: SECRET })).toThrow(BadInputError);
    expect(() => ownerKeyFromEnv({ PINFOLD_OWNER_KEY: 'not-a-uuid', PINFOLD_OWNER_SECRET: SECRET })).toThrow(/PINFOLD_OWNER_KEY/);
    expect(() => ownerKeyFromEnv({ PINFOLD_OWNER_KEY: KEY, PINFOLD_OWNER_SECRET: 'short' })).toThrow(/PINFOLD_OWNER_SECRET/);
  });
});
