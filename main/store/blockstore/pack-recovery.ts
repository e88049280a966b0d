import { readdir, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import type { BlockIndexRepository } from '../repositories/block-index.js';
import { packFileName, packIdOfFileName } from './pack-format.js';

export interface RecoveryResult {
  /** Packs cut back to the end of their last indexed record. */
  packsTrimmed: number;
  /** Packs (and stray pack files) deleted because nothing indexed lies in them. */
  packsDeleted: number;
  bytesReclaimed: number;
}

/**
 * Gives back what an earlier process left in the packs when it died or stopped mid-upload. Only for an
 * exclusive open (the data folder's lock is held, so no other process appends):
 * - a pack still open for appends is cut back to the end of its last indexed record: everything after it
 *   was staged by batches that never committed (a row is written only after its bytes are durable, and a
 *   pack is appended to in order), so no row can point there; with no indexed record at all it is deleted;
 * - a pack file that has no row (a crash between compaction's row delete and its unlink) is deleted, so a
 *   new pack can never meet an old file under a reused id.
 * Every pack is then sealed, so compaction may rewrite what dead space the middle of a pack holds.
 * The row goes before the file: a crash in between leaves a stray file, which the next open deletes.
 */
export async function recoverPacks(packsDir: string, index: BlockIndexRepository): Promise<RecoveryResult> {
  const result: RecoveryResult = { packsTrimmed: 0, packsDeleted: 0, bytesReclaimed: 0 };
  const rows = await index.listPacks();
  const known = new Set(rows.map((row) => row.id));
  for (const row of rows) {
    if (row.sealed) continue;
    const path = packFileName(packsDir, row.id);
    const size = await stat(path).then(
      (info) => info.size,
      () => 0,
    );
    const records = await index.packRecords(row.id);
    if (records.blocks === 0) {
      await index.deletePackRow(row.id);
      await rm(path, { force: true });
      result.packsDeleted++;
      result.bytesReclaimed += size;
    } else if (size > records.end) {
      await truncate(path, records.end);
      result.packsTrimmed++;
      result.bytesReclaimed += size - records.end;
    }
  }
  await index.sealAllPacks();
  for (const name of await readdir(packsDir)) {
    const id = packIdOfFileName(name);
    if (id === undefined || known.has(id)) continue;
    const path = join(packsDir, name);
    const size = await stat(path).then(
      (info) => info.size,
      () => 0,
    );
    await rm(path, { force: true });
    result.packsDeleted++;
    result.bytesReclaimed += size;
  }
  return result;
}
