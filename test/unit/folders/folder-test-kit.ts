import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CID } from 'multiformats/cid';
import type { Clock } from '../../../main/base/clock.js';
import { createFoldersContext, type FolderPins, type FoldersContext } from '../../../main/folders/index.js';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import { CountingBlockstore } from '../content/directory/directory-helpers.js';

/** An in-memory stand-in for the pins domain behind the injected {@link FolderPins} interface. */
export class FakePins implements FolderPins {
  readonly pinned = new Set<string>();
  readonly usedByOthers = new Set<string>();
  readonly applied: Array<{ accountId: number; pin?: string; unpin?: string }> = [];

  pin(accountId: number, cid: CID): void {
    this.pinned.add(`${accountId}:${cid.toV1().toString()}`);
  }

  async isPinned(accountId: number, cid: CID): Promise<boolean> {
    return this.pinned.has(`${accountId}:${cid.toV1().toString()}`);
  }

  isUsedByOtherPin(accountId: number, cid: CID): boolean {
    return this.usedByOthers.has(`${accountId}:${cid.toV1().toString()}`);
  }

  applyPinChanges(accountId: number, changes: { pin?: CID; unpin?: CID }): void {
    this.applied.push({ accountId, pin: changes.pin?.toString(), unpin: changes.unpin?.toString() });
    if (changes.pin) this.pin(accountId, changes.pin);
    if (changes.unpin) this.pinned.delete(`${accountId}:${changes.unpin.toV1().toString()}`);
  }
}

export const fixedClock: Clock = { nowMs: () => 1_700_000_000_000 };

export interface Kit {
  dir: string;
  db: Db;
  blockstore: CountingBlockstore;
  pins: FakePins;
  ctx: FoldersContext;
  close(): Promise<void>;
}

export async function createKit(blockstore = new CountingBlockstore()): Promise<Kit> {
  const dir = await mkdtemp(join(tmpdir(), 'pinfold-folders-'));
  const db = openDatabase(join(dir, 'pinfold.db'));
  const pins = new FakePins();
  const ctx = await createFoldersContext({ store: sqliteStore(db), blockstore, pins, clock: fixedClock });
  return {
    dir,
    db,
    blockstore,
    pins,
    ctx,
    async close() {
      db.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
