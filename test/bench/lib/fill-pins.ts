import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { create as createDigest } from 'multiformats/hashes/digest';
import type { PinStatus } from '../../../shared/api-types.js';
import { inTransaction, openDatabase } from '../../../main/store/db/database.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { insertPin } = SQLITE_QUERIES.pins;

const { ownerAccount } = SQLITE_QUERIES.accounts;

/** The words pin names start with: `<word> <i>`, so pin 0 is "photo 0" and the newest `<word> <count - 1>`. */
export const PIN_WORDS = ['photo', 'Report', 'backup', 'Ünïcode', 'music', 'video', 'archive', 'notes'];
const STATUSES: PinStatus[] = ['pinned', 'pinned', 'pinned', 'pinning', 'pinned', 'failure', 'pinned', 'unpinning'];

/** The name of pin `i` as fillPins writes it. */
export function benchPinName(i: number): string {
  return `${PIN_WORDS[i % PIN_WORDS.length] as string} ${i}`;
}

/**
 * Writes `count` pins of the owner straight into a running server's database (WAL lets a second writer in
 * while it idles), in a mix of names and statuses, oldest first (pin 0 is the oldest). The usage counters
 * are left alone: the pin list counts rows.
 */
export function fillPins(dataDir: string, count: number): void {
  const db = openDatabase(join(dataDir, 'pinfold.db'));
  try {
    const owner = ownerAccount(db);
    if (!owner) throw new Error('no owner account');
    const base = Math.floor(Date.now() / 1000) - count;
    inTransaction(db, () => {
      for (let i = 0; i < count; i++) {
        const digest = createDigest(0x12, createHash('sha256').update(`bench pin ${i}`).digest());
        insertPin(db, {
          accountId: owner.id,
          cid: CID.createV1(raw.code, digest).toString(),
          name: benchPinName(i),
          status: STATUSES[Math.floor(i / PIN_WORDS.length) % STATUSES.length] as PinStatus,
          size: 1024 + i,
          createdAt: base + Math.floor(i / 3),
          deadline: null,
        });
      }
    });
  } finally {
    db.close();
  }
}
