import type { NetworkSettingsValues, NetworkSettingsView, ServiceFacts } from '../../shared/api-types.js';
import type { ApiCore } from './core.js';
import { hasNumbers, hasStrings, isRecord } from './shape.js';

/** What POST /api/v0/repo/gc answers: what one collection cycle removed. */
export interface GarbageCollection {
  pins_removed: number;
  blocks_deleted: number;
}

/** The service itself: owner account's admin keys only (others get 403). */
export interface ServiceApi {
  /** GET /api/v0/service: version, data folder, listening URL, GC settings. */
  facts(signal?: AbortSignal): Promise<ServiceFacts>;
  /** POST /api/v0/repo/gc: one garbage-collection cycle now. */
  collectGarbage(signal?: AbortSignal): Promise<GarbageCollection>;
  /** GET /api/v0/settings/network: where the service reaches the IPFS network, saved and in use. */
  network(signal?: AbortSignal): Promise<NetworkSettingsView>;
  /** POST /api/v0/settings/network: saves a change (applied at once); a bad value is a 400 naming it. */
  saveNetwork(change: Partial<NetworkSettingsValues>, signal?: AbortSignal): Promise<NetworkSettingsView>;
}

export function serviceApi(core: ApiCore): ServiceApi {
  return {
    facts: (signal) => core.data({ path: '/api/v0/service', signal }, isServiceFacts, 'the service facts'),
    collectGarbage: (signal) => core.data({ method: 'POST', path: '/api/v0/repo/gc', signal }, isGarbageCollection, 'the garbage collection result'),
    network: (signal) => core.data({ path: '/api/v0/settings/network', signal }, isNetworkSettingsView, 'the network settings'),
    saveNetwork: (change, signal) =>
      core.data({ method: 'POST', path: '/api/v0/settings/network', body: change, signal }, isNetworkSettingsView, 'the network settings'),
  };
}

export function isGarbageCollection(value: unknown): value is GarbageCollection {
  return isRecord(value) && hasNumbers(value, ['pins_removed', 'blocks_deleted']);
}

export function isServiceFacts(value: unknown): value is ServiceFacts {
  return (
    isRecord(value) &&
    hasStrings(value, ['version', 'data_dir', 'url', 'cid_profile']) &&
    hasNumbers(value, ['gc_interval_seconds', 'gc_grace_seconds', 'started_at']) &&
    typeof value.public_gateway === 'boolean'
  );
}

function isNetworkValues(value: unknown): value is NetworkSettingsValues {
  const urls = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return isRecord(value) && urls(value.fetch_from) && urls(value.routing) && typeof value.offline === 'boolean';
}

export function isNetworkSettingsView(value: unknown): value is NetworkSettingsView {
  if (!isRecord(value) || !isNetworkValues(value) || !isNetworkValues(value.saved)) return false;
  const pinned = value.pinned;
  return isRecord(pinned) && ['fetch_from', 'routing', 'offline'].every((name) => typeof pinned[name] === 'boolean');
}
