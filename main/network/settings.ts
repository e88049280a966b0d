import type { NetworkSettingsView } from '../../shared/api-types.js';
import type { SettingsFile } from '../base/settings-file.js';
import { openSettingsStore, type SettingsStore } from '../base/settings-store.js';
import { NETWORK_SETTINGS, networkValuesOf, type NetworkSettingValues } from './network-section.js';

/**
 * Where Pinfold reaches the IPFS network (contract section 11): trustless gateways to fetch blocks from,
 * Delegated Routing V1 endpoints to find providers and names, or nothing at all (offline). Kept in the data
 * folder's settings.json with the service's other settings (base/settings-store.ts: a change applies at
 * once); a flag given on the command line wins for that run.
 */
export interface NetworkValues {
  readonly fetchFrom: readonly string[];
  readonly routing: readonly string[];
  readonly offline: boolean;
}

/** What the command line said, for this run only: each given one wins over settings.json. */
export type NetworkFlags = Partial<NetworkValues>;

/** A fresh install reaches the public network: a pin of a CID from elsewhere just works. */
export const DEFAULT_NETWORK: NetworkValues = {
  fetchFrom: NETWORK_SETTINGS.fetch_from.fallback,
  routing: NETWORK_SETTINGS.routing.fallback,
  offline: NETWORK_SETTINGS.offline.fallback,
};

export interface NetworkSettings {
  /** What this run uses now: the saved settings under the command line's flags. */
  current(): NetworkValues;
  /** The view of `GET /api/v0/settings/network`: what is in use, what is saved, and which values a flag pins. */
  view(): NetworkSettingsView;
  /** Saves a change and applies it at once (a pinned value stays as its flag says until the next run). */
  update(patch: NetworkFlags): Promise<NetworkValues>;
  /** Called after every change that moved what is in use. */
  onChange(listener: (values: NetworkValues) => void): () => void;
}

const valuesOf = (values: Readonly<NetworkSettingValues>): NetworkValues => ({
  fetchFrom: values.fetch_from,
  routing: values.routing,
  offline: values.offline,
});
const moved = (a: Readonly<NetworkSettingValues>, b: Readonly<NetworkSettingValues>): boolean =>
  JSON.stringify([a.fetch_from, a.routing, a.offline]) !== JSON.stringify([b.fetch_from, b.routing, b.offline]);

/** The network's part of a store that keeps the network settings (the service's, or theirs alone). */
export function networkSettings(store: SettingsStore<NetworkSettingValues>): NetworkSettings {
  return {
    current: () => valuesOf(store.current()),
    view() {
      const { fetch_from, routing, offline } = store.view();
      return {
        fetch_from: [...fetch_from.value],
        routing: [...routing.value],
        offline: offline.value,
        saved: { fetch_from: [...fetch_from.saved], routing: [...routing.saved], offline: offline.saved },
        pinned: { fetch_from: fetch_from.pinned_by !== null, routing: routing.pinned_by !== null, offline: offline.pinned_by !== null },
      };
    },
    async update(patch) {
      await store.update(networkValuesOf(patch));
      return valuesOf(store.current());
    },
    onChange(listener) {
      return store.onChange((current, before) => {
        if (moved(current, before)) listener(valuesOf(current));
      });
    },
  };
}

/** The network settings alone, over a data folder's settings.json (tools and tests; the service opens them all). */
export async function openNetworkSettings(file: SettingsFile, flags: NetworkFlags = {}): Promise<NetworkSettings> {
  return networkSettings(await openSettingsStore(file, { specs: NETWORK_SETTINGS, flags: networkValuesOf(flags) }));
}
