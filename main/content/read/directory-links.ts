import * as dagPb from '@ipld/dag-pb';
import { UnixFS } from 'ipfs-unixfs';
import type { CID } from 'multiformats/cid';

/**
 * Name → link tables of plain UnixFS directories, by CID. A directory never changes under its CID, so
 * a table decoded once answers every later lookup; the gateway then resolves `/ipfs/<dir>/<name>`
 * with a map lookup instead of decoding the directory node again on every request.
 */
export interface DirectoryLinks {
  get(name: string): CID | undefined;
}

const MAX_TABLES = 1024;
/** Very large plain directories are looked up by decoding each time rather than held in memory. */
const MAX_LINKS_CACHED = 20_000;
const tables = new Map<string, DirectoryLinks>();

/**
 * The link table of `cid` when `bytes` is a plain UnixFS directory, else undefined (a HAMT shard, a
 * file, a node without UnixFS data): the caller then resolves through its general path.
 */
export function plainDirectoryLinks(cid: CID, bytes: Uint8Array): DirectoryLinks | undefined {
  const key = cid.toString();
  const cached = tables.get(key);
  if (cached) {
    // Re-insert so the map's order is least recently used first.
    tables.delete(key);
    tables.set(key, cached);
    return cached;
  }
  let node: dagPb.PBNode;
  try {
    node = dagPb.decode(bytes);
    if (node.Data === undefined || UnixFS.unmarshal(node.Data).type !== 'directory') return undefined;
  } catch {
    return undefined;
  }
  const links = new Map<string, CID>();
  // UnixFS names are unique; should a malformed node repeat one, the first wins, as Kubo's lookup does.
  for (const link of node.Links) if (link.Name !== undefined && !links.has(link.Name)) links.set(link.Name, link.Hash);
  const table: DirectoryLinks = { get: (name) => links.get(name) };
  if (links.size <= MAX_LINKS_CACHED) {
    if (tables.size >= MAX_TABLES) tables.delete(tables.keys().next().value as string);
    tables.set(key, table);
  }
  return table;
}
