import type { CID } from 'multiformats/cid';
import type { ReadBlockstore } from '../../content/read/blocks.js';
import type { ResolvedPath } from '../../content/read/resolve-path.js';

/**
 * Resolved `/ipfs/<cid>/<path>` requests. What an immutable path names never changes while its blocks are
 * held, so a path asked for again (a page's assets, a listing's files, a client fetching the same file)
 * skips parsing the CID and walking the directories: about a fifth of a small file's request
 * (test/bench/gateway.ts, 4 KiB files). Garbage collection is the one way blocks leave the store; it moves
 * the store's `removals`, which empties the cache, so nothing is ever served through a block that is gone.
 */
export interface Resolution {
  root: CID;
  resolved: ResolvedPath;
}

const MAX_ENTRIES = 4096;

interface CacheState {
  removals: number;
  entries: Map<string, Resolution>;
}

const caches = new WeakMap<ReadBlockstore, CacheState>();

function stateOf(store: ReadBlockstore, removals: number): CacheState {
  let state = caches.get(store);
  if (state === undefined || state.removals !== removals) {
    state = { removals, entries: new Map() };
    caches.set(store, state);
  }
  return state;
}

/**
 * The cached resolution of `key` (as it is, not wrapped in a promise: a hit is the common case and costs
 * nothing more), or the one `resolve` makes (kept when the store says how to tell it is still good).
 * Failures are not kept: a missing block may arrive with the next upload.
 */
export function cachedResolution(store: ReadBlockstore, key: string, resolve: () => Promise<Resolution>): Resolution | Promise<Resolution> {
  const removals = store.removals;
  if (removals === undefined) return resolve();
  const known = stateOf(store, removals).entries.get(key);
  if (known !== undefined) return known;
  return resolveAndKeep(store, removals, key, resolve);
}

async function resolveAndKeep(store: ReadBlockstore, removals: number, key: string, resolve: () => Promise<Resolution>): Promise<Resolution> {
  const made = await resolve();
  // Made across awaits: a collection meanwhile leaves it out (the state it was begun under is gone).
  if (store.removals === removals) {
    const { entries } = stateOf(store, removals);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    entries.set(key, made);
  }
  return made;
}
