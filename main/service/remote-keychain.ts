import type { KeychainEntryFactory } from '../secrets/keychain-entry.js';
import type { KeychainOp } from './messages.js';
import type { ParentChannel } from './parent-channel.js';

/**
 * The keychain of the parent process, for the desktop's service process: the main process holds the OS
 * keychain (on macOS its items belong to the app itself, and a helper process reading them would make
 * the system ask the user), so the service asks it item by item. The same secrets logic then runs in
 * the service as under `pinfold serve --keychain`.
 */
export function remoteKeychain(channel: ParentChannel, deadlineMs = 120_000): KeychainEntryFactory {
  let nextId = 0;
  const pending = new Map<number, { resolve(value: string | boolean | null): void; reject(error: Error): void }>();
  channel.onMessage((message) => {
    if (message.type !== 'keychain-result') return;
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(new Error(message.message));
  });
  const ask = (op: KeychainOp, service: string, account: string, value?: string): Promise<string | boolean | null> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      // A keychain may wait for the user to unlock it, but not forever.
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the desktop app did not answer a keychain request within ${deadlineMs / 1000} s`));
      }, deadlineMs);
      pending.set(id, {
        resolve: (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      channel.send({ type: 'keychain', id, op, service, account, ...(value !== undefined ? { value } : {}) }).catch((error: unknown) => {
        pending.get(id)?.reject(error instanceof Error ? error : new Error(String(error)));
        pending.delete(id);
      });
    });
  };
  return (service, account) => ({
    async getPassword() {
      const value = await ask('get', service, account);
      if (value !== null && typeof value !== 'string') throw new Error('the desktop app answered a keychain read with no text');
      return value;
    },
    async setPassword(password) {
      await ask('set', service, account, password);
    },
    async deletePassword() {
      return (await ask('delete', service, account)) === true;
    },
  });
}
