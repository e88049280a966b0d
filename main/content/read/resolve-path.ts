import { resolvers, type ReadableStorage } from 'ipfs-unixfs-exporter';
import * as dagPb from '@ipld/dag-pb';
import type { CID } from 'multiformats/cid';
import { BadInputError, NotAcceptableError, NotFoundError, isAppError } from '../../base/errors.js';
import { getBlock, type ReadBlockstore, type ReadOptions } from './blocks.js';
import { plainDirectoryLinks } from './directory-links.js';
import { PathInsideNodeError } from './errors.js';
import { MAX_NESTING, nestsDeeperThan } from './nesting-depth.js';

export interface ResolvedPath {
  /** The CID the whole path names. */
  cid: CID;
  /** The CID of every path segment, root first (what `X-Ipfs-Roots` carries). HAMT shards are not segments. */
  roots: CID[];
  /** Every block read while resolving, in read order and once each (HAMT shards included): a CAR for a path starts with these. */
  visited: CID[];
}

/** Rejects what no UnixFS name may be, so a request can never climb out of its root. */
export function validateSegments(segments: readonly string[]): void {
  for (const segment of segments) {
    if (segment === '' || segment === '.' || segment === '..') {
      throw new BadInputError(`path: segment "${segment}" is not allowed`);
    }
    if (segment.includes('\0')) throw new BadInputError('path: NUL is not allowed in a segment');
    if (segment.includes('/')) throw new BadInputError('path: a segment cannot contain "/"');
  }
}

/**
 * A store for the exporter's resolvers that records what they read and serves identity CIDs inline. The
 * resolvers decode what they read recursively: a block nested deeper than they can take is refused here
 * (406), before it overflows the stack.
 */
function recordingStore(store: ReadBlockstore, visited: CID[], options: ReadOptions): ReadableStorage {
  const seen = new Set<string>();
  return {
    get(cid: CID) {
      const key = cid.toString();
      if (!seen.has(key)) {
        seen.add(key);
        visited.push(cid);
      }
      return (async function* () {
        const block = await getBlock(store, cid, options);
        if (nestsDeeperThan(cid.code, block)) {
          throw new NotAcceptableError(`path: cannot look inside ${cid.toString()}, it nests deeper than ${MAX_NESTING} levels`);
        }
        yield block;
      })();
    },
  };
}

function exporterErrorCode(err: unknown): string | undefined {
  if (err instanceof Error && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/**
 * Walks `segments` (already percent-decoded) from `root` through UnixFS directories, HAMT shards and
 * dag-cbor/dag-json links. Reads only the blocks on the way (never the final node's own block unless a
 * later segment needs it). Unknown names and blocks not held locally: `NotFoundError`.
 */
export async function resolvePath(store: ReadBlockstore, root: CID, segments: readonly string[], options: ReadOptions = {}): Promise<ResolvedPath> {
  validateSegments(segments);
  const visited: CID[] = [];
  const reader = recordingStore(store, visited, options);
  const roots: CID[] = [root];
  let cid = root;
  let rest = [...segments];
  while (rest.length > 0) {
    if (cid.code === dagPb.code) {
      const name = rest[0] as string;
      const table = plainDirectoryLinks(cid, await getBlock(store, cid, options));
      if (table) {
        if (!visited.some((seen) => seen.equals(cid))) visited.push(cid);
        const child = table.get(name);
        if (child === undefined) throw new NotFoundError(`path: "${name}" not found under ${cid.toString()}`);
        cid = child;
        rest = rest.slice(1);
        roots.push(cid);
        continue;
      }
    }
    const resolver = resolvers[cid.code];
    if (resolver === undefined) {
      throw new NotFoundError(`path: cannot look up "${rest[0] ?? ''}" inside ${cid.toString()} (codec 0x${cid.code.toString(16)})`);
    }
    let next: { cid: CID; rest: string[] } | undefined;
    try {
      for await (const result of resolver(cid, rest, reader, { signal: options.signal })) {
        next = { cid: result.cid, rest: result.rest };
      }
    } catch (err) {
      if (isAppError(err)) throw err;
      const code = exporterErrorCode(err);
      if (code === 'ERR_NOT_FOUND' || code === 'ERR_BAD_PATH' || code === 'ERR_NO_RESOLVER' || code === 'ERR_NOT_UNIXFS') {
        throw new NotFoundError(`path: "${rest[0] ?? ''}" not found under ${cid.toString()}`);
      }
      throw err;
    }
    if (next === undefined) throw new NotFoundError(`path: "${rest[0] ?? ''}" not found under ${cid.toString()}`);
    if (next.cid.equals(cid)) {
      // The resolver stayed on the same node: a UnixFS file has no children; an IPLD node's path ended on a value.
      if (cid.code === dagPb.code || next.rest.length === rest.length) {
        throw new NotFoundError(`path: "${rest[0] ?? ''}" not found under ${cid.toString()}`);
      }
      if (next.rest.length > 0) throw new NotFoundError(`path: "${next.rest[0] ?? ''}" not found under ${cid.toString()}`);
      throw new PathInsideNodeError(`path: /${rest.join('/')} ends inside ${cid.toString()} on a value that is not a link`);
    }
    cid = next.cid;
    rest = next.rest;
    roots.push(cid);
  }
  return { cid, roots, visited };
}
