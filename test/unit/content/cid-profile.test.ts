import { randomBytes } from 'node:crypto';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer, type ImporterOptions } from 'ipfs-unixfs-importer';
import { fixedSize } from 'ipfs-unixfs-importer/chunker';
import { balanced } from 'ipfs-unixfs-importer/layout';
import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { cidProfile } from '../../../main/content/cid-profile.js';
import { DEFAULT_LAYOUT, EMPTY_DIRECTORY_CID, editDirectory, lookupEntry, removePath, setPath } from '../../../main/content/directory/index.js';
import { importFile } from '../../../main/content/import/import-file.js';
import { CONTRACT_LAYOUT } from '../../../main/content/import/unixfs-options.js';
import { directoryVector, fileVectorBytes, loadVectors, type UnixfsVector } from './import/vectors.js';

const CHUNK = 262_144;
const LEGACY = cidProfile('unixfs-v0-2015');

/**
 * Kubo's legacy `ipfs add` defaults spelled out as ipfs-unixfs-importer options (what Kubo's
 * unixfs-v0-2015 profile fixes): CIDv0, dag-pb leaves of UnixFS type `file`, 256 KiB chunks, at most 174
 * links a node, balanced, a one-chunk file is its own leaf, HAMT over 256 KiB of link name + CID bytes.
 */
function legacyImporterOptions(chunkSize = CHUNK): ImporterOptions {
  return {
    cidVersion: 0,
    rawLeaves: false,
    leafType: 'file',
    reduceSingleLeafToSelf: true,
    chunker: fixedSize({ chunkSize }),
    layout: balanced({ maxChildrenPerNode: 174 }),
    shardSplitThresholdBytes: 262_144,
    shardSplitStrategy: 'links-bytes',
  };
}

async function importerRoot(source: Parameters<typeof importer>[0], options: ImporterOptions): Promise<CID> {
  let root: CID | undefined;
  for await (const entry of importer(source, new MemoryBlockstore(), options)) root = entry.cid;
  if (root === undefined) throw new Error('importer yielded nothing');
  return root;
}

