import { is } from 'valibot';
import type { GarbageCollection, ServiceFacts, SettingsChange, SettingsView } from '../../shared/api-types.js';
import { GarbageCollectionSchema, ServiceFactsSchema } from '../../shared/schemas/service.js';
import { SettingsViewSchema } from '../../shared/schemas/settings.js';
import type { ApiCore } from './core.js';

export type { GarbageCollection };

/** The service itself: owner account's admin keys only (others get 403). */
export interface ServiceApi {
  /** GET /api/v0/service: version, data folder, listening URL, GC settings. */
  facts(signal?: AbortSignal): Promise<ServiceFacts>;
  /** POST /api/v0/repo/gc: one garbage-collection cycle now. */
  collectGarbage(signal?: AbortSignal): Promise<GarbageCollection>;
  /** GET /api/v0/settings: every setting of settings.json, in use, saved, what pins it, what waits for a restart. */
  settings(signal?: AbortSignal): Promise<SettingsView>;
  /** POST /api/v0/settings: saves a change; a bad value is a 400 naming the setting as `param`, and changes nothing. */
  saveSettings(change: SettingsChange, signal?: AbortSignal): Promise<SettingsView>;
}

export function serviceApi(core: ApiCore): ServiceApi {
  return {
    facts: (signal) => core.data({ path: '/api/v0/service', signal }, isServiceFacts, 'the service facts'),
    collectGarbage: (signal) => core.data({ method: 'POST', path: '/api/v0/repo/gc', signal }, isGarbageCollection, 'the garbage collection result'),
    settings: (signal) => core.data({ path: '/api/v0/settings', signal }, isSettingsView, 'the settings'),
    saveSettings: (change, signal) => core.data({ method: 'POST', path: '/api/v0/settings', body: change, signal }, isSettingsView, 'the settings'),
  };
}

export const isGarbageCollection = (value: unknown): value is GarbageCollection => is(GarbageCollectionSchema, value);
export const isServiceFacts = (value: unknown): value is ServiceFacts => is(ServiceFactsSchema, value);
export const isSettingsView = (value: unknown): value is SettingsView => is(SettingsViewSchema, value);
