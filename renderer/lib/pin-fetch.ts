import type { PinRecord } from '../../shared/api-types.js';
import { formatBytes, formatCount } from './format.js';

/** The host of a source URL, as a person reads it (`trustless-gateway.link`, `127.0.0.1:8080`). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A pinning pin's fetch in the words the Pins page shows: from where (a host kept whole on one line), and how much. */
export type FetchWords = { kind: 'waiting' | 'looking'; text: string } | { kind: 'fetching'; host: string; amount: string };

/**
 * What a `pinning` pin is doing (issue "Pinfold on the IPFS network"): its blocks coming in from a source,
 * still looking for one, or waiting for an upload (no fetch runs: offline, or nothing to fetch from).
 */
export function fetchWords(pin: Pick<PinRecord, 'fetch'>): FetchWords {
  const fetch = pin.fetch;
  if (fetch === undefined) return { kind: 'waiting', text: 'Waiting for its blocks' };
  if (fetch.source === null) return { kind: 'looking', text: 'Looking for a source…' };
  return {
    kind: 'fetching',
    host: hostOf(fetch.source),
    amount: `${formatCount(fetch.blocks)} ${fetch.blocks === 1 ? 'block' : 'blocks'}, ${formatBytes(fetch.bytes)}`,
  };
}

/** {@link fetchWords} as one sentence. */
export function describeFetch(pin: Pick<PinRecord, 'fetch'>): string {
  const words = fetchWords(pin);
  return words.kind === 'fetching' ? `Fetching from ${words.host}: ${words.amount}` : words.text;
}
