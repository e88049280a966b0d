/**
 * The Files page's list of recent uploads, as it is kept in localStorage: per account, newest first, at
 * most RECENT_UPLOADS_LIMIT entries, and nothing secret (names, CIDs, sizes, times, pin states). Pure: the
 * page reads and writes the storage; this turns the stored text into entries and back, dropping anything
 * it does not recognise (another version's entries, a hand-edited value) rather than failing.
 */
import { PIN_STATUSES, type PinStatus } from '../../shared/api-types.js';
import type { UploadKind } from './upload-queue.js';

export const RECENT_UPLOADS_LIMIT = 50;

/** `unpinned`: uploaded but not pinned (garbage collection may take it after its grace period). */
export type RecentPinStatus = PinStatus | 'unpinned';

export interface RecentUpload {
  cid: string;
  /** The file's or folder's name as it was dropped. */
  name: string;
  kind: UploadKind;
  /** Bytes of content. */
  size: number;
  /** Files in it (1 for a file). */
  files: number;
  /** Unix seconds. */
  uploadedAt: number;
  pinStatus: RecentPinStatus;
}

/** The localStorage key of one account's list (localStorage is per origin, so per service too). */
export function recentUploadsKey(accountUuid: string): string {
  return `pinfold.recent-uploads.v1.${accountUuid}`;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

function isRecentPinStatus(value: unknown): value is RecentPinStatus {
  return value === 'unpinned' || (PIN_STATUSES as readonly unknown[]).includes(value);
}

function isRecentUpload(value: unknown): value is RecentUpload {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    typeof entry.cid === 'string' &&
    entry.cid !== '' &&
    typeof entry.name === 'string' &&
    (entry.kind === 'file' || entry.kind === 'folder') &&
    isCount(entry.size) &&
    isCount(entry.files) &&
    isCount(entry.uploadedAt) &&
    isRecentPinStatus(entry.pinStatus)
  );
}

/** The stored list; an absent, unreadable or foreign value is an empty list, and unknown entries are dropped. */
export function parseRecentUploads(text: string | null): RecentUpload[] {
  if (text === null) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const seen = new Set<string>();
  const entries: RecentUpload[] = [];
  for (const value of parsed) {
    if (!isRecentUpload(value) || seen.has(value.cid)) continue;
    seen.add(value.cid);
    const { cid, name, kind, size, files, uploadedAt, pinStatus } = value;
    entries.push({ cid, name, kind, size, files, uploadedAt, pinStatus });
    if (entries.length === RECENT_UPLOADS_LIMIT) break;
  }
  return entries;
}

export function serializeRecentUploads(entries: readonly RecentUpload[]): string {
  return JSON.stringify(entries.slice(0, RECENT_UPLOADS_LIMIT));
}

/** Adds an upload at the top; the same CID uploaded again moves up with its new name and time. */
export function addRecentUpload(entries: readonly RecentUpload[], entry: RecentUpload): RecentUpload[] {
  return [entry, ...entries.filter((existing) => existing.cid !== entry.cid)].slice(0, RECENT_UPLOADS_LIMIT);
}

export function removeRecentUpload(entries: readonly RecentUpload[], cid: string): RecentUpload[] {
  return entries.filter((entry) => entry.cid !== cid);
}

/** The pin state of an upload changed (the service said so); the same list when nothing changed. */
export function withPinStatus(entries: readonly RecentUpload[], cid: string, pinStatus: RecentPinStatus): readonly RecentUpload[] {
  if (!entries.some((entry) => entry.cid === cid && entry.pinStatus !== pinStatus)) return entries;
  return entries.map((entry) => (entry.cid === cid ? { ...entry, pinStatus } : entry));
}
