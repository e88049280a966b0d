/**
 * Which page each URL shows. Each page is its own lazily loaded chunk, so the first paint carries only
 * the shell and the page asked for. A page module exports one component, named `<Area>Page`.
 */
import { lazy } from 'react';

export const OverviewPage = lazy(() => import('../pages/overview/overview-page.js').then((m) => ({ default: m.OverviewPage })));
export const FilesPage = lazy(() => import('../pages/files/files-page.js').then((m) => ({ default: m.FilesPage })));
export const PinsPage = lazy(() => import('../pages/pins/pins-page.js').then((m) => ({ default: m.PinsPage })));
export const NamesPage = lazy(() => import('../pages/names/names-page.js').then((m) => ({ default: m.NamesPage })));
export const KeysPage = lazy(() => import('../pages/keys/keys-page.js').then((m) => ({ default: m.KeysPage })));
export const SyncPage = lazy(() => import('../pages/sync/sync-page.js').then((m) => ({ default: m.SyncPage })));
export const SyncFolderPage = lazy(() => import('../pages/sync/sync-folder-page.js').then((m) => ({ default: m.SyncFolderPage })));
export const PartnersPage = lazy(() => import('../pages/partners/partners-page.js').then((m) => ({ default: m.PartnersPage })));
export const SettingsPage = lazy(() => import('../pages/settings/settings-page.js').then((m) => ({ default: m.SettingsPage })));
