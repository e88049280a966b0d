/**
 * The signed-in account as the shell shows it (name and plan in the header, the Partners link and page):
 * read from the request cache, which `event: usage` keeps current (renderer/data/account.ts). Every
 * caller shares the one load.
 */
import { useCallback } from 'react';
import type { AccountUsage } from '../../shared/api-types.js';
import { useAccountUsage, useIsPartner } from '../data/account.js';

export interface AccountInfo {
  usage: AccountUsage | undefined;
  /** A partner account (the owner is one) sees the Partners page; undefined until known. */
  isPartner: boolean | undefined;
  loading: boolean;
  /** The service did not answer; the banner says so. */
  waiting: boolean;
  error: string | null;
  reload: () => void;
}

export function useAccount(): AccountInfo {
  const usage = useAccountUsage();
  const partner = useIsPartner();
  const { reload: reloadUsage } = usage;
  const { reload: reloadPartner } = partner;
  const reload = useCallback(() => {
    reloadUsage();
    reloadPartner();
  }, [reloadUsage, reloadPartner]);
  return {
    usage: usage.data,
    isPartner: partner.data,
    loading: usage.loading || partner.loading,
    waiting: usage.waiting || partner.waiting,
    error: usage.error,
    reload,
  };
}
