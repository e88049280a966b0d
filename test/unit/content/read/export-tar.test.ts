import { MemoryBlockstore } from 'blockstore-core/memory';
import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { NotAcceptableError } from '../../../../main/base/errors.js';
import { exportTar } from '../../../../main/content/read/export-tar.js';
import { inspectNode } from '../../../../main/content/read/inspect-node.js';
import { GC, storeFromCars, text } from './fixture-store.js';
import {
  deepEscapeDag,
  directoryBlock,
  FILE_TEXT,
  INSIDE_ROOT,
  insideRootDag,
  OUTSIDE_ROOT,
  outsideRootDag,
  type BuiltDag,
} from '../../../helpers/relative-path-dags.js';
import { parseTar } from '../../../helpers/tar-check.js';
import { collectBytes } from '../../../helpers/collect.js';
import { rawBlock } from '../../../helpers/raw-blocks.js';

describe('exportTar', () => {
  it('archives a tree with UTF-8 names', async () => {
    const store = await storeFromCars(`${GC}dir_listing/fixtures.car`);
    const root = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
    const entries = parseTar(await collectBytes(exportTar(store, await inspectNode(store, CID.parse(root)), root)));
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(text(byName.get(`${root}/ą/ę/file-źł.txt`)!.content)).toBe('I am a txt file on path with utf8\n');
    expect(byName.get(`${root}/ą/`)?.type).toBe('5');
    expect(text(byName.get(`${root}/api/file.txt`)!.content)).toBe('I am a txt file in confusing /api dir\n');
    expect(entries).toHaveLength(10);
  });

  it('archives a single file, a multi-block file and a symlink', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`, `${GC}path_gateway_unixfs/symlink.car`);
    const file = 'bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa';
    const [entry] = parseTar(await collectBytes(exportTar(store, await inspectNode(store, CID.parse(file)), file)));
    expect(entry?.name).toBe(file);
    expect(entry?.content.byteLength).toBe(1026);
    const links = parseTar(await collectBytes(exportTar(store, await inspectNode(store, CID.parse('QmWvY6FaqFMS89YAQ9NAPjVP4WZKA1qbHbicc9HeSKQTgt')), 'x')));
    expect(links.find((e) => e.name === 'x/bar')).toMatchObject({ type: '2', linkName: 'foo' });
  });

  it('uses PAX for names longer than 100 bytes', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const file = 'bafkreifkam6ns4aoolg3wedr4uzrs3kvq66p4pecirz6y2vlrngla62mxm';
    const long = 'n'.repeat(150);
    const [entry] = parseTar(await collectBytes(exportTar(store, await inspectNode(store, CID.parse(file)), long)));
    expect(entry?.name).toBe(long);
    expect(text(entry!.content)).toBe('hello application/vnd.ipld.car\n');
  });
});

describe('exportTar: entry names holding "/" or ".." (gateway-conformance path_gateway_tar)', () => {
  async function storeOf(...dags: BuiltDag[]): Promise<MemoryBlockstore> {
    const store = new MemoryBlockstore();
    for (const dag of dags) for (const block of dag.blocks) await store.put(block.cid, block.bytes);
    return store;
  }

  /** A top directory holding one directory `d` whose only entry is named `name`. */
  async function nested(name: string): Promise<BuiltDag> {
    const file = rawBlock(new TextEncoder().encode(FILE_TEXT));
    const inner = await directoryBlock([{ name, cid: file.cid, tsize: file.bytes.byteLength }]);
    const top = await directoryBlock([{ name: 'd', cid: inner.cid }]);
    return { root: top.cid, blocks: [top, inner, file] };
  }

  async function names(store: MemoryBlockstore, root: CID): Promise<string[]> {
    return parseTar(await collectBytes(exportTar(store, await inspectNode(store, root), 'top'))).map((entry) => entry.name);
  }

  it('normalises a path that stays inside the root, as Kubo does (inside-root.car)', async () => {
    const dag = await insideRootDag();
    expect(dag.root.toString()).toBe(INSIDE_ROOT);
    const store = await storeOf(dag);
    const entries = parseTar(await collectBytes(exportTar(store, await inspectNode(store, dag.root), INSIDE_ROOT)));
    expect(entries.map((entry) => [entry.name, entry.type])).toEqual([
      [`${INSIDE_ROOT}/`, '5'],
      [`${INSIDE_ROOT}/foobar/`, '5'],
      [`${INSIDE_ROOT}/foobar/directory/`, '5'],
      [`${INSIDE_ROOT}/foobar/file`, '0'],
    ]);
    expect(text(entries[3]?.content ?? new Uint8Array())).toBe(FILE_TEXT);
    const slash = await nested('sub/file');
    expect(await names(await storeOf(slash), slash.root)).toEqual(['top/', 'top/d/', 'top/d/sub/file']);
  });

  it('refuses a top directory with a name leading out of the root when called, before the stream starts (outside-root.car)', async () => {
    const dag = await outsideRootDag();
    expect(dag.root.toString()).toBe(OUTSIDE_ROOT);
    const store = await storeOf(dag);
    const info = await inspectNode(store, dag.root);
    expect(() => exportTar(store, info, OUTSIDE_ROOT)).toThrow(NotAcceptableError);
    expect(() => exportTar(store, info, OUTSIDE_ROOT)).toThrow(/tar cannot hold entry "\.\.\/foo" of .*relative UnixFS paths outside the root are not allowed/);
  });

  it('fails the stream at a name further down that leaves the root, after what came before it', async () => {
    const dag = await deepEscapeDag();
    const store = await storeOf(dag);
    const got: Uint8Array[] = [];
    const error = await (async () => {
      for await (const chunk of exportTar(store, await inspectNode(store, dag.root), 'top')) got.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAcceptableError);
    expect(parseTar(Buffer.concat(got)).map((entry) => entry.name)).toEqual(['top/', 'top/ok.txt']);
  });

  it.each(['..', '.', 'x/../..', '../d', '', 'a\0b', '../../other'])(
    'refuses an entry named %j below the top (out of the root, or onto a directory above)',
    async (name) => {
      const dag = await nested(name);
      const store = await storeOf(dag);
      await expect(names(store, dag.root)).rejects.toThrow(NotAcceptableError);
    },
  );
});
