import { readFile } from 'node:fs/promises';
import { CarReader } from '@ipld/car';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer, type ImporterOptions } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';

export const fixturesRoot = new URL('../../../fixtures/', import.meta.url);

/** A MemoryBlockstore (keyed by multihash, as the CAR fixtures need) counting reads and writes. */
export class CountingBlockstore extends MemoryBlockstore {
  gets = 0;
  puts = 0;

  override *get(...args: Parameters<MemoryBlockstore['get']>): ReturnType<MemoryBlockstore['get']> {
    this.gets++;
    yield* super.get(...args);
  }

  override put(...args: Parameters<MemoryBlockstore['put']>): ReturnType<MemoryBlockstore['put']> {
    this.puts++;
    return super.put(...args);
  }

  resetCounts(): void {
    this.gets = 0;
    this.puts = 0;
  }
}

export async function loadCar(relativePath: string): Promise<CountingBlockstore> {
  const reader = await CarReader.fromBytes(await readFile(new URL(relativePath, fixturesRoot)));
  const blockstore = new CountingBlockstore();
  for await (const block of reader.blocks()) await blockstore.put(block.cid, block.bytes);
  blockstore.resetCounts();
  return blockstore;
}

export interface ImportedFile {
  name: string;
  cid: CID;
  size: number;
}

const IMPORT_OPTIONS: ImporterOptions = {
  cidVersion: 1,
  rawLeaves: true,
  wrapWithDirectory: true,
  shardSplitThresholdBytes: 262_144,
};

/**
 * Builds a directory from scratch with ipfs-unixfs-importer 17 (the reference), returning its root and
 * the files it imported (name, CID, cumulative size).
 */
export async function importerDirectory(
  blockstore: MemoryBlockstore,
  files: ReadonlyArray<{ path: string; content?: Uint8Array }>,
  options: ImporterOptions = {},
): Promise<{ root: CID; files: ImportedFile[] }> {
  const imported: ImportedFile[] = [];
  let root: CID | undefined;
  const source = files.map((file) => (file.content === undefined ? { path: file.path } : { path: file.path, content: file.content }));
  for await (const entry of importer(source, blockstore, { ...IMPORT_OPTIONS, ...options })) {
    if (entry.path === '') root = entry.cid;
    else imported.push({ name: entry.path ?? '', cid: entry.cid, size: Number(entry.size) });
  }
  if (root === undefined) throw new Error('importer yielded no root');
  return { root, files: imported };
}

export function content(seed: number): Uint8Array {
  return new TextEncoder().encode(`content of file ${seed}\n`);
}

/** A small deterministic PRNG so random sequences are the same on every run. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
