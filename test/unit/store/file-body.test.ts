import { randomBytes } from 'node:crypto';
import { readdirSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../helpers/until.js';
import { FileBody } from '../../../main/store/objects/file-body.js';
import { PieceBuffers } from '../../../main/store/objects/piece-buffers.js';

const PIECE = 64 * 1024;

/**
 * A destination that takes its time: each write's callback comes a macrotask later, and the chunk's bytes
 * are checked then against the copy taken at write time, so a sender that refilled a buffer before the
 * callback would be caught.
 */
class SlowSink extends Writable {
  readonly received: Buffer[] = [];
  readonly memory = new Set<ArrayBufferLike>();
  reusedTooEarly = false;

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const copy = Buffer.from(chunk);
    this.memory.add(chunk.buffer);
    setImmediate(() => {
      if (!chunk.equals(copy)) this.reusedTooEarly = true;
      this.received.push(copy);
      callback();
    });
  }
}

/** How many of this process's file descriptors are open on `path` (Linux: /proc). */
function descriptorsOn(path: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === path;
    } catch {
      return false; // closed since the listing
    }
  }).length;
}

function finished(sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    sink.once('finish', () => resolve());
    sink.once('error', reject);
  });
}

describe('FileBody: a file as a PutObject body', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-file-body-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function fileOf(size: number): Promise<{ path: string; bytes: Buffer }> {
    const bytes = randomBytes(size);
    const path = join(dir, `${size}.spool`);
    await writeFile(path, bytes);
    return { path, bytes };
  }

  it('pipes the whole file in pieces from two buffers, refilling one only once the destination has taken it', async () => {
    const { path, bytes } = await fileOf(16 * PIECE + 123);
    const sink = new SlowSink();
    new FileBody(path, bytes.byteLength, new PieceBuffers(PIECE, 0)).pipe(sink);
    await finished(sink);
    expect(Buffer.concat(sink.received).equals(bytes)).toBe(true);
    // 17 writes: sixteen whole pieces and the last 123 bytes, not a read stream's 64 KiB a write in fresh memory.
    expect(sink.received.map((piece) => piece.byteLength)).toEqual([...Array.from({ length: 16 }, () => PIECE), 123]);
    expect(sink.memory.size).toBe(2);
    expect(sink.reusedTooEarly).toBe(false);
  });

  it('sends the whole file again on each pipe (a retried request pipes its body again)', async () => {
    const { path, bytes } = await fileOf(3 * PIECE);
    const body = new FileBody(path, bytes.byteLength, new PieceBuffers(PIECE, 0));
    for (let attempt = 0; attempt < 2; attempt++) {
      const sink = new SlowSink();
      body.pipe(sink);
      await finished(sink);
      expect(Buffer.concat(sink.received).equals(bytes)).toBe(true);
    }
  });

  it('gives its buffers back once every write is acknowledged: the next file goes out through the same memory', async () => {
    const buffers = new PieceBuffers(PIECE, 2);
    const first = await fileOf(4 * PIECE);
    const second = await fileOf(3 * PIECE);
    const [before, after] = [new SlowSink(), new SlowSink()];
    new FileBody(first.path, first.bytes.byteLength, buffers).pipe(before);
    await finished(before);
    new FileBody(second.path, second.bytes.byteLength, buffers).pipe(after);
    await finished(after);
    expect(Buffer.concat(after.received).equals(second.bytes)).toBe(true);
    // The same two ArrayBuffers, compared by identity.
    expect(after.memory.size).toBe(2);
    expect([...after.memory].every((memory) => before.memory.has(memory))).toBe(true);
  });

  it('keeps no buffer of a send that failed (a write may still hold it), and at most as many as it was told', async () => {
    const buffers = new PieceBuffers(PIECE, 1);
    const short = await fileOf(3 * PIECE);
    const failing = new SlowSink();
    new FileBody(short.path, short.bytes.byteLength + 1, buffers).pipe(failing);
    await expect(finished(failing)).rejects.toThrow('ends at byte');
    const taken = buffers.take();
    expect(failing.memory.has(taken.buffer)).toBe(false);
    const whole = await fileOf(2 * PIECE);
    const sink = new SlowSink();
    new FileBody(whole.path, whole.bytes.byteLength, buffers).pipe(sink);
    await finished(sink);
    const kept = [buffers.take(), buffers.take()].filter((buffer) => sink.memory.has(buffer.buffer));
    expect(kept).toHaveLength(1);
  });

  it('destroys the destination with a clear error when the file ends before its size, rather than leaving it waiting', async () => {
    const { path, bytes } = await fileOf(2 * PIECE + 10);
    const sink = new SlowSink();
    new FileBody(path, bytes.byteLength + 5, new PieceBuffers(PIECE, 0)).pipe(sink);
    await expect(finished(sink)).rejects.toThrow(`ends at byte ${bytes.byteLength}, before the ${bytes.byteLength + 5} bytes`);
    expect(sink.destroyed).toBe(true);
  });

  it('stops sending and closes the file when the request is destroyed while it waits for a socket (its write callbacks never come)', async () => {
    const { path, bytes } = await fileOf(8 * PIECE);
    // A server that never answers, and an agent of one socket that the first request holds: the second waits.
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ maxSockets: 1 });
    const ignore = (): void => undefined;
    try {
      const holder = request({ port, agent, method: 'PUT', headers: { 'content-length': 1 } }).on('error', ignore);
      holder.write('x');
      const waiting = request({ port, agent, method: 'PUT', headers: { 'content-length': bytes.byteLength } }).on('error', ignore);
      new FileBody(path, bytes.byteLength, new PieceBuffers(PIECE, 0)).pipe(waiting);
      await until('the body to be queued on the waiting request', () => (waiting.writableLength > 0 ? true : undefined), 5000);
      // Destroyed while queued, it closes once the agent hands it the socket the holder lets go of.
      waiting.destroy();
      holder.destroy();
      await until('the file to be closed', () => (descriptorsOn(path) === 0 ? true : undefined), 5000);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      server.close();
    }
  });

  it('reads the ordinary way too: async iteration yields the same bytes, in pieces', async () => {
    const { path, bytes } = await fileOf(5 * PIECE + 7);
    const pieces: Buffer[] = [];
    for await (const piece of new FileBody(path, bytes.byteLength, new PieceBuffers(PIECE, 0))) pieces.push(piece as Buffer);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    expect(Math.max(...pieces.map((piece) => piece.byteLength))).toBe(PIECE);
  });

  it('fails an ordinary read of a file shorter than its size', async () => {
    const { path, bytes } = await fileOf(PIECE + 1);
    const read = async () => {
      for await (const piece of new FileBody(path, bytes.byteLength + 1, new PieceBuffers(PIECE, 0))) void piece;
    };
    await expect(read()).rejects.toThrow(`ends at byte ${bytes.byteLength}`);
  });
});
