import type { AccountUsage, SyncFolderView } from '../../../shared/api-types.js';

/** A sync row as GET /api/v0/sync answers it: an idle, synced folder unless told otherwise. */
export function folderRow(overrides: Partial<SyncFolderView> & { id: string }): SyncFolderView {
  return {
    path: `/home/me/${overrides.id}`,
    root: 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    ipns_name: 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8',
    state: 'idle',
    files: 3,
    bytes: 1200,
    pending: 0,
    last_synced_at: 1_700_000_000,
    error: '',
    current_file: '',
    files_done: 0,
    bytes_done: 0,
    bytes_pending: 0,
    unreadable: [],
    ignore: [],
    created_at: 1_699_000_000,
    public: false,
    history_bytes: 0,
    conflict: null,
    mode: 'sync',
    source: '',
    from: [],
    seq: 0,
    checked_at: 0,
    local_changes: [],
    ...overrides,
  };
}

/** The owner's usage on a plan with the given limits (unlimited unless told). */
export function usage(overrides: Partial<AccountUsage> = {}): AccountUsage {
  const unlimited = Number.MAX_SAFE_INTEGER;
  return {
    name: 'owner',
    provider: 'local',
    email: '',
    email_verified: false,
    plan: 'Local',
    next_plan: 'Local',
    next_bill_at: 1_700_000_000,
    pinned_count: 4,
    pinned_count_limit: unlimited,
    pinned_bytes: 1000,
    pinned_bytes_limit: unlimited,
    ingress: 0,
    ingress_limit: unlimited,
    egress: 0,
    egress_limit: unlimited,
    ipns: 1,
    ipns_limit: unlimited,
    eth_addr: '',
    token_amount: '1000.00',
    ...overrides,
  };
}
