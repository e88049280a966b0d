import { accountsMigration } from './001-accounts.js';
import { blockstoreMigration } from './002-blockstore.js';
import { pinsMigration } from './003-pins.js';
import { namesMigration } from './004-names.js';
import { foldersMigration } from './005-folders.js';
import { syncMigration } from './006-sync.js';
import { uploadsMigration } from './007-uploads.js';
import { metaMigration } from './008-meta.js';
import { uploadReservationsMigration } from './017-upload-reservations.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * Every schema step, in order. Numbers are reserved per area so parallel work does not collide:
 * 1 accounts, 2 blockstore, 3 pins, 4 names, 5 folders, 6 sync, 7 uploads, 8 meta; an area's later steps
 * add tens (17 is the second uploads step).
 */
export const MIGRATIONS: readonly Migration[] = [
  accountsMigration,
  blockstoreMigration,
  pinsMigration,
  namesMigration,
  foldersMigration,
  syncMigration,
  uploadsMigration,
  metaMigration,
  uploadReservationsMigration,
];
