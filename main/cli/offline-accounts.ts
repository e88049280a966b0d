import type { AccountsContext } from '../accounts/context.js';
import { createKeyCache } from '../accounts/key-cache.js';
import { loadPlanCatalog } from '../accounts/plans.js';
import { systemClock } from '../base/clock.js';
import type { SealedBox } from '../base/sealed-box.js';
import type { Store } from '../store/repositories/index.js';

/**
 * The accounts of a data folder for a command that runs without a server and handles no secrets
 * (`pinfold account`, `pinfold gc` in process): it never touches the master key, which may live in the
 * desktop's keychain. `purpose` names the command in the error a stray seal or open would throw.
 */
export function offlineAccounts(dataDir: string, store: Store, purpose: string): AccountsContext {
  const noSecrets: SealedBox = {
    seal: () => {
      throw new Error(`${purpose} handles no secrets`);
    },
    open: () => {
      throw new Error(`${purpose} handles no secrets`);
    },
  };
  return { store, plans: loadPlanCatalog(dataDir), box: noSecrets, clock: systemClock, keyCache: createKeyCache() };
}
