import { useCallback, useSyncExternalStore } from 'react';
import { parseRecentUploads, recentUploadsKey, serializeRecentUploads, type RecentUpload } from '../../lib/recent-uploads.js';

export interface RecentUploads {
  /** Newest first; empty until the account is known. */
  entries: readonly RecentUpload[];
  change: (update: (entries: readonly RecentUpload[]) => readonly RecentUpload[]) => void;
}

const EMPTY: readonly RecentUpload[] = [];
/** The last text read for each key and what it parsed to, so a snapshot is the same array until the text changes. */
const parsed = new Map<string, { text: string | null; entries: readonly RecentUpload[] }>();
/** Listeners in this window (the `storage` event tells of the other windows' writes only). */
const listeners = new Set<() => void>();

function read(key: string): readonly RecentUpload[] {
  let text: string | null = null;
  try {
    text = localStorage.getItem(key);
  } catch {
    // Storage blocked: the list lives as long as the page.
  }
  const cached = parsed.get(key);
  if (cached && cached.text === text) return cached.entries;
  const entries = parseRecentUploads(text);
  parsed.set(key, { text, entries });
  return entries;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

/**
 * This account's recent uploads, kept in localStorage (see lib/recent-uploads.ts), shared live by every
 * tab of the window on this service.
 */
export function useRecentUploads(accountUuid: string | null): RecentUploads {
  const key = accountUuid === null ? null : recentUploadsKey(accountUuid);
  const entries = useSyncExternalStore(subscribe, () => (key === null ? EMPTY : read(key)));
  const change = useCallback(
    (update: (entries: readonly RecentUpload[]) => readonly RecentUpload[]) => {
      if (key === null) return;
      const current = read(key);
      const next = update(current);
      if (next === current) return;
      const text = serializeRecentUploads(next);
      try {
        localStorage.setItem(key, text);
      } catch {
        // Full or blocked: kept for this page only.
      }
      parsed.set(key, { text: readBack(key, text), entries: next });
      for (const listener of [...listeners]) listener();
    },
    [key],
  );
  return { entries, change };
}

/** What a later read will find: the text written, or (storage refused it) whatever is there. */
function readBack(key: string, written: string): string | null {
  try {
    return localStorage.getItem(key) ?? written;
  } catch {
    return written;
  }
}
