import { readFile } from 'node:fs/promises';
import type { TreeEntry } from '../../../../main/content/import/import-directory-tree.js';
import type { UnixfsLayoutOptions } from '../../../../main/content/import/unixfs-options.js';

/** Known-answer UnixFS vectors of the shared fixtures, with their inputs rebuilt from the recipes. */

const FIXTURES = new URL('../../../fixtures/', import.meta.url);

export interface UnixfsVector {
  id: string;
  bytes_recipe: string;
  options: { cid_version: 0 | 1; raw_leaves: boolean; chunker: string; max_links: number; hash: string; wrap?: boolean };
  expected_cid: string;
  expected_child_cids?: Record<string, string>;
  input_files?: Record<string, string>;
}

export async function loadVectors(): Promise<UnixfsVector[]> {
  return JSON.parse(await readFile(new URL('unixfs-vectors.json', FIXTURES), 'utf8')) as UnixfsVector[];
}

export function vectorLayout(vector: UnixfsVector): UnixfsLayoutOptions {
  const chunk = /^size-(\d+)$/.exec(vector.options.chunker);
  if (chunk === null) throw new Error(`${vector.id}: unknown chunker ${vector.options.chunker}`);
  return {
    cidVersion: vector.options.cid_version,
    rawLeaves: vector.options.raw_leaves,
    chunkSize: Number(chunk[1]),
    maxChildrenPerNode: vector.options.max_links,
    hashCode: vector.options.hash === 'sha2-512' ? 0x13 : 0x12,
  };
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

/** The bytes of a single-file vector, or undefined for directory vectors. */
export function fileVectorBytes(vector: UnixfsVector): Promise<Uint8Array> | undefined {
  const recipe = vector.bytes_recipe;
  if (vector.input_files !== undefined) {
    const files = Object.values(vector.input_files);
    if (!recipe.startsWith('file ') || files.length !== 1) return undefined;
    return readFile(new URL(files[0] as string, FIXTURES));
  }
  let match = /^echo "([^"]*)"/.exec(recipe);
  if (match !== null && !recipe.includes('>')) return Promise.resolve(text(`${match[1]}\n`));
  match = /^printf "([^"]*)"/.exec(recipe);
  if (match !== null) return Promise.resolve(text((match[1] as string).replaceAll('\\n', '\n')));
  if (recipe.startsWith('touch ')) return Promise.resolve(new Uint8Array(0));
  match = /^head -c (\d+) \/dev\/zero/.exec(recipe);
  if (match !== null) return Promise.resolve(new Uint8Array(Number(match[1])));
  return undefined;
}

export interface DirectoryVector {
  entries: TreeEntry[];
  /** Path (inside the wrapping root) of the directory whose CID the vector gives; '' for the root. */
  target: string;
}

const longName = (i: number): string =>
  `long name to fill out bytes to make the sharded directory test flip over the sharded directory limit because link names are included in the directory entry ${i}`;

/** Directory vectors as trees of entries. */
export async function directoryVector(vector: UnixfsVector): Promise<DirectoryVector | undefined> {
  const files = (dir: string, contents: Record<string, string>): TreeEntry[] =>
    Object.entries(contents).map(([name, value]) => ({ path: `${dir}/${name}`, content: [text(value)] }));
  const input = async (name: string): Promise<Uint8Array> => readFile(new URL(`unixfs-inputs/${name}`, FIXTURES));
  switch (vector.id) {
    case 'empty-dir-v0':
    case 'empty-dir-v1':
      return { entries: [{ path: 'd' }], target: 'd' };
    case 'kubo-planets-v0':
    case 'kubo-planets-v1':
    case 'kubo-planets-v1-norawleaves':
      return { entries: files('planets', { 'mars.txt': 'Hello Mars!\n', 'venus.txt': 'Hello Venus!\n' }), target: 'planets' };
    case 'kubo-moons-v0':
      return {
        entries: files('moons', {
          'jupiter/europa.txt': 'Hello Europa!\n',
          'saturn/titan.txt': 'Hello Titan!\n',
          'mercury.txt': 'hey you are no moon!\n',
        }),
        target: 'moons',
      };
    case 'kubo-mfs-test-dir-v1':
      return { entries: files('test', { 'mfs1.txt': 'file1\n', 'mfs2.txt': 'file2\n' }), target: 'test' };
    case 'gc-dir-listing-rootDir-v1':
      return {
        entries: files('rootDir', {
          'ą/ę/file-źł.txt': 'I am a txt file on path with utf8\n',
          'api/file.txt': 'I am a txt file in confusing /api dir\n',
          'ipfs/file.txt': 'I am a txt file in confusing /ipfs dir\n',
          'ipns/file.txt': 'I am a txt file in confusing /ipns dir\n',
        }),
        target: 'rootDir',
      };
    case 'gc-gateway-cache-wrapped-v1':
      return { entries: files('root2', { 'root3/root4/index.html': 'hello\n' }), target: '' };
    case 'gc-testdirlisting-v1':
      return {
        entries: files('testdirlisting', {
          hello: 'hello\n',
          'ipfs/ipns/bar': 'text-file-content\n',
          'api/file.txt': 'I am a txt file\n',
          'ipfs/file.txt': 'I am a txt file\n',
        }),
        target: 'testdirlisting',
      };
    case 'jsunixfs-autoshard-1343-v1':
      return {
        entries: Array.from({ length: 1343 }, (_, i) => ({ path: `rootDir/${longName(i)}`, content: [text(longName(i))] })),
        target: 'rootDir',
      };
    case 'jsunixfs-pim-dir-v0':
      return {
        entries: [
          { path: 'pim/200Bytes.txt', content: [await input('200Bytes.txt')] },
          { path: 'pim/1.2MiB.txt', content: [await input('1.2MiB.txt')] },
        ],
        target: 'pim',
      };
    case 'jsunixfs-foo-big-v0':
      return { entries: [{ path: 'foo-big/1.2MiB.txt', content: [await input('1.2MiB.txt')] }], target: 'foo-big' };
    default:
      return undefined;
  }
}
