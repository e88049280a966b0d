import { describe, expect, it } from 'vitest';
import { fixedChunks } from '../../../../main/content/import/fixed-chunks.js';

async function chunksOf(pieces: Uint8Array[], size: number, transfer: boolean): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of fixedChunks(pieces, size, { transfer })) out.push(chunk);
  return out;
}

const bytes = (length: number, fill: number): Uint8Array => new Uint8Array(length).fill(fill);

describe('fixedChunks', () => {
  it('cuts pieces into chunks of the size, the last one shorter, whatever the piece sizes', async () => {
    const chunks = await chunksOf([bytes(3, 1), bytes(6, 2), bytes(2, 3)], 4, false);
    expect(chunks.map((c) => [...c])).toEqual([
      [1, 1, 1, 2],
      [2, 2, 2, 2],
      [2, 3, 3],
    ]);
  });

  it('yields one empty chunk for an empty stream', async () => {
    expect((await chunksOf([], 4, false)).map((c) => c.byteLength)).toEqual([0]);
    expect((await chunksOf([], 4, true)).map((c) => c.byteLength)).toEqual([0]);
  });

  it('copies every piece unless the source transfers them (it may reuse its buffers)', async () => {
    const piece = bytes(3, 7);
    const [copied] = await chunksOf([piece], 4, false);
    expect(copied).not.toBe(piece);
    expect([...(copied as Uint8Array)]).toEqual([7, 7, 7]);
  });

  it('with transfer, hands a stream of one short piece over as it is, and copies anything longer', async () => {
    const piece = bytes(3, 7);
    const [whole] = await chunksOf([piece], 4, true);
    expect(whole).toBe(piece);

    const first = bytes(3, 1);
    const chunks = await chunksOf([first, bytes(3, 2)], 4, true);
    expect(chunks.map((c) => [...c])).toEqual([
      [1, 1, 1, 2],
      [2, 2],
    ]);
    expect(chunks[0]).not.toBe(first);
  });
});
