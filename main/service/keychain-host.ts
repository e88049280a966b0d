import type { KeychainAccess } from '../secrets/keychain-entry.js';
import type { ParentToService, ServiceToParent } from './messages.js';

/** Pinfold's own items only: a data folder's master key and owner key, namespaced or from before namespaces. */
const PINFOLD_ITEM = /^(folder-[0-9a-f-]{36}\/)?(secret:[a-z0-9-]{1,64}|owner-key)$/;

/**
 * The parent's side of the remote keychain: answers one request of the service process against the OS
 * keychain. It serves Pinfold's items under Pinfold's service name and nothing else, so a service
 * process that misbehaved could not use the parent to read another program's keychain items.
 */
export async function answerKeychainRequest(request: Extract<ServiceToParent, { type: 'keychain' }>, keychain: KeychainAccess): Promise<ParentToService> {
  const { id, op, service, account } = request;
  if (service !== keychain.service || !PINFOLD_ITEM.test(account))
    return { type: 'keychain-result', id, ok: false, message: `keychain item "${account}" of service "${service}" is not one of Pinfold's` };
  try {
    const entry = keychain.entry(service, account);
    if (op === 'get') return { type: 'keychain-result', id, ok: true, value: await entry.getPassword() };
    if (op === 'delete') return { type: 'keychain-result', id, ok: true, value: await entry.deletePassword() };
    if (request.value === undefined) return { type: 'keychain-result', id, ok: false, message: 'a keychain write needs a value' };
    await entry.setPassword(request.value);
    return { type: 'keychain-result', id, ok: true, value: null };
  } catch (error) {
    return { type: 'keychain-result', id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
