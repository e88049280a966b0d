/**
 * The renderer's hand-written shape guards as they stood before the schemas of shared/schemas/ replaced
 * them (renderer/api/*.ts and renderer/events/service-events.ts at 18751cc), kept frozen as the oracle
 * the schema tests compare against: a schema accepts and refuses what its guard did. A deliberate change
 * of what the window accepts changes the oracle here too, in the same commit, with its reason.
 */
import { PERMISSIONS, PIN_STATUSES } from '../../../../shared/api-types.js';

type Guard = (value: unknown) => boolean;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const hasStrings = (value: Record<string, unknown>, keys: readonly string[]): boolean => keys.every((key) => typeof value[key] === 'string');
const hasNumbers = (value: Record<string, unknown>, keys: readonly string[]): boolean =>
  keys.every((key) => typeof value[key] === 'number' && Number.isFinite(value[key]));
const isRemoval = (value: unknown, key: string): boolean => isRecord(value) && value.removed === true && typeof value[key] === 'string';
const isStringArray = (value: unknown): boolean => Array.isArray(value) && value.every((entry) => typeof entry === 'string');

// account.ts
const USAGE_NUMBERS = [
  'next_bill_at',
  'pinned_count',
  'pinned_count_limit',
  'pinned_bytes',
  'pinned_bytes_limit',
  'ingress',
  'ingress_limit',
  'egress',
  'egress_limit',
  'ipns',
  'ipns_limit',
] as const;
export const isPartnerUserUsage: Guard = (value) => isRecord(value) && hasStrings(value, ['name', 'plan']) && hasNumbers(value, USAGE_NUMBERS);
export const isAccountUsage: Guard = (value) => isPartnerUserUsage(value);
const PLAN_NUMBERS = ['id', 'pinned_count_limit', 'pinned_bytes_limit', 'ingress_limit', 'egress_limit', 'ipns_limit'] as const;
export const isPlan: Guard = (value) => isRecord(value) && hasStrings(value, ['name', 'price']) && hasNumbers(value, PLAN_NUMBERS);
export const isDailyUsage: Guard = (value) =>
  isRecord(value) &&
  typeof value.day === 'string' &&
  /^\d{4}-\d{2}-\d{2}$/.test(value.day) &&
  hasNumbers(value, ['ingress', 'egress', 'pinned_bytes', 'pinned_count']);

// keys.ts
export const isPermission: Guard = (value) => typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
export const isAccessKeyListing: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['name', 'access_key']) && Array.isArray(value.permissions) && value.permissions.every(isPermission);
export const isNewAccessKey: Guard = (value) => isRecord(value) && hasStrings(value, ['access_key', 'access_secret', 'psa_token']);
export const isAccessKeyView: Guard = (value) =>
  isAccessKeyListing(value) && isRecord(value) && (value.session === false || (value.session === true && typeof value.expires_at === 'number'));

// names.ts
export const isIpnsRecordView: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['name', 'value', 'alias']) && hasNumbers(value, ['created_at', 'publish_at']) && typeof value.public === 'boolean';
export const isNameBinding: Guard = (value) => isRecord(value) && hasStrings(value, ['name', 'value']);

// partners.ts
export const isPartnerUserSummary: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['uuid', 'name', 'plan']) && hasNumbers(value, ['created_at', 'pinned_bytes', 'pinned_count']);

// pins.ts
export const isPinStatus: Guard = (value) => typeof value === 'string' && (PIN_STATUSES as readonly string[]).includes(value);
const isFetchProgress: Guard = (value) =>
  isRecord(value) && hasNumbers(value, ['blocks', 'bytes']) && (value.source === null || typeof value.source === 'string');
export const isPinRecord: Guard = (value) =>
  isRecord(value) &&
  hasStrings(value, ['name', 'cid']) &&
  isPinStatus(value.status) &&
  hasNumbers(value, ['size', 'created_at']) &&
  (value.fetch === undefined || isFetchProgress(value.fetch));

// service.ts
export const isGarbageCollection: Guard = (value) => isRecord(value) && hasNumbers(value, ['pins_removed', 'blocks_deleted']);
export const isServiceFacts: Guard = (value) =>
  isRecord(value) &&
  hasStrings(value, ['version', 'data_dir', 'url', 'cid_profile']) &&
  hasNumbers(value, ['gc_interval_seconds', 'gc_grace_seconds', 'started_at']) &&
  typeof value.public_gateway === 'boolean';
const isNetworkValues: Guard = (value) => {
  const urls = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return isRecord(value) && urls(value.fetch_from) && urls(value.routing) && typeof value.offline === 'boolean';
};
export const isNetworkSettingsView: Guard = (value) => {
  if (!isRecord(value) || !isNetworkValues(value) || !isNetworkValues(value.saved)) return false;
  const pinned = value.pinned;
  return isRecord(pinned) && ['fetch_from', 'routing', 'offline'].every((name) => typeof pinned[name] === 'boolean');
};

// session.ts
export const isSessionKey: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['access_key', 'access_secret', 'name']) && hasNumbers(value, ['expires_at']);
export const isSignInCode: Guard = (value) => isRecord(value) && hasStrings(value, ['code', 'url']) && hasNumbers(value, ['expires_at']);
export const isSessionsRevoked: Guard = (value) => isRecord(value) && hasNumbers(value, ['revoked']);

