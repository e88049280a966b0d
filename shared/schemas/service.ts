import { array, boolean, number, object, string } from 'valibot';
import type { ServiceFacts } from '../api-types.js';

/** `POST /api/v0/repo/gc`. */
export const GarbageCollectionSchema = object({
  pins_removed: number(),
  blocks_deleted: number(),
});

/** `gc_leader` is the scale-out mode's fact: the Settings page never reads it. */
export type UncheckedServiceField = 'gc_leader';
export type CheckedServiceFacts = Omit<ServiceFacts, UncheckedServiceField>;

/** `GET /api/v0/service`. */
export const ServiceFactsSchema = object({
  version: string(),
  data_dir: string(),
  url: string(),
  cid_profile: string(),
  gc_interval_seconds: number(),
  gc_grace_seconds: number(),
  started_at: number(),
  public_gateway: boolean(),
});

const networkValuesEntries = {
  fetch_from: array(string()),
  routing: array(string()),
  offline: boolean(),
};

/** The network settings as saved or in use. */
export const NetworkSettingsValuesSchema = object(networkValuesEntries);

/** `GET` and `POST /api/v0/settings/network`. */
export const NetworkSettingsViewSchema = object({
  ...networkValuesEntries,
  saved: NetworkSettingsValuesSchema,
  pinned: object({ fetch_from: boolean(), routing: boolean(), offline: boolean() }),
});
