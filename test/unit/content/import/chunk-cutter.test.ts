import { describe, expect, it } from 'vitest';
import { ChunkCutter } from '../../../../main/content/import/chunk-cutter.js';
import type { ChunkMemory } from '../../../../main/content/import/readable-chunks.js';

/** Lent memory that keeps what is out, so a test sees every chunk come back. */
function keptMemory(): ChunkMemory & { out: Set<Uint8Array> } {
  const out = new Set<Uint8Array>();
  return {
    out,
    allocate(length) {
      const bytes = new Uint8Array(length);
      out.add(bytes);
      return bytes;
    },
    release(bytes) {
      out.delete(bytes);
    },
  };
}

const piece = (...values: number[]): Uint8Array => Uint8Array.from(values);

describe('chunk cutter', () => {
  it('cuts pieces of any length into whole chunks across piece edges, in order', () => {
    const cutter = new ChunkCutter(3, keptMemory());
    cutter.cut(piece(1, 2));
    expect(cutter.ready).toEqual([]);
    cutter.cut(piece(3, 4, 5, 6, 7));
    expect(cutter.ready.map((chunk) => [...chunk])).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    cutter.cut(piece());
    expect(cutter.ready).toHaveLength(2);
  });

  it('hands the rest as an exact-size copy and gives back the chunk it was cut from', () => {
    const memory = keptMemory();
    const cutter = new ChunkCutter(4, memory);
    cutter.cut(piece(1, 2, 3, 4, 5, 6));
    const whole = cutter.ready.shift() as Uint8Array;
    const rest = cutter.takeRest() as Uint8Array;
    expect([...rest]).toEqual([5, 6]);
    expect(rest.byteLength).toBe(2);
    expect([...memory.out]).toEqual([whole, rest]);
    expect(cutter.takeRest()).toBeUndefined();
  });

  it('has no rest when the bytes end on a chunk edge', () => {
    const cutter = new ChunkCutter(2, keptMemory());
    cutter.cut(piece(1, 2));
    expect(cutter.takeRest()).toBeUndefined();
  });

  it('gives back every chunk not taken and the one being filled', () => {
    const memory = keptMemory();
    const cutter = new ChunkCutter(2, memory);
    cutter.cut(piece(1, 2, 3, 4, 5));
    const taken = cutter.ready.shift() as Uint8Array;
    cutter.releaseAll();
    expect([...memory.out]).toEqual([taken]);
    expect(cutter.ready).toEqual([]);
    expect(cutter.takeRest()).toBeUndefined();
  });
});
