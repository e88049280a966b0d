/**
 * The signed-in account as the shell shows it (name and plan in the header, the Partners link) and the
 * Overview reads it (usage against limits): loaded once, kept current by `event: usage`.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { AccountUsage } from '../../shared/api-types.js';
import { useEvent } from '../events/events-provider.js';
import { useResource } from './hooks/use-resource.js';
import { useApi } from './session.js';

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

const AccountContext = createContext<AccountInfo | null>(null);

export function AccountProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const account = useResource(
    async (signal) => {
      const [usage, isPartner] = await Promise.all([
        api.account.stats(signal),
        // Partner-ness only decides whether a link shows: a failed probe hides it rather than failing the window.
        api.partners.isPartner(signal).catch(() => false),
      ]);
      return { usage, isPartner };
    },
    [api],
  );
  useEvent('usage', (usage) => account.update((current) => ({ usage, isPartner: current?.isPartner ?? false })));

  const info = useMemo<AccountInfo>(
    () => ({
      usage: account.data?.usage,
      isPartner: account.data?.isPartner,
      loading: account.loading,
      waiting: account.waiting,
      error: account.error,
      reload: account.reload,
    }),
    [account.data, account.loading, account.waiting, account.error, account.reload],
  );
  return <AccountContext.Provider value={info}>{children}</AccountContext.Provider>;
}

export function useAccount(): AccountInfo {
  const info = useContext(AccountContext);
  if (!info) throw new Error('useAccount() outside <AccountProvider>');
  return info;
}
