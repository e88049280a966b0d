/**
 * Which page each URL shows. Each page is its own chunk (the first paint carries only the shell and
 * the page asked for); preloadPages() fetches the others once the window is idle. A page module exports
 * one component, named `<Area>Page`.
 */
import { lazyPage } from './lazy-page.js';

const overview = lazyPage(() => import('../pages/overview/overview-page.js').then((m) => m.OverviewPage));
const files = lazyPage(() => import('../pages/files/files-page.js').then((m) => m.FilesPage));
const pins = lazyPage(() => import('../pages/pins/pins-page.js').then((m) => m.PinsPage));
const names = lazyPage(() => import('../pages/names/names-page.js').then((m) => m.NamesPage));
const keys = lazyPage(() => import('../pages/keys/keys-page.js').then((m) => m.KeysPage));
const sync = lazyPage(() => import('../pages/sync/sync-page.js').then((m) => m.SyncPage));
const syncFolder = lazyPage(() => import('../pages/sync/sync-folder-page.js').then((m) => m.SyncFolderPage));
const partners = lazyPage(() => import('../pages/partners/partners-page.js').then((m) => m.PartnersPage));
const settings = lazyPage(() => import('../pages/settings/settings-page.js').then((m) => m.SettingsPage));
const view = lazyPage(() => import('../pages/view/view-page.js').then((m) => m.ViewPage));

export const OverviewPage = overview.Component;
export const FilesPage = files.Component;
export const PinsPage = pins.Component;
export const NamesPage = names.Component;
export const KeysPage = keys.Component;
export const SyncPage = sync.Component;
export const SyncFolderPage = syncFolder.Component;
export const PartnersPage = partners.Component;
export const SettingsPage = settings.Component;
export const ViewPage = view.Component;

export function preloadPages(): void {
  for (const page of [overview, files, pins, names, keys, sync, syncFolder, partners, settings, view]) page.preload();
}
