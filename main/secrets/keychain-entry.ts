import { AsyncEntry } from '@napi-rs/keyring';

/** The service name every Pinfold keychain item is filed under. */
export const KEYCHAIN_SERVICE = 'Pinfold';

/** One keychain item (service + account): the narrow part of @napi-rs/keyring Pinfold uses. */
export interface KeychainEntry {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}

export type KeychainEntryFactory = (service: string, account: string) => KeychainEntry;

/** A keychain and the service name Pinfold files its items under there. */
export interface KeychainAccess {
  service: string;
  entry: KeychainEntryFactory;
}

/**
 * The service name for new keychain items: `Pinfold`, or `PINFOLD_KEYCHAIN_SERVICE` (tests and a second
 * installation keep their items apart with it). A data folder records the service its items are under,
 * so changing this later never loses a folder's key.
 */
export function keychainService(env: NodeJS.ProcessEnv = process.env): string {
  const name = env.PINFOLD_KEYCHAIN_SERVICE;
  return name !== undefined && name !== '' ? name : KEYCHAIN_SERVICE;
}

/**
 * Items in the OS keychain: macOS Keychain, Windows Credential Manager, the Secret Service (GNOME
 * Keyring, KWallet) on Linux. On Linux the entry is pinned to the Secret Service: the library's
 * fallback, the kernel keyring, forgets everything at reboot, which would lose the master key and
 * with it every encrypted secret. Failing loudly is better than that.
 */
export const osKeychainEntry: KeychainEntryFactory = (service, account) => {
  // Created per call: the library throws at construction when there is no keychain, and that must
  // surface as a rejected promise of the operation, with a message that says what is missing.
  const entry = () => new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
  const run = async <T>(operation: (item: AsyncEntry) => Promise<T>): Promise<T> => {
    try {
      return await operation(entry());
    } catch (error) {
      throw new KeychainUnavailableError(service, error);
    }
  };
  return {
    getPassword: () => run((item) => item.getPassword()),
    setPassword: (password) => run((item) => item.setPassword(password)),
    deletePassword: () => run((item) => item.deletePassword()),
  };
};

export class KeychainUnavailableError extends Error {
  override readonly name = 'KeychainUnavailableError';
  constructor(service: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    const where = process.platform === 'linux' ? 'the Secret Service (GNOME Keyring or KWallet, over D-Bus)' : 'the OS keychain';
    // A locked keychain asks for its password through a prompt; without a desktop session the prompt is dismissed.
    const hint = /locked|prompt|dismissed/i.test(detail)
      ? ' (the keychain is locked: unlock it, e.g. by logging in to the desktop session, and try again)'
      : '';
    super(`Pinfold keeps its keys in ${where}, which did not answer for service "${service}": ${detail}${hint}`, { cause });
  }
}
