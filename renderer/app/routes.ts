/**
 * The window's pages and their URLs (api12 section 1: the service answers index.html at each of them).
 * Pure, so the navigation order and the deep-link rules are unit-tested.
 */
import type { KeyValueStorage } from '../api/credentials.js';

/** The navigation's icons (names in components/icons.tsx; kept apart so this file has no JSX). */
export type NavIcon = 'overview' | 'files' | 'pins' | 'names' | 'keys' | 'sync' | 'partners' | 'settings';

export interface NavItem {
  path: string;
  /** The link's name in the navigation, exactly (tests and users rely on it). */
  label: string;
  icon: NavIcon;
  /** Shown only to partner accounts. */
  partnerOnly?: boolean;
}

/** The left navigation, in this order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { path: '/overview', label: 'Overview', icon: 'overview' },
  { path: '/files', label: 'Files', icon: 'files' },
  { path: '/pins', label: 'Pins', icon: 'pins' },
  { path: '/names', label: 'Names', icon: 'names' },
  { path: '/keys', label: 'Keys', icon: 'keys' },
  { path: '/sync', label: 'Sync', icon: 'sync' },
  { path: '/partners', label: 'Partners', icon: 'partners', partnerOnly: true },
  { path: '/settings', label: 'Settings', icon: 'settings' },
];

export function navItemsFor(isPartner: boolean): NavItem[] {
  return NAV_ITEMS.filter((item) => isPartner || !item.partnerOnly);
}

export const SIGN_IN_PATH = '/signin';
export const HOME_PATH = '/overview';
/** One piece of content shown inside the window (`/view?path=/ipfs/…`); not in the navigation. */
export const VIEW_PATH = '/view';

/** Every URL the app answers (the service serves index.html at the same ones). */
export const APP_PATH_PATTERNS: readonly string[] = [SIGN_IN_PATH, ...NAV_ITEMS.map((item) => item.path), '/sync/:id', VIEW_PATH];

const APP_PATHS = new RegExp(`^(?:${APP_PATH_PATTERNS.map((pattern) => pattern.replace(/:\w+/g, '[^/?#]+')).join('|')})/?(?:[?#].*)?$`, 'i');

/** A path (with its query) that the app can show after sign-in; nothing that leaves the app. */
export function isReturnTarget(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && APP_PATHS.test(path) && !/^\/signin(?:[/?#]|$)/i.test(path);
}

/** Which navigation item a path belongs to (`/sync/abc` → Sync), for aria-current. */
export function navItemFor(path: string): NavItem | undefined {
  const lower = path.toLowerCase().replace(/\/+$/, '');
  return NAV_ITEMS.find((item) => lower === item.path || lower.startsWith(`${item.path}/`));
}

const RETURN_KEY = 'pinfold.return-to';

/** Where to go after signing in: remembered in this tab when sign-in interrupts a deep link. */
export function rememberReturnTarget(storage: KeyValueStorage, path: string): void {
  if (isReturnTarget(path)) storage.setItem(RETURN_KEY, path);
}

export function takeReturnTarget(storage: KeyValueStorage): string {
  const path = storage.getItem(RETURN_KEY);
  storage.removeItem(RETURN_KEY);
  return path !== null && isReturnTarget(path) ? path : HOME_PATH;
}
