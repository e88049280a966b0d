import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { exportTar } from '../../../../main/content/read/export-tar.js';
import { inspectNode } from '../../../../main/content/read/inspect-node.js';
import { GC, collect, storeFromCars, text } from './fixture-store.js';
import { parseTar } from './tar-check.js';

describe('exportTar', () => {
  it('archives a tree with UTF-8 names', async () => {
    const store = await storeFromCars(`${GC}dir_listing/fixtures.car`);
    const root = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
    const entries = parseTar(await collect(exportTar(store, await inspectNode(store, CID.parse(root)), root)));
    const byName = new Map(entries.map((e) => [e.name, e]));
    expect(text(byName.get(`${root}/ą/ę/file-źł.txt`)!.content)).toBe('I am a txt file on path with utf8\n');
    expect(byName.get(`${root}/ą/`)?.type).toBe('5');
    expect(text(byName.get(`${root}/api/file.txt`)!.content)).toBe('I am a txt file in confusing /api dir\n');
    expect(entries).toHaveLength(10);
  });

  it('archives a single file, a multi-block file and a symlink', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`, `${GC}path_gateway_unixfs/symlink.car`);
    const file = 'bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa';
    const [entry] = parseTar(await collect(exportTar(store, await inspectNode(store, CID.parse(file)), file)));
    expect(entry?.name).toBe(file);
    expect(entry?.content.byteLength).toBe(1026);
    const links = parseTar(await collect(exportTar(store, await inspectNode(store, CID.parse('QmWvY6FaqFMS89YAQ9NAPjVP4WZKA1qbHbicc9HeSKQTgt')), 'x')));
    expect(links.find((e) => e.name === 'x/bar')).toMatchObject({ type: '2', linkName: 'foo' });
  });

  it('uses PAX for names longer than 100 bytes', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const file = 'bafkreifkam6ns4aoolg3wedr4uzrs3kvq66p4pecirz6y2vlrngla62mxm';
    const long = 'n'.repeat(150);
    const [entry] = parseTar(await collect(exportTar(store, await inspectNode(store, CID.parse(file)), long)));
    expect(entry?.name).toBe(long);
    expect(text(entry!.content)).toBe('hello application/vnd.ipld.car\n');
  });
});
