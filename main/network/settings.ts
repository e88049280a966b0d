import { safeParse } from 'valibot';
import type { NetworkSettingsView } from '../../shared/api-types.js';
import { SettingsFileError, type SettingsFile } from '../base/settings-file.js';
import { networkSection } from './network-section.js';

/**
 * Where Pinfold reaches the IPFS network (contract section 11): trustless gateways to fetch blocks from,
 * Delegated Routing V1 endpoints to find providers and names, or nothing at all (offline). Kept in the data
 * folder's settings.json (the Settings page edits it, a change applies at once); a flag given on the
 * command line wins for that run.
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
  fetchFrom: ['https://trustless-gateway.link'],
  routing: ['https://delegated-ipfs.dev'],
  offline: false,
};

export const NETWORK_SECTION = 'network';

/** The settings as the file spells them (network-section.ts reads them back). */
function sectionOf(values: NetworkValues): { fetch_from: string[]; routing: string[]; offline: boolean } {
  return { fetch_from: [...values.fetchFrom], routing: [...values.routing], offline: values.offline };
}

/** The saved section: absent is the defaults' own; a broken one stops the start, naming the file. */
function savedSection(file: SettingsFile, section: unknown): NetworkFlags {
  if (section === undefined) return {};
  const read = safeParse(networkSection(NETWORK_SECTION), section, { abortEarly: true });
  if (!read.success) throw new SettingsFileError(`${file.path}: ${read.issues[0].message}`);
  return read.output;
}

export interface NetworkSettings {
  /** What this run uses now: the saved settings under the command line's flags. */
  current(): NetworkValues;
  /** The API's view: what is in use, and which values a flag pins for this run. */
  view(): NetworkSettingsView;
  /** Saves a change and applies it at once (a pinned value stays as its flag says until the next run). */
  update(patch: NetworkFlags): Promise<NetworkValues>;
  /** Called after every change that moved what is in use. */
  onChange(listener: (values: NetworkValues) => void): () => void;
}

/** Reads the saved settings (a broken section is an error naming the file) and lays the flags over them. */
export async function openNetworkSettings(file: SettingsFile, flags: NetworkFlags = {}): Promise<NetworkSettings> {
  const sections = await file.read();
  let saved: NetworkValues = { ...DEFAULT_NETWORK, ...savedSection(file, sections[NETWORK_SECTION]) };
  const listeners = new Set<(values: NetworkValues) => void>();
  const effective = (): NetworkValues => ({ ...saved, ...flags });
  let current = effective();
  return {
    current: () => current,
    view: () => ({
      fetch_from: [...current.fetchFrom],
      routing: [...current.routing],
      offline: current.offline,
      saved: { fetch_from: [...saved.fetchFrom], routing: [...saved.routing], offline: saved.offline },
      pinned: { fetch_from: flags.fetchFrom !== undefined, routing: flags.routing !== undefined, offline: flags.offline !== undefined },
    }),
    async update(patch) {
      const next: NetworkValues = { ...saved, ...patch };
      await file.writeSection(NETWORK_SECTION, sectionOf(next));
      saved = next;
      const before = current;
      current = effective();
      if (JSON.stringify(before) !== JSON.stringify(current)) for (const listener of listeners) listener(current);
      return current;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
