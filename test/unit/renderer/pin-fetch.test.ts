import { describe, expect, it } from 'vitest';
import { describeFetch } from '../../../renderer/lib/pin-fetch.js';

describe("a pinning pin's fetch, as the Pins page says it", () => {
  it('tells a pin that waits for an upload, one that looks for a source, and one that fetches', () => {
    expect(describeFetch({})).toBe('Waiting for its blocks');
    expect(describeFetch({ fetch: { blocks: 0, bytes: 0, source: null } })).toBe('Looking for a source…');
    expect(describeFetch({ fetch: { blocks: 1, bytes: 65_536, source: 'https://gw.example:8443' } })).toBe('Fetching from gw.example:8443: 1 block, 64 KiB');
    expect(describeFetch({ fetch: { blocks: 1200, bytes: 3 * 1024 * 1024, source: 'http://127.0.0.1:9' } })).toBe(
      'Fetching from 127.0.0.1:9: 1,200 blocks, 3 MiB',
    );
  });
});
