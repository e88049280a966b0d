import { array, boolean, custom, pipe, transform, unknown, type GenericSchema } from 'valibot';
import { parsedBy } from '../base/parsed-by.js';
import { settingsObject, type SettingSpecs } from '../base/settings-schema.js';
import { distinctEndpoints, parseEndpoint } from './endpoints.js';

/**
 * The network settings as settings.json's `network` section keeps them and the API changes them (contract
 * section 11): `fetch_from` and `routing` (lists of endpoint URLs) and `offline`. One schema for the file
 * and the API, so both refuse the same things in the same words.
 */

/** The network settings in the file's and the API's names. */
export type NetworkSettingValues = {
  fetch_from: string[];
  routing: string[];
  offline: boolean;
};

/** What a section or a change gives, in the domain's names: each field given replaces the saved one. */
export interface NetworkPatch {
  fetchFrom?: string[];
  routing?: string[];
  offline?: boolean;
}

export const NETWORK_SECTION = 'network';

/** A list of endpoint URLs, each checked in turn, then duplicates dropped and the count capped. */
const endpointList = (parameter: string): GenericSchema<unknown, string[]> =>
  pipe(
    array(
      pipe(
        unknown(),
        custom<string>((value) => typeof value === 'string', `${parameter}: an http or https URL is required`),
        parsedBy((text: string) => parseEndpoint(text, parameter)),
      ),
      `${parameter}: a list of URLs is required`,
    ),
    parsedBy((endpoints: string[]) => distinctEndpoints(endpoints, parameter)),
  );

/**
 * Where Pinfold reaches the network, applied at once (network/settings.ts tells the fetcher and the routing
 * client). A fresh install reaches the public network: a pin of a CID from elsewhere just works.
 */
export const NETWORK_SETTINGS: SettingSpecs<NetworkSettingValues> = {
  fetch_from: {
    section: NETWORK_SECTION,
    schema: endpointList('fetch_from'),
    fallback: ['https://trustless-gateway.link'],
    flag: '--fetch-from',
    applies: 'now',
  },
  routing: { section: NETWORK_SECTION, schema: endpointList('routing'), fallback: ['https://delegated-ipfs.dev'], flag: '--routing', applies: 'now' },
  offline: { section: NETWORK_SECTION, schema: boolean('offline: true or false is required'), fallback: false, flag: '--offline', applies: 'now' },
};

/** The file's and the API's names of network settings in the domain's. */
export function networkPatchOf(values: Partial<NetworkSettingValues>): NetworkPatch {
  return {
    ...(values.fetch_from !== undefined ? { fetchFrom: values.fetch_from } : {}),
    ...(values.routing !== undefined ? { routing: values.routing } : {}),
    ...(values.offline !== undefined ? { offline: values.offline } : {}),
  };
}

/** The domain's names of network settings in the file's and the API's (lists copied). */
export function networkValuesOf(patch: {
  readonly fetchFrom?: readonly string[];
  readonly routing?: readonly string[];
  readonly offline?: boolean;
}): Partial<NetworkSettingValues> {
  return {
    ...(patch.fetchFrom !== undefined ? { fetch_from: [...patch.fetchFrom] } : {}),
    ...(patch.routing !== undefined ? { routing: [...patch.routing] } : {}),
    ...(patch.offline !== undefined ? { offline: patch.offline } : {}),
  };
}

/**
 * The schema of a change of the network settings alone (`POST /api/v0/settings/network`), in the domain's
 * names. A key not given is left out (null is no value: refused); a key that is no network setting is
 * refused before any value is looked at, naming it.
 */
export function networkSection(where: string): GenericSchema<unknown, NetworkPatch> {
  return pipe(settingsObject(NETWORK_SETTINGS, where), transform(networkPatchOf));
}
