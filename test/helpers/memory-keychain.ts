import type { KeychainEntry, KeychainEntryFactory } from '../../main/secrets/keychain-entry.js';

/**
 * An in-memory keychain with the OS one's item addressing (service + account), for unit tests. `locked`
 * makes every read of an existing item and every write fail the way a locked Secret Service does (a
 * dismissed unlock prompt); a missing item still reads as null, as there.
 */
export function memoryKeychain() {
  const items = new Map<string, string>();
  const state = { locked: false, calls: 0 };
  const refuse = () => new Error("Couldn't access platform storage: Secret Service: unlock prompt was dismissed");
  const factory: KeychainEntryFactory = (service, account): KeychainEntry => {
    const id = `${service}\u0000${account}`;
    return {
      getPassword: async () => {
        state.calls++;
        if (state.locked && items.has(id)) throw refuse();
        return items.get(id) ?? null;
      },
      setPassword: async (password) => {
        state.calls++;
        if (state.locked) throw refuse();
        items.set(id, password);
      },
      deletePassword: async () => {
        state.calls++;
        if (state.locked) throw refuse();
        return items.delete(id);
      },
    };
  };
  /** The item names under one service, sorted. */
  const accounts = (service: string): string[] =>
    [...items.keys()]
      .filter((id) => id.startsWith(`${service}\u0000`))
      .map((id) => id.slice(service.length + 1))
      .sort();
  return { items, state, factory, accounts };
}
