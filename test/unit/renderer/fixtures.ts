/** Shared records for the renderer's unit tests. */
import type { AccountUsage } from '../../../shared/api-types.js';

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
