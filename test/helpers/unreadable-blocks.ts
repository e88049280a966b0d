import { join } from 'node:path';
import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { openBlockstore } from '../../main/store/blockstore/blockstore.js';
import { openDatabase } from '../../main/store/db/database.js';
import { sqliteStore } from '../../main/store/db/sqlite-store.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import type { Store } from '../../main/store/repositories/index.js';
import { suiteDatabase } from './suite-database.js';

/**
 * Blocks of a linking codec whose links cannot be read: valid bytes under their hash, but a decoder that
 * recurses overflows on them, or they do not decode at all. What they link to is hidden from any walk.
 */
export interface TestBlock {
  cid: CID;
  bytes: Uint8Array;
}

async function blockOf(code: number, bytes: Uint8Array): Promise<TestBlock> {
  return { cid: CID.createV1(code, await sha256.digest(bytes)), bytes };
}

/** dag-cbor: `depth` arrays of one item each, around a link to `target` (tag 42). */
export function deepCborLinking(target: CID, depth: number): Promise<TestBlock> {
  const cidBytes = target.bytes;
  const link = [0xd8, 0x2a, 0x58, cidBytes.byteLength + 1, 0x00, ...cidBytes];
  return blockOf(dagCbor.code, new Uint8Array([...new Array<number>(depth).fill(0x81), ...link]));
}

/** dag-json: `depth` arrays around a link to `target`. */
export function deepJsonLinking(target: CID, depth: number): Promise<TestBlock> {
  const text = `${'['.repeat(depth)}{"/":"${target.toString()}"}${']'.repeat(depth)}`;
  return blockOf(dagJson.code, new TextEncoder().encode(text));
}

/** Bytes that are no dag-pb node, under a dag-pb CID. */
export function brokenDagPb(): Promise<TestBlock> {
  return blockOf(dagPb.code, new Uint8Array([0xff, 0xff, 0xff]));
}

/** Bytes that are no dag-json, under a dag-json CID. */
export function brokenDagJson(): Promise<TestBlock> {
  return blockOf(dagJson.code, new TextEncoder().encode('{"a": '));
}

/**
 * Stores blocks straight into a data folder no server holds, as an earlier version, which took them from
 * a CAR import, left them: the only way such blocks get in now that every write path refuses them.
 */
export async function storeInDataFolder(dataDir: string, blocks: readonly TestBlock[]): Promise<void> {
  const metadata = await openSuiteMetadata(dataDir);
  try {
    const store = await openBlockstore(join(dataDir, 'blocks'), metadata.store, { exclusive: true });
    try {
      for (const block of blocks) await store.put(block.cid, block.bytes);
    } finally {
      await store.close();
    }
  } finally {
    await metadata.close();
  }
}

/** The block index the data folder's server uses: its SQLite file, or the suite's PostgreSQL database for it. */
async function openSuiteMetadata(dataDir: string): Promise<{ store: Store; close(): Promise<void> }> {
  const { database } = await suiteDatabase(dataDir);
  if (database !== undefined) {
    const store = await openPostgresStore(database.url, { maxConnections: 1 });
    return { store, close: () => store.close() };
  }
  const db = openDatabase(join(dataDir, 'pinfold.db'));
  return { store: sqliteStore(db), close: async () => void db.close() };
}
