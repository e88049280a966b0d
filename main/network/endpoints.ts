import { BadInputError } from '../base/errors.js';

/** At most this many of each kind: every one is asked in parallel, and a list is typed by hand. */
export const MAX_ENDPOINTS = 16;

/**
 * One endpoint as Pinfold keeps it: an http(s) URL without credentials, query or fragment, with no trailing
 * slash, so `https://gw.example/` and `https://gw.example` are one source. A path is kept: an endpoint may
 * live under a prefix (`https://host/prefix` + `/routing/v1/…`).
 */
export function parseEndpoint(text: unknown, parameter: string): string {
  if (typeof text !== 'string' || text.trim() === '') throw new BadInputError(`${parameter}: an http or https URL is required`, parameter);
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new BadInputError(`${parameter}: "${text}" is not a URL`, parameter);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadInputError(`${parameter}: "${text}" is not an http or https URL`, parameter);
  if (url.username !== '' || url.password !== '') throw new BadInputError(`${parameter}: a URL must not carry credentials`, parameter);
  if (url.search !== '' || url.hash !== '') throw new BadInputError(`${parameter}: a URL must not carry a query or a fragment`, parameter);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A list of endpoints: each parsed, duplicates dropped (first kept), at most {@link MAX_ENDPOINTS}. */
export function parseEndpointList(value: unknown, parameter: string): string[] {
  if (!Array.isArray(value)) throw new BadInputError(`${parameter}: a list of URLs is required`, parameter);
  const endpoints = [...new Set(value.map((item: unknown) => parseEndpoint(item, parameter)))];
  if (endpoints.length > MAX_ENDPOINTS) throw new BadInputError(`${parameter}: at most ${MAX_ENDPOINTS} URLs`, parameter);
  return endpoints;
}
