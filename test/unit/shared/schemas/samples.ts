/**
 * Good records of every answer the window checks, each with its optional parts present and its lists
 * not empty, so that the variants (variants.ts) reach every nested field.
 */
import type {
  AccessKeyListing,
  AccessKeyView,
  AccountUsage,
  DailyUsage,
  GarbageCollection,
  IpnsRecordView,
  NameBinding,
  NetworkSettingsView,
  NewAccessKey,
  PartnerUserSummary,
  PinRecord,
  Plan,
  ServiceFacts,
  SessionKey,
  SessionsRevoked,
  SignInCode,
  SyncAddResult,
  SyncDiscardResult,
  SyncFolderDetail,
  SyncFolderView,
  SyncRestoreResult,
  SyncRetention,
  SyncVersion,
  SyncVersionDiff,
  SyncVersionDirectory,
  UploadAddress,
  UploadCancelOutcome,
  UploadSettings,
} from '../../../../shared/api-types.js';

export const USAGE: AccountUsage = {
  name: 'owner',
  provider: 'local',
  email: 'owner@example.com',
  email_verified: false,
  eth_addr: '',
  token_amount: '1000.00',
  plan: 'Local',
  next_plan: 'Local',
  next_bill_at: 1767225600,
  pinned_count: 3,
  pinned_count_limit: 100,
  pinned_bytes: 2048,
  pinned_bytes_limit: 1024 ** 3,
  ingress: 4096,
  ingress_limit: 5 * 1024 ** 3,
  egress: 0,
  egress_limit: 5 * 1024 ** 3,
  ipns: 1,
  ipns_limit: 3,
};

export const PLAN: Plan = {
  id: 1,
  name: 'Free',
  price: '0.00',
  pinned_count_limit: 100,
  pinned_bytes_limit: 1024 ** 3,
  ingress_limit: 5 * 1024 ** 3,
  egress_limit: 5 * 1024 ** 3,
  ipns_limit: 3,
};

export const DAY: DailyUsage = { day: '2026-11-25', ingress: 10, egress: 20, pinned_bytes: 30, pinned_count: 1 };

export const LISTING: AccessKeyListing = { name: 'app', access_key: 'AKey4', permissions: ['read', 'write'] };
export const KEY: AccessKeyView = { name: 'ci', access_key: 'AKey1', permissions: ['read', 'pin'], session: false };
export const SESSION_KEY_ROW: AccessKeyView = {
  name: 'Browser session',
  access_key: 'AKey2',
  permissions: ['admin'],
  session: true,
  expires_at: 1_800_000_000,
};
export const NEW_KEY: NewAccessKey = { access_key: 'AKey3', access_secret: 'secret', psa_token: 'AKey3.secret' };

export const NAME: IpnsRecordView = { name: 'k51qzi5uqu5d', value: 'bafkreigh2akiscaildc', alias: 'site', created_at: 1, publish_at: 2, public: true };
export const BINDING: NameBinding = { name: 'k51qzi5uqu5d', value: 'bafkreigh2akiscaildc' };

export const PARTNER_USER: PartnerUserSummary = { uuid: 'u1', name: 'Ann', plan: 'Free', created_at: 1, pinned_bytes: 10, pinned_count: 1 };

export const PIN: PinRecord = { name: 'report', cid: 'bafkreigh2akiscaildc', status: 'pinned', size: 12, created_at: 1_700_000_000 };
export const FETCHING_PIN: PinRecord = {
  ...PIN,
  status: 'pinning',
  fetch: { blocks: 3, bytes: 4096, source: 'https://gateway.example' },
};

export const GC: GarbageCollection = { pins_removed: 1, blocks_deleted: 7 };
export const FACTS: ServiceFacts = {
  version: '0.1.0',
  data_dir: '/data',
  url: 'http://127.0.0.1:5080',
  gc_interval_seconds: 3600,
  gc_grace_seconds: 600,
  cid_profile: 'unixfs-v1-2025',
  public_gateway: false,
  started_at: 1,
  gc_leader: true,
};
export const NETWORK: NetworkSettingsView = {
  fetch_from: ['https://gateway.example'],
  routing: ['https://routing.example'],
  offline: false,
  saved: { fetch_from: ['https://gateway.example'], routing: ['https://routing.example'], offline: true },
  pinned: { fetch_from: false, routing: true, offline: false },
};

export const SESSION_KEY: SessionKey = { access_key: 'k', access_secret: 's', expires_at: 9, name: 'Browser session 2026-11-25 14:03 UTC' };
export const SIGN_IN_CODE: SignInCode = { code: 'c0de', url: 'http://127.0.0.1:5080/signin?code=c0de', expires_at: 9 };
export const REVOKED: SessionsRevoked = { revoked: 2 };

export const UPLOAD_SETTINGS: UploadSettings = { account_uuid: 'a1', cid_profile: 'unixfs-v1-2025', public_gateway: false };
export const UPLOAD_ADDRESS: UploadAddress = { url: 'http://127.0.0.1:5080/ipfs/?sargs=a&ssig=b' };
export const CANCELLED: UploadCancelOutcome = { outcome: 'stored', roots: ['bafkreigh2akiscaildc'] };

export const FOLDER: SyncFolderView = {
  id: 'f1',
  path: '/home/me/site',
  root: 'bafy',
  ipns_name: 'k51',
  state: 'idle',
  files: 3,
  bytes: 9,
  pending: 0,
  last_synced_at: 5,
  error: '',
  current_file: '',
  files_done: 0,
  bytes_done: 0,
  bytes_pending: 0,
  unreadable: [{ path: 'secret.txt', reason: 'permission denied' }],
  ignore: ['*.log'],
  created_at: 4,
  public: false,
  history_bytes: 0,
  conflict: { seq: 4, value: 'bafyother', seen_at: 6, source: 'https://routing.example' },
  mode: 'follow',
  source: '/ipns/k51',
  from: ['https://gateway.example'],
  seq: 3,
  checked_at: 6,
  local_changes: [{ path: 'a.txt', change: 'modified', beside: ['a (from k51, 2026-11-25 1403).txt'] }],
};
export const FOLDER_DETAIL: SyncFolderDetail = {
  ...FOLDER,
  pinfoldignore: '*.tmp\n',
  pinfoldignore_truncated: false,
  batches: [{ root: 'bafy', finished_at: 5, added: 1, modified: 0, removed: 0, bytes: 9 }],
  errors: [{ at: 5, path: 'b.txt', message: 'vanished' }],
  retention: '24h:all,30d:1d',
};
export const ADDED: SyncAddResult = { id: 'f1', path: '/home/me/site', root: '', ipns_name: '', state: 'scanning' };
export const DISCARDED: SyncDiscardResult = { written: 2, trashed: 1, local_changes: [{ path: 'b.txt', change: 'added', beside: [] }] };
export const RETENTION: SyncRetention = { keep: 'all' };

export const VERSION: SyncVersion = { root: 'bafyold', created_at: 5, added: 1, modified: 2, removed: 0, bytes: 90 };
export const DIFF: SyncVersionDiff = { added: ['b.txt'], modified: ['a.txt'], removed: ['docs/'] };
export const DIRECTORY: SyncVersionDirectory = { entries: [{ name: 'a.txt', kind: 'file', size: 3, cid: 'bafka' }], truncated: false };
export const RESTORED: SyncRestoreResult = {
  written: [{ path: 'docs/a.txt', local: '/home/me/site/docs/a (restored 2026-11-25 1403).txt', kind: 'file', beside: true, replaced: false }],
  unchanged: 0,
};
