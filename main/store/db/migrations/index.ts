import { accountsMigration } from './001-accounts.js';
import { blockstoreMigration } from './002-blockstore.js';
import { pinsMigration } from './003-pins.js';
import { namesMigration } from './004-names.js';
import { foldersMigration } from './005-folders.js';
import { syncMigration } from './006-sync.js';
import { uploadsMigration } from './007-uploads.js';
import { metaMigration } from './008-meta.js';
import { namesValidityMigration } from './009-names-validity.js';
import { uploadReservationsMigration } from './010-upload-reservations.js';
import { sessionKeysMigration } from './011-session-keys.js';
import { usageDailyMigration } from './012-usage-daily.js';
import { pinsListMigration } from './013-pins-list.js';
import { partnerUsersMigration } from './014-partner-users.js';
import { syncBatchesMigration } from './015-sync-batches.js';
import { syncVersionsMigration } from './016-sync-versions.js';
import { historyBytesMigration } from './017-history-bytes.js';
import { pinRequestsMigration } from './018-pin-requests.js';
import { namesPublicMigration } from './019-names-public.js';
import { syncFollowMigration } from './020-sync-follow.js';
import { namesSeenMigration } from './021-names-seen.js';
import { pinsActiveMigration } from './022-pins-active.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/**
 * Every schema step, in order. Numbers are reserved per area so parallel work does not collide:
 * 1 accounts, 2 blockstore, 3 pins, 4 names, 5 folders, 6 sync, 7 uploads, 8 meta; later steps take the
 * next free number: 9 names validity, 10 upload reservations, 11 session keys, 12 usage per day, 13 pin list indexes, 14 partner users index, 15 sync batches, 16 sync versions, 17 history bytes, 18 pins of the Pinning Service API, 19 public names, 20 followed folders, 21 names' records seen elsewhere, 22 the pin list's active filter.
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
  namesValidityMigration,
  uploadReservationsMigration,
  sessionKeysMigration,
  usageDailyMigration,
  pinsListMigration,
  partnerUsersMigration,
  syncBatchesMigration,
  syncVersionsMigration,
  historyBytesMigration,
  pinRequestsMigration,
  namesPublicMigration,
  syncFollowMigration,
  namesSeenMigration,
  pinsActiveMigration,
];
