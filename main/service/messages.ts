/**
 * What the service process and its parent (the desktop's main process, or a test) say to each other.
 * Both ends check every message they receive against these shapes: a process boundary is a trust
 * boundary like any other, and a malformed message is dropped, never acted on.
 */

/** The keychain operations the service asks its parent for (the parent holds the OS keychain). */
export type KeychainOp = 'get' | 'set' | 'delete';

export type ServiceToParent =
  /** Listening: the one URL clients reach the service at (as server.json and the listening line say). */
  | { type: 'ready'; url: string }
  /** The service could not start and will exit: starting it again would fail the same way (a wrong key, a port in use). */
  | { type: 'fatal'; message: string }
  /**
   * What the desktop app applies of the settings (settings.json's `desktop` section): sent once the service
   * is ready and after every change (null: launch at login was never chosen, the app leaves it as it is).
   */
  | { type: 'desktop-settings'; launchAtLogin: boolean | null }
  | { type: 'keychain'; id: number; op: KeychainOp; service: string; account: string; value?: string };

export type ParentToService =
  /** Stop cleanly: close the app (every write settled, the database closed, the lock released), then exit 0. */
  | { type: 'stop' }
  | { type: 'keychain-result'; id: number; ok: true; value: string | boolean | null }
  | { type: 'keychain-result'; id: number; ok: false; message: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
const shortString = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

export function parseServiceMessage(message: unknown): ServiceToParent | null {
  if (!isRecord(message)) return null;
  switch (message.type) {
    case 'ready':
      return typeof message.url === 'string' && /^http:\/\/[^/\s]+$/.test(message.url) ? { type: 'ready', url: message.url } : null;
    case 'fatal':
      return shortString(message.message, 8192) ? { type: 'fatal', message: message.message } : null;
    case 'desktop-settings': {
      const { launchAtLogin } = message;
      return launchAtLogin === null || typeof launchAtLogin === 'boolean' ? { type: 'desktop-settings', launchAtLogin } : null;
    }
    case 'keychain': {
      const { id, op, service, account, value } = message;
      if (!isId(id) || (op !== 'get' && op !== 'set' && op !== 'delete') || !shortString(service, 128) || !shortString(account, 256)) return null;
      if (op === 'set' && !shortString(value, 65536)) return null;
      return { type: 'keychain', id, op, service, account, ...(op === 'set' ? { value: value as string } : {}) };
    }
    default:
      return null;
  }
}

export function parseParentMessage(message: unknown): ParentToService | null {
  if (!isRecord(message)) return null;
  if (message.type === 'stop') return { type: 'stop' };
  if (message.type !== 'keychain-result' || !isId(message.id)) return null;
  if (message.ok === true) {
    const { value } = message;
    return value === null || typeof value === 'boolean' || shortString(value, 65536) ? { type: 'keychain-result', id: message.id, ok: true, value } : null;
  }
  return message.ok === false && shortString(message.message, 8192) ? { type: 'keychain-result', id: message.id, ok: false, message: message.message } : null;
}
