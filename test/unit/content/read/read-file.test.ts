import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CID } from 'multiformats/cid';
import { BadInputError, NotFoundError } from '../../../../main/base/errors.js';
import { inspectNode } from '../../../../main/content/read/inspect-node.js';
import { readFileContent } from '../../../../main/content/read/read-file.js';
import { resolvePath } from '../../../../main/content/read/resolve-path.js';
import { GC, storeFromCars, text } from './fixture-store.js';
import { collectBytes } from '../../../helpers/collect.js';

const MULTIBLOCK = CID.parse('bafybeigcisqd7m5nf3qmuvjdbakl5bdnh4ocrmacaqkpuh77qjvggmt2sa');

describe('readFileContent', () => {
  it('streams a multi-block file whole and by ranges that cross leaves', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const info = await inspectNode(store, MULTIBLOCK);
    expect(info.kind).toBe('file');
    expect(info.size).toBe(1026);
    const whole = await collectBytes(readFileContent(store, info));
    expect(createHash('sha256').update(whole).digest('hex')).toBe('998785f13287a9aabc2d7048e4c2905d502ff13ef40f2d135f163b5a762701c5');
    for (const [offset, length] of [
      [0, 1],
      [250, 20],
      [255, 2],
      [1020, 6],
      [1024, 100],
      [300, 700],
    ] as const) {
      const part = await collectBytes(readFileContent(store, info, { offset, length }));
      expect(Buffer.from(part).equals(Buffer.from(whole.subarray(offset, offset + length)))).toBe(true);
    }
    expect(await collectBytes(readFileContent(store, info, { offset: 2000 }))).toHaveLength(0);
  });

  it('reads ranges of the 109 MB partial DAG from the blocks present only', async () => {
    const store = await storeFromCars('kubo/test/cli/fixtures/TestGatewayMultiRange.car');
    const info = await inspectNode(store, CID.parse('bafybeiae5abzv6j3ucqbzlpnx3pcqbr2otbnpot7d2k5pckmpymin4guau'));
    expect(info.size).toBe(109266405);
    expect(text(await collectBytes(readFileContent(store, info, { offset: 1276, length: 4 })))).toBe('iana');
    expect(text(await collectBytes(readFileContent(store, info, { offset: 29839070, length: 11 })))).toBe('EXAMPLE.COM');
    // Bytes in blocks that are not held: a clean NotFoundError, not a hang or a short read.
    await expect(collectBytes(readFileContent(store, info, { offset: 60_000_000, length: 10 }))).rejects.toBeInstanceOf(NotFoundError);
  });

  it('serves raw leaves, identity CIDs and symlink targets', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/symlink.car`);
    const root = CID.parse('QmWvY6FaqFMS89YAQ9NAPjVP4WZKA1qbHbicc9HeSKQTgt');
    const bar = await inspectNode(store, (await resolvePath(store, root, ['bar'])).cid);
    expect(bar.kind).toBe('symlink');
    expect(text(await collectBytes(readFileContent(store, bar)))).toBe('foo');
    const foo = await inspectNode(store, (await resolvePath(store, root, ['foo'])).cid);
    expect(text(await collectBytes(readFileContent(store, foo)))).toBe('content\n');
    const inline = await inspectNode(store, CID.parse('bafkqabtimvwgy3yk'));
    expect(text(await collectBytes(readFileContent(store, inline)))).toBe('hello\n');
    expect(text(await collectBytes(readFileContent(store, inline, { offset: 1, length: 3 })))).toBe('ell');
  });

  it('rejects directories and bad ranges', async () => {
    const store = await storeFromCars(`${GC}path_gateway_unixfs/dir-with-files.car`);
    const dir = await inspectNode(store, CID.parse('bafybeihchr7vmgjaasntayyatmp5sv6xza57iy2h4xj7g46bpjij6yhrmy'));
    expect(dir.kind).toBe('directory');
    await expect(collectBytes(readFileContent(store, dir))).rejects.toBeInstanceOf(BadInputError);
    const file = await inspectNode(store, MULTIBLOCK);
    await expect(collectBytes(readFileContent(store, file, { offset: -1 }))).rejects.toBeInstanceOf(BadInputError);
    await expect(collectBytes(readFileContent(store, file, { length: 1.5 }))).rejects.toBeInstanceOf(BadInputError);
  });
});