// uploads.ts
export const isUploadCancelOutcome: Guard = (value) =>
  isRecord(value) &&
  (value.outcome === 'cancelled' || value.outcome === 'stored' || value.outcome === 'unknown') &&
  Array.isArray(value.roots) &&
  value.roots.every((root) => typeof root === 'string');
export const isUploadSettings: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['account_uuid', 'cid_profile']) && typeof value.public_gateway === 'boolean';
export const isUploadAddress: Guard = (value) => isRecord(value) && typeof value.url === 'string' && value.url !== '';

// sync.ts
const SYNC_STATES: readonly string[] = ['scanning', 'syncing', 'idle', 'paused', 'error'];
export const isSyncState: Guard = (value) => typeof value === 'string' && SYNC_STATES.includes(value);
const isSyncLocalChange: Guard = (value) =>
  isRecord(value) &&
  hasStrings(value, ['path']) &&
  (value.change === 'modified' || value.change === 'added' || value.change === 'deleted') &&
  isStringArray(value.beside);
const isSyncConflict: Guard = (value) => isRecord(value) && hasStrings(value, ['value', 'source']) && hasNumbers(value, ['seq', 'seen_at']);
export const isSyncFolderView: Guard = (value) =>
  isRecord(value) &&
  hasStrings(value, ['id', 'path', 'root', 'ipns_name', 'error', 'current_file']) &&
  isSyncState(value.state) &&
  hasNumbers(value, ['files', 'bytes', 'pending', 'last_synced_at', 'files_done', 'bytes_done', 'bytes_pending', 'created_at', 'history_bytes']) &&
  Array.isArray(value.unreadable) &&
  value.unreadable.every((entry) => isRecord(entry) && hasStrings(entry, ['path', 'reason'])) &&
  isStringArray(value.ignore) &&
  typeof value.public === 'boolean' &&
  (value.conflict === null || isSyncConflict(value.conflict)) &&
  (value.mode === 'sync' || value.mode === 'follow') &&
  hasStrings(value, ['source']) &&
  isStringArray(value.from) &&
  hasNumbers(value, ['seq', 'checked_at']) &&
  Array.isArray(value.local_changes) &&
  value.local_changes.every(isSyncLocalChange);
export const isSyncDiscardResult: Guard = (value) =>
  isRecord(value) && hasNumbers(value, ['written', 'trashed']) && Array.isArray(value.local_changes) && value.local_changes.every(isSyncLocalChange);
const isSyncBatchView: Guard = (value) =>
  isRecord(value) && typeof value.root === 'string' && hasNumbers(value, ['finished_at', 'added', 'modified', 'removed', 'bytes']);
const isSyncErrorView: Guard = (value) => isRecord(value) && hasStrings(value, ['path', 'message']) && hasNumbers(value, ['at']);
export const isSyncFolderDetail: Guard = (value) =>
  isSyncFolderView(value) &&
  isRecord(value) &&
  (value.pinfoldignore === null || typeof value.pinfoldignore === 'string') &&
  typeof value.pinfoldignore_truncated === 'boolean' &&
  Array.isArray(value.batches) &&
  value.batches.every(isSyncBatchView) &&
  Array.isArray(value.errors) &&
  value.errors.every(isSyncErrorView) &&
  typeof value.retention === 'string';
export const isSyncVersion: Guard = (value) =>
  isRecord(value) && typeof value.root === 'string' && hasNumbers(value, ['created_at', 'added', 'modified', 'removed', 'bytes']);
export const isSyncVersionDiff: Guard = (value) =>
  isRecord(value) && isStringArray(value.added) && isStringArray(value.modified) && isStringArray(value.removed);
const ENTRY_KINDS: readonly string[] = ['file', 'dir', 'other'];
const isSyncVersionEntry: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['name', 'cid']) && typeof value.kind === 'string' && ENTRY_KINDS.includes(value.kind) && hasNumbers(value, ['size']);
export const isSyncVersionDirectory: Guard = (value) =>
  isRecord(value) && Array.isArray(value.entries) && value.entries.every(isSyncVersionEntry) && typeof value.truncated === 'boolean';
const isSyncRestoredEntry: Guard = (value) =>
  isRecord(value) &&
  hasStrings(value, ['path', 'local']) &&
  (value.kind === 'file' || value.kind === 'dir') &&
  typeof value.beside === 'boolean' &&
  typeof value.replaced === 'boolean';
export const isSyncRestoreResult: Guard = (value) =>
  isRecord(value) && Array.isArray(value.written) && value.written.every(isSyncRestoredEntry) && hasNumbers(value, ['unchanged']);
export const isRetentionAnswer: Guard = (value) => isRecord(value) && typeof value.keep === 'string';
export const isSyncAddResult: Guard = (value) =>
  isRecord(value) && hasStrings(value, ['id', 'path', 'root', 'ipns_name']) && (value.state === undefined || isSyncState(value.state));

// events/service-events.ts
export const EVENT_GUARDS = {
  usage: isAccountUsage,
  pin: (value: unknown) => isPinRecord(value) || isRemoval(value, 'cid'),
  name: (value: unknown) => isIpnsRecordView(value) || isRemoval(value, 'name'),
  key: (value: unknown) => isRecord(value) && typeof value.access_key === 'string' && (value.removed === undefined || value.removed === true),
  sync: (value: unknown) => isSyncFolderView(value) || isRemoval(value, 'id'),
  partner: (value: unknown) => isRecord(value) && typeof value.uuid === 'string',
};
