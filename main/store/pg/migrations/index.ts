import { metaMigration } from './001-meta.js';
import { schemaMigration } from './002-schema.js';
import { rowAnnouncementsMigration } from './003-row-announcements.js';
import { pinRequestsMigration } from './004-pin-requests.js';
import { namesPublicMigration } from './005-names-public.js';
import { syncFollowMigration } from './006-sync-follow.js';
import { namesSeenMigration } from './007-names-seen.js';
import { namesPublicFlagMigration } from './008-names-public-flag.js';
import { pinsActiveMigration } from './009-pins-active.js';
import type { PgMigration } from './migration.js';

/** Every step of the PostgreSQL schema, in order (migrate.ts runs the ones not applied yet). */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  metaMigration,
  schemaMigration,
  rowAnnouncementsMigration,
  pinRequestsMigration,
  namesPublicMigration,
  syncFollowMigration,
  namesSeenMigration,
  namesPublicFlagMigration,
  pinsActiveMigration,
];
