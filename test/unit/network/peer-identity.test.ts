import { peerIdFromString } from '@libp2p/peer-id';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSealedBox } from '../../../main/base/sealed-box.js';
import { loadPeerIdentity } from '../../../main/network/peer-identity.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { tempDb, type TestDb } from '../names/helpers.js';

describe('peer identity (the ID the served routing API names as the provider)', () => {
  let t: TestDb;
  beforeEach(() => {
    t = tempDb();
  });
  afterEach(() => t.cleanup());

  it('is made once, kept sealed, and the same at every start; another master key cannot open it', async () => {
    const store = sqliteStore(t.db);
    const box = createSealedBox(Buffer.alloc(32, 3));
    const first = await loadPeerIdentity(store.meta, box);
    expect(first.peerId).toMatch(/^12D3KooW/);
    expect(peerIdFromString(first.peerId).type).toBe('Ed25519');
    expect(await loadPeerIdentity(store.meta, box)).toEqual(first);
    const sealed = await store.meta.metaValue('peer-identity');
    // Sealed: the private key's bytes are not in the stored value as they are.
    expect(sealed?.byteLength).toBeGreaterThan(64);
    await expect(loadPeerIdentity(store.meta, createSealedBox(Buffer.alloc(32, 4)))).rejects.toThrow();
  });
});
