import * as dagCbor from '@ipld/dag-cbor';
import * as dagJson from '@ipld/dag-json';
import * as dagPb from '@ipld/dag-pb';
import { varint } from 'multiformats';
import { createUnsafe } from 'multiformats/block';
import type { CID } from 'multiformats/cid';
import { BadInputError, NotAcceptableError } from '../../base/errors.js';
import { getBlock, isIdentityCid, type ReadBlockstore, type ReadOptions } from './blocks.js';
import { walkFileBlocks } from './file-blocks.js';
import { describeBlock, type NodeInfo } from './inspect-node.js';
import { MAX_NESTING, nestsDeeperThan } from './nesting-depth.js';

/** How much of the DAG under the target goes into the CAR (trustless gateway `dag-scope`). */
export type DagScope = 'all' | 'entity' | 'block';

/** `entity-bytes=from:to` of the trustless gateway spec: negative values count from the end, `to` null is `*`. */
export interface EntityBytes {
  from: number;
  to: number | null;
}

export interface CarExportOptions extends ReadOptions {
  /** CAR header roots (default: the target). */
  roots?: CID[];
  /** Blocks sent before the target's DAG, e.g. `ResolvedPath.visited` (the blocks that prove the path). */
  pathBlocks?: CID[];
  /** Repeat a block each time the DAG links it (default false: each block once). */
  dups?: boolean;
  scope?: DagScope;
  /** Only with scope `entity` on a file: the blocks covering that byte range. */
  entityBytes?: EntityBytes;
}

export function carHeader(roots: CID[]): Uint8Array {
  const header = dagCbor.encode({ version: 1, roots });
  return withLengthPrefix([header]);
}