/** Deterministic bytes: the same input on every run, different in every chunk. */
function bytesOf(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = 0x9e3779b9;
  for (let i = 0; i < size; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

describe('cidProfile', () => {
  it('unixfs-v1-2025 is the contract layout Pinfold has always used', () => {
    const profile = cidProfile('unixfs-v1-2025');
    expect(profile.file).toEqual(CONTRACT_LAYOUT);
    expect(profile.directory).toEqual(DEFAULT_LAYOUT);
    expect(profile.emptyDirectory.equals(EMPTY_DIRECTORY_CID)).toBe(true);
  });

  it('unixfs-v0-2015 starts trees from the CIDv0 empty directory', () => {
    expect(LEGACY.emptyDirectory.toString()).toBe('QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn');
  });
});

describe('unixfs-v0-2015 files: the same CIDs as ipfs-unixfs-importer with Kubo legacy options', () => {
  const sizes: Array<[string, number]> = [
    ['empty', 0],
    ['1 byte', 1],
    ['exactly one chunk', CHUNK],
    ['one chunk + 1', CHUNK + 1],
    ['174 chunks (one full node)', 174 * CHUNK],
    ['175 chunks (two levels)', 175 * CHUNK],
    ['175 chunks + 1 byte', 175 * CHUNK + 1],
  ];

  it.each(sizes)('%s', async (_label, size) => {
    const bytes = bytesOf(size);
    const ours = await importFile(new MemoryBlockstore(), [bytes], LEGACY.file);
    const reference = await importerRoot([{ content: [bytes] }], legacyImporterOptions());
    expect(ours.cid.toString()).toBe(reference.toString());
    expect(ours.cid.version).toBe(0);
    expect(ours.size).toBe(size);
    // The importer's own name for the profile agrees with the options spelled out.
    expect((await importerRoot([{ content: [bytes] }], { profile: 'unixfs-v0-2015' })).toString()).toBe(reference.toString());
  });

  it('three levels (174 x 174 + 1 leaves; 16-byte chunks keep the input small)', async () => {
    const bytes = bytesOf((174 * 174 + 1) * 16);
    const ours = await importFile(new MemoryBlockstore(), [bytes], { ...LEGACY.file, chunkSize: 16 });
    expect(ours.cid.toString()).toBe((await importerRoot([{ content: [bytes] }], legacyImporterOptions(16))).toString());
  });

  it('differs from the default profile for the same bytes (CIDv0 dag-pb vs CIDv1 raw)', async () => {
    const bytes = randomBytes(CHUNK + 1);
    const legacy = await importFile(new MemoryBlockstore(), [bytes], LEGACY.file);
    const modern = await importFile(new MemoryBlockstore(), [bytes], cidProfile('unixfs-v1-2025').file);
    expect(legacy.cid.toString()).toMatch(/^Qm/);
    expect(modern.cid.toString()).toMatch(/^bafkrei/);
  });
});

/** Files `name -> bytes` under one directory, made by DAG adds (setPath) from the profile's empty directory. */
async function dagAddTree(store: MemoryBlockstore, files: ReadonlyArray<{ path: string; content?: Uint8Array }>): Promise<CID> {
  let root = LEGACY.emptyDirectory;
  for (const file of files) {
    const segments = file.path.split('/');
    const cid = file.content === undefined ? LEGACY.emptyDirectory : (await importFile(store, [file.content], LEGACY.file)).cid;
    root = (await setPath(store, root, segments, cid, LEGACY.directory)).cid;
  }
  return root;
}

describe("unixfs-v0-2015 directories: DAG add and directory edits give the importer's legacy CIDs", () => {
  it('a plain directory tree, its subdirectories included', async () => {
    const files = [
      { path: 'docs/a.txt', content: bytesOf(10) },
      { path: 'docs/deep/b.bin', content: bytesOf(CHUNK + 7) },
      { path: 'c.txt', content: bytesOf(0) },
      { path: 'ü and space.txt', content: bytesOf(3) },
    ];
    const store = new MemoryBlockstore();
    const root = await dagAddTree(store, files);
    const reference = await importerRoot(files, { ...legacyImporterOptions(), wrapWithDirectory: true });
    expect(root.toString()).toBe(reference.toString());
    expect(root.version).toBe(0);
    expect((await lookupEntry(store, root, 'docs'))?.cid.version).toBe(0);

    // DAG remove writes CIDv0 directories too: the tree without one file is the importer's tree without it.
    const removed = await removePath(store, root, ['docs', 'deep', 'b.bin'], LEGACY.directory);
    const withoutB = await importerRoot([...files.filter((file) => file.path !== 'docs/deep/b.bin'), { path: 'docs/deep' }], {
      ...legacyImporterOptions(),
      wrapWithDirectory: true,
    });
    expect(removed.cid.toString()).toBe(withoutB.toString());
  });

  it('a directory large enough to shard, and back: the HAMT threshold counts CIDv0 link bytes', async () => {
    // 32-byte names + 34-byte CIDv0 hashes: 3971 entries are 262,086 bytes (plain), 3972 are 262,152 (HAMT).
    const name = (i: number) => `entry-${i.toString().padStart(26, '0')}`;
    const files = Array.from({ length: 3972 }, (_, i) => ({ path: name(i), content: new TextEncoder().encode(`file ${i}\n`) }));
    const store = new MemoryBlockstore();
    const pairs: Array<[string, CID]> = [];
    for (const file of files) pairs.push([file.path, (await importFile(store, [file.content], LEGACY.file)).cid]);
    expect(pairs.every(([, cid]) => cid.bytes.byteLength === 34)).toBe(true);

    const options = { ...legacyImporterOptions(), wrapWithDirectory: true };
    const sharded = await editDirectory(store, EMPTY_DIRECTORY_CID, { add: pairs }, LEGACY.directory);
    expect(sharded.stats).toMatchObject({ kind: 'hamt', entries: 3972, linksBytes: 262_152 });
    expect(sharded.cid.toString()).toBe((await importerRoot(files, options)).toString());
    expect(sharded.cid.version).toBe(0);

    const plain = await editDirectory(store, sharded.cid, { remove: [name(3971)] }, { ...LEGACY.directory, statsOf: () => sharded.stats });
    expect(plain.stats).toMatchObject({ kind: 'plain', entries: 3971, linksBytes: 262_086 });
    expect(plain.cid.toString()).toBe((await importerRoot(files.slice(0, 3971), options)).toString());
  });
});

describe("unixfs-v0-2015 gives Kubo's own CIDs for `ipfs add` without options", () => {
  const isLegacyAdd = (vector: UnixfsVector) => vector.options.cid_version === 0 && !vector.options.raw_leaves && vector.options.hash === 'sha2-256';

  it('files', async () => {
    const vectors = (await loadVectors()).filter((vector) => isLegacyAdd(vector) && fileVectorBytes(vector) !== undefined);
    expect(vectors.length).toBeGreaterThanOrEqual(10);
    for (const vector of vectors) {
      const result = await importFile(new MemoryBlockstore(), [(await fileVectorBytes(vector)) as Uint8Array], LEGACY.file);
      // Kubo printed one of them in its CIDv1 base32 form: compare in the form given.
      const expected = CID.parse(vector.expected_cid);
      expect((expected.version === 1 ? result.cid.toV1() : result.cid).toString(), vector.id).toBe(vector.expected_cid);
    }
  });

  it('directories, built by DAG adds', async () => {
    const vectors = (await loadVectors()).filter((vector) => isLegacyAdd(vector) && fileVectorBytes(vector) === undefined);
    let checked = 0;
    for (const vector of vectors) {
      const tree = await directoryVector(vector);
      if (tree === undefined) continue;
      const store = new MemoryBlockstore();
      const files = await Promise.all(
        tree.entries.map(async (entry) => {
          if (entry.content === undefined) return { path: entry.path };
          const parts: Uint8Array[] = [];
          for await (const part of entry.content) parts.push(part);
          return { path: entry.path, content: Buffer.concat(parts) };
        }),
      );
      const root = await dagAddTree(store, files);
      let target: CID = root;
      for (const segment of tree.target.split('/').filter((s) => s !== '')) target = (await lookupEntry(store, target, segment))?.cid ?? LEGACY.emptyDirectory;
      expect(target.toString(), vector.id).toBe(vector.expected_cid);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
