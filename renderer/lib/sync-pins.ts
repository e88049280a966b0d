/**
 * The pins a sync folder makes: the service pins each version's root under the name `sync <folder path>`
 * (main/sync/runner-context.ts), the absolute path of the folder on its machine. The Pins page shows such
 * a pin as the folder's name and the version's time ("notes · 28 Nov 00:34"), not a path cut short.
 */
import { folderName } from './sync-folders.js';

const SYNC_PIN_PREFIX = 'sync ';

/** An absolute path, POSIX ("/home/me/notes"), Windows ("C:\\notes") or UNC ("\\\\host\\share"). */
const ABSOLUTE_PATH = /^(\/|[A-Za-z]:[\\/]|\\\\)/;

/** The folder path a sync version pin's name carries, or null for any other pin. */
export function syncPinFolderPath(pinName: string): string | null {
  if (!pinName.startsWith(SYNC_PIN_PREFIX)) return null;
  const path = pinName.slice(SYNC_PIN_PREFIX.length);
  return ABSOLUTE_PATH.test(path) ? path : null;
}

const DAY_MONTH = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });
const DAY_MONTH_YEAR = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
const HOURS_MINUTES = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** A moment, short, in the user's time zone: "28 Nov 00:34", with the year when it is not this one. */
export function formatShortMoment(unixSeconds: number, nowMs: number): string {
  const date = new Date(unixSeconds * 1000);
  const day = date.getFullYear() === new Date(nowMs).getFullYear() ? DAY_MONTH.format(date) : DAY_MONTH_YEAR.format(date);
  return `${day} ${HOURS_MINUTES.format(date)}`;
}

/** "notes · 28 Nov 00:34" for a sync folder's version pin (its time is the pin's), null for any other pin. */
export function syncVersionLabel(pin: { name: string; created_at: number }, nowMs: number): string | null {
  const path = syncPinFolderPath(pin.name);
  return path === null ? null : `${folderName(path)} · ${formatShortMoment(pin.created_at, nowMs)}`;
}
