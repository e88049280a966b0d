import { BadInputError } from '../base/errors.js';

/** At most this many of each kind: every one is asked in parallel, and a list is typed by hand. */
export const MAX_ENDPOINTS = 16;

/**
 * One endpoint as Pinfold keeps it: an http(s) URL without credentials, query or fragment, with no trailing
 * slash, so `https://gw.example/` and `https://gw.example` are one source. A path is kept: an endpoint may
 * live under a prefix (`https://host/prefix` + `/routing/v1/…`).
 */
export function parseEndpoint(text: string, parameter: string): string {
  if (text.trim() === '') throw new BadInputError(`${parameter}: an http or https URL is required`, parameter);
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
export function parseEndpointList(texts: readonly string[], parameter: string): string[] {
  return distinctEndpoints(
    texts.map((text) => parseEndpoint(text, parameter)),
    parameter,
  );
}

/** Endpoints already parsed, duplicates dropped (first kept); more than {@link MAX_ENDPOINTS} is refused. */
export function distinctEndpoints(endpoints: readonly string[], parameter: string): string[] {
  const distinct = [...new Set(endpoints)];
  if (distinct.length > MAX_ENDPOINTS) throw new BadInputError(`${parameter}: at most ${MAX_ENDPOINTS} URLs`, parameter);
  return distinct;
}
