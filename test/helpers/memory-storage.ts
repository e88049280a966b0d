import type { KeyValueStorage } from '../../renderer/api/credentials.js';

/** The window's localStorage as the renderer sees it (KeyValueStorage), in a Map the test can read. */
export function memoryStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
    removeItem: (key) => void entries.delete(key),
  };
}
