/**
 * renderer/pages/files/folder-car.ts under Node: the CAR a folder becomes holds exactly the blocks
 * ipfs-unixfs-importer writes for the same files with the profile's options, under the same root, in a
 * CARv1 that @ipld/car reads; leaves are slices of the files; bad input fails whole.
 */
import { CarReader } from '@ipld/car';
import { describe, expect, it } from 'vitest';
import { buildFolderCar, FolderReadError, type FolderEntry } from '../../../renderer/pages/files/folder-car.js';
import { UNIXFS_PROFILES, type UnixfsImportOptions } from '../../../shared/unixfs-profiles.js';
import { referenceDirectory, type ReferenceEntry } from '../../helpers/unixfs-reference.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** Deterministic bytes that differ from file to file. */
function bytesOf(seed: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed * 2654435761 + 1;
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

function asFolder(entries: readonly ReferenceEntry[]): FolderEntry[] {
  return entries.map((entry) =>
    entry.bytes === undefined ? { path: entry.path } : { path: entry.path, file: new Blob([entry.bytes as Uint8Array<ArrayBuffer>]) },
  );
}

async function readCar(car: Blob): Promise<{ roots: string[]; blocks: Map<string, Uint8Array>; sections: number }> {
  const reader = await CarReader.fromBytes(new Uint8Array(await car.arrayBuffer()));
  const blocks = new Map<string, Uint8Array>();
  let sections = 0;
  for await (const block of reader.blocks()) {
    sections++;
    blocks.set(block.cid.toString(), block.bytes);
  }
  return { roots: (await reader.getRoots()).map(String), blocks, sections };
}

/** Builds the folder both ways and expects the same root and the same blocks, each once. */
async function expectSameAsImporter(entries: readonly ReferenceEntry[], layout: UnixfsImportOptions): Promise<string> {
  const reference = await referenceDirectory(entries, layout);
  const built = await buildFolderCar(asFolder(entries), layout);
  expect(built.root).toBe(reference.root);
  const car = await readCar(built.car);
  expect(car.roots).toEqual([reference.root]);
  expect(car.sections).toBe(car.blocks.size);
  expect(built.blocks).toBe(car.blocks.size);
  expect([...car.blocks.keys()].sort()).toEqual([...reference.blocks.keys()].sort());
  for (const [cid, bytes] of reference.blocks) expect(car.blocks.get(cid), cid).toEqual(bytes);
  return built.root;
}

// Small chunks, few links and a low sharding threshold, so that a handful of small files exercise
// multi-chunk files, deeper balanced trees and HAMT directories.
const tight = (profile: UnixfsImportOptions): UnixfsImportOptions => ({ ...profile, chunkSize: 1000, maxChildrenPerNode: 3, shardSplitThresholdBytes: 400 });

const MIXED: ReferenceEntry[] = [
  { path: 'readme.txt', bytes: text('hello from a dropped folder\n') },
  { path: 'empty.txt', bytes: new Uint8Array(0) },
  { path: 'docs/big.bin', bytes: bytesOf(1, 7_777) },
  { path: 'docs/exactly-two-chunks.bin', bytes: bytesOf(2, 2_000) },
  { path: 'docs/nested/deeper/note.md', bytes: text('# deep\n') },
  { path: 'copy-of-readme.txt', bytes: text('hello from a dropped folder\n') },
  { path: 'nothing-here' },
  { path: 'docs/also-empty' },
  ...Array.from({ length: 40 }, (_, i) => ({ path: `many/file-${String(i).padStart(3, '0')}.txt`, bytes: text(`file ${i}\n`) })),
];

describe('buildFolderCar', () => {
  it.each(Object.keys(UNIXFS_PROFILES) as Array<keyof typeof UNIXFS_PROFILES>)(
    '%s: the importer’s root and blocks, with multi-chunk files, empty files and folders, duplicates and a HAMT',
    async (name) => {
      const layout = tight(UNIXFS_PROFILES[name]);
      await expectSameAsImporter(MIXED, layout);
    },
  );

  it.each(Object.keys(UNIXFS_PROFILES) as Array<keyof typeof UNIXFS_PROFILES>)('%s with its real sizes', async (name) => {
    const root = await expectSameAsImporter(
      [
        { path: 'a.txt', bytes: text('a') },
        { path: 'sub/b.bin', bytes: bytesOf(3, 300_000) },
      ],
      UNIXFS_PROFILES[name],
    );
    expect(root.startsWith(name === 'unixfs-v0-2015' ? 'Qm' : 'bafybei')).toBe(true);
  });

  it('an empty folder is the empty directory of the profile', async () => {
    const v1 = await buildFolderCar([], UNIXFS_PROFILES['unixfs-v1-2025']);
    expect(v1.root).toBe('bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354');
    expect((await readCar(v1.car)).blocks.size).toBe(1);
    const v0 = await buildFolderCar([], UNIXFS_PROFILES['unixfs-v0-2015']);
    expect(v0.root).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
  });

  it('keeps each leaf as a slice of its file, not a copy: the CAR reads the file as it is when sent', async () => {
    const original = bytesOf(4, 2_500);
    const backing = new Blob([original]);
    const sliced: Array<[number, number]> = [];
    // A Blob that records which parts of it are sliced, and still is a Blob.
    const file = new Proxy(backing, {
      get(target, property) {
        if (property === 'slice') {
          return (start: number, end: number) => {
            sliced.push([start, end]);
            return target.slice(start, end);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const layout = tight(UNIXFS_PROFILES['unixfs-v1-2025']);
    const built = await buildFolderCar([{ path: 'f.bin', file }], layout);
    // Each chunk is sliced twice: once to hash it, once as the CAR's part (reads run ahead of hashing).
    expect(sliced.sort((a, b) => a[0] - b[0])).toEqual([
      [0, 1000],
      [0, 1000],
      [1000, 2000],
      [1000, 2000],
      [2000, 2500],
      [2000, 2500],
    ]);
    expect(built.root).toBe((await referenceDirectory([{ path: 'f.bin', bytes: original }], layout)).root);
  });

  it('reports files and bytes as it reads them', async () => {
    const seen: Array<{ filesDone: number; bytesDone: number; currentPath: string }> = [];
    await buildFolderCar(asFolder(MIXED), tight(UNIXFS_PROFILES['unixfs-v1-2025']), { onProgress: (progress) => seen.push(progress) });
    const files = MIXED.filter((entry) => entry.bytes !== undefined);
    const last = seen.at(-1);
    expect(last?.filesDone).toBe(files.length);
    expect(last?.bytesDone).toBe(files.reduce((sum, entry) => sum + (entry.bytes?.byteLength ?? 0), 0));
    expect(seen.every((progress, i) => i === 0 || progress.bytesDone >= (seen[i - 1]?.bytesDone ?? 0))).toBe(true);
    expect(new Set(seen.map((progress) => progress.currentPath))).toContain('docs/big.bin');
  });

  it('fails whole with the path when a file cannot be read or changes size', async () => {
    const unreadable = { size: 10, slice: () => ({ arrayBuffer: () => Promise.reject(new Error('NotReadableError')) }) } as unknown as Blob;
    await expect(
      buildFolderCar(
        [
          { path: 'ok.txt', file: new Blob(['ok']) },
          { path: 'gone/x.txt', file: unreadable },
        ],
        UNIXFS_PROFILES['unixfs-v1-2025'],
      ),
    ).rejects.toThrow(new FolderReadError('gone/x.txt could not be read (NotReadableError): was it moved or changed?'));
    const shrunk = { size: 10, slice: () => new Blob(['abc']) } as unknown as Blob;
    await expect(buildFolderCar([{ path: 'shrunk.txt', file: shrunk }], UNIXFS_PROFILES['unixfs-v1-2025'])).rejects.toThrow(
      'shrunk.txt changed while it was read',
    );
  });

  it('stops when its signal fires', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(buildFolderCar(asFolder(MIXED), UNIXFS_PROFILES['unixfs-v1-2025'], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
  });
});
