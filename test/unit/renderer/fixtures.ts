/** Shared records for the renderer's unit tests. */
import type { AccountUsage, SyncFolderDetail, SyncFolderView, SyncVersion } from '../../../shared/api-types.js';

const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The owner's stats on the unlimited Local plan. */
export const USAGE: AccountUsage = {
  name: 'owner',
  provider: 'local',
  email: '',
  email_verified: false,
  eth_addr: '',
  token_amount: '1000.00',
  plan: 'Local',
  next_plan: 'Local',
  next_bill_at: 1767225600,
  pinned_count: 3,
  pinned_count_limit: UNLIMITED,
  pinned_bytes: 2048,
  pinned_bytes_limit: UNLIMITED,
  ingress: 4096,
  ingress_limit: UNLIMITED,
  egress: 0,
  egress_limit: UNLIMITED,
  ipns: 1,
  ipns_limit: UNLIMITED,
};

/** A sync folder (mode `sync`) that is up to date, published under its IPNS name, with nothing wrong. */
export const SYNC_FOLDER: SyncFolderView = {
  id: 'f1',
  path: '/home/me/site',
  root: 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
  ipns_name: 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8',
  state: 'idle',
  files: 3,
  bytes: 2048,
  pending: 0,
  last_synced_at: 1_700_000_000,
  error: '',
  current_file: '',
  files_done: 0,
  bytes_done: 0,
  bytes_pending: 0,
  unreadable: [],
  ignore: ['*.log'],
  created_at: 1_700_000_000,
  public: false,
  history_bytes: 0,
  conflict: null,
  mode: 'sync',
  source: '',
  from: [],
  seq: 0,
  checked_at: 0,
  local_changes: [],
};

/** What the folder's page asks for: the row and what its page shows beside it. */
export const SYNC_FOLDER_DETAIL: SyncFolderDetail = {
  ...SYNC_FOLDER,
  pinfoldignore: null,
  pinfoldignore_truncated: false,
  batches: [],
  errors: [],
  retention: '24h:all,30d:1d,1y:1w',
};

/** The folder's current version (its root), the one version kept. */
export const SYNC_VERSION: SyncVersion = { root: SYNC_FOLDER.root, created_at: 1_700_000_000, added: 3, modified: 0, removed: 0, bytes: 2048 };