function withLengthPrefix(parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const prefix = varint.encodeTo(length, new Uint8Array(varint.encodingLength(length)));
  const out = new Uint8Array(prefix.byteLength + length);
  out.set(prefix, 0);
  let at = prefix.byteLength;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

/**
 * The links of a block in the order its codec lists them (dag-pb link order; map order for dag-cbor/dag-json).
 * A block that nests deeper than MAX_NESTING, or does not decode, cannot be followed: 406 naming it.
 */
export function blockLinks(cid: CID, block: Uint8Array): CID[] {
  if (nestsDeeperThan(cid.code, block)) {
    throw new NotAcceptableError(`format: car cannot follow the links of ${cid.toString()}, it nests deeper than ${MAX_NESTING} levels`);
  }
  try {
    return decodedLinks(cid, block);
  } catch (error) {
    throw new NotAcceptableError(
      `format: car cannot follow the links of ${cid.toString()}, it does not decode under its codec (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function decodedLinks(cid: CID, block: Uint8Array): CID[] {
  switch (cid.code) {
    case dagPb.code:
      return dagPb.decode(block).Links.map((link) => link.Hash);
    case dagCbor.code:
      return [...createUnsafe({ bytes: block, cid, codec: dagCbor }).links()].map(([, link]) => link);
    case dagJson.code:
      return [...createUnsafe({ bytes: block, cid, codec: dagJson }).links()].map(([, link]) => link);
    default:
      return [];
  }
}

/** Resolves `from:to` (inclusive, negatives from the end) against a file size into [start, end). */
export function entitySpan(bytes: EntityBytes, size: number): { start: number; end: number } {
  const start = bytes.from < 0 ? Math.max(size + bytes.from, 0) : bytes.from;
  const last = bytes.to === null ? size - 1 : bytes.to < 0 ? size + bytes.to - 1 : bytes.to;
  const end = Math.min(last + 1, size);
  return { start, end: Math.max(end, start) };
}

interface Emitter {
  emit(cid: CID, block: Uint8Array): Uint8Array | undefined;
}

function makeEmitter(dups: boolean): Emitter {
  const sent = new Set<string>();
  return {
    emit(cid, block) {
      // Identity CIDs carry their bytes in the CID: never a block of their own.
      if (isIdentityCid(cid)) return undefined;
      const key = cid.toString();
      if (!dups) {
        if (sent.has(key)) return undefined;
        sent.add(key);
      }
      return withLengthPrefix([cid.bytes, block]);
    },
  };
}

/**
 * A CARv1 stream: header, then the path blocks, then the DAG under `target` depth-first (pre-order, links in
 * codec order), following dag-pb, dag-cbor and dag-json links. Blocks are read one at a time as the consumer
 * pulls. A block not held locally ends the stream with `NotFoundError` (the caller has usually sent headers).
 */
export async function* exportCar(store: ReadBlockstore, target: CID, options: CarExportOptions = {}): AsyncGenerator<Uint8Array> {
  const scope = options.scope ?? 'all';
  if (options.entityBytes !== undefined && scope !== 'entity') {
    throw new BadInputError('entity-bytes: only allowed with dag-scope=entity');
  }
  const emitter = makeEmitter(options.dups === true);
  yield carHeader(options.roots ?? [target]);
  for (const cid of options.pathBlocks ?? []) {
    if (cid.equals(target)) continue;
    const out = emitter.emit(cid, await getBlock(store, cid, options));
    if (out !== undefined) yield out;
  }
  const root = describeBlock(target, await getBlock(store, target, options));
  if (scope === 'block') {
    const out = emitter.emit(target, root.block);
    if (out !== undefined) yield out;
    return;
  }
  if (scope === 'entity') {
    yield* entityBlocks(store, root, emitter, options);
    return;
  }
  yield* allBlocks(store, root, emitter, options);
}

async function* allBlocks(store: ReadBlockstore, root: NodeInfo, emitter: Emitter, options: CarExportOptions) {
  // Explicit stack rather than recursion: deep DAGs must not overflow the call stack.
  const stack: Array<{ cid: CID; block?: Uint8Array }> = [{ cid: root.cid, block: root.block }];
  const expanded = new Set<string>();
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    const key = next.cid.toString();
    const seenBefore = expanded.has(key);
    if (seenBefore && options.dups !== true) continue;
    options.signal?.throwIfAborted();
    const block = next.block ?? (await getBlock(store, next.cid, options));
    const out = emitter.emit(next.cid, block);
    if (out !== undefined) yield out;
    expanded.add(key);
    const links = blockLinks(next.cid, block);
    for (let i = links.length - 1; i >= 0; i--) {
      const link = links[i];
      if (link !== undefined) stack.push({ cid: link });
    }
  }
}

async function* entityBlocks(store: ReadBlockstore, root: NodeInfo, emitter: Emitter, options: CarExportOptions) {
  if (root.kind === 'file' && root.cid.code === dagPb.code) {
    const span = options.entityBytes === undefined ? { start: 0, end: root.size } : entitySpan(options.entityBytes, root.size);
    // An empty span still proves the file: its root block.
    if (span.end <= span.start) {
      const out = emitter.emit(root.cid, root.block);
      if (out !== undefined) yield out;
      return;
    }
    for await (const part of walkFileBlocks(store, root.cid, root.block, span, options)) {
      const out = emitter.emit(part.cid, part.block);
      if (out !== undefined) yield out;
    }
    return;
  }
  if (root.kind === 'hamt-directory') {
    yield* hamtShards(store, root.cid, root.block, emitter, options);
    return;
  }
  const out = emitter.emit(root.cid, root.block);
  if (out !== undefined) yield out;
}

/** A HAMT directory's own blocks (root + sub-shards, DFS pre-order), without the entries it names. */
async function* hamtShards(store: ReadBlockstore, cid: CID, block: Uint8Array, emitter: Emitter, options: CarExportOptions): AsyncGenerator<Uint8Array> {
  const out = emitter.emit(cid, block);
  if (out !== undefined) yield out;
  const node = dagPb.decode(block);
  const info = describeBlock(cid, block);
  const prefixLength = ((info.unixfs?.fanout ?? 256n) - 1n).toString(16).length;
  for (const link of node.Links) {
    if ((link.Name ?? '').length !== prefixLength) continue;
    options.signal?.throwIfAborted();
    yield* hamtShards(store, link.Hash, await getBlock(store, link.Hash, options), emitter, options);
  }
}
