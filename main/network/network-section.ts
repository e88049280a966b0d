import { array, boolean, custom, object, optional, pipe, rawCheck, transform, unknown, type GenericSchema } from 'valibot';
import { parsedBy } from '../base/parsed-by.js';
import { distinctEndpoints, parseEndpoint } from './endpoints.js';

/**
 * The network settings as settings.json keeps them and `POST /api/v0/settings/network` changes them
 * (contract section 11): any of `fetch_from` and `routing` (lists of endpoint URLs) and `offline`. One
 * schema for the file and the API, so both refuse the same things in the same words; `where` names the
 * whole in the messages about it (`body`, or the file's section).
 */

/** What a section or a change gives, in the domain's names: each field given replaces the saved one. */
export interface NetworkPatch {
  fetchFrom?: string[];
  routing?: string[];
  offline?: boolean;
}

const SETTINGS = ['fetch_from', 'routing', 'offline'];

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
 * The schema of a section or a change. A key not given is left out (null is no value: refused); a key
 * that is no setting is refused before any value is looked at, naming it.
 */
export function networkSection(where: string): GenericSchema<unknown, NetworkPatch> {
  return pipe(
    unknown(),
    custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), `${where}: a JSON object is required`),
    rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const input = dataset.value;
      const key = Object.keys(input).find((name) => !SETTINGS.includes(name));
      if (key === undefined) return;
      addIssue({ message: `${where}: unknown setting "${key}"`, path: [{ type: 'object', origin: 'key', input, key, value: input[key] }] });
    }),
    object({
      fetch_from: optional(endpointList('fetch_from')),
      routing: optional(endpointList('routing')),
      offline: optional(boolean('offline: true or false is required')),
    }),
    transform((section) => ({
      ...(section.fetch_from !== undefined ? { fetchFrom: section.fetch_from } : {}),
      ...(section.routing !== undefined ? { routing: section.routing } : {}),
      ...(section.offline !== undefined ? { offline: section.offline } : {}),
    })),
  );
}
