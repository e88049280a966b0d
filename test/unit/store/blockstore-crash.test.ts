import { spawn } from 'node:child_process';
import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openBlockstore } from '../../../main/store/blockstore/blockstore.js';
import { rawBlock } from '../../helpers/raw-blocks.js';
import { tempDir } from '../../helpers/temp-dirs.js';
import { packBytes } from '../../helpers/pack-files.js';

const writer = fileURLToPath(new URL('./crash-writer.ts', import.meta.url));

function runUntilKilled(dir: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => (signal === null ? reject(new Error(`writer exited ${code}: ${stderr}`)) : resolve(signal)));
  });
}

describe('blockstore crash safety', () => {
  it('a crash between pack write and index leaves no index entry without bytes and nothing dangling visible', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      expect(await runUntilKilled(dir)).toBe('SIGKILL');
      // The staged megabytes reached the pack, yet none of them is visible.
      expect(await packBytes(dir)).toBeGreaterThan(3 * 1024 * 1024);
      // A torn record at the end of the pack (a crash mid-append) must not matter either.
      const [pack] = await readdir(join(dir, 'packs'));
      await appendFile(join(dir, 'packs', pack as string), Buffer.from([0x22, 0x00, 0x12, 0x20, 0xff]));

      const store = await openBlockstore(dir, undefined, { exclusive: true });
      try {
        // The exclusive open cut the pack back to its last indexed record: the dead megabytes and the
        // torn record are gone without any compaction or GC.
        expect(await packBytes(dir)).toBeLessThan(1024);
        const committed = rawBlock('committed before the crash');
        expect(Buffer.from(await store.getBlock(committed.cid)).toString()).toBe('committed before the crash');
        for (let i = 0; i < 3; i++) expect(await store.has(rawBlock(Buffer.alloc(1024 * 1024, i + 1)).cid)).toBe(false);
        expect(await store.stats()).toEqual({ blocks: 1, bytes: committed.bytes.byteLength });
        expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 1, problems: [] });

        // The store keeps working after the cut: appends land in a new pack, compaction finds nothing to do.
        const after = rawBlock('written after the crash');
        await store.put(after.cid, after.bytes);
        await store.idle();
        expect(await store.compact()).toEqual({ packsCompacted: 0, bytesReclaimed: 0 });
        expect(await packBytes(dir)).toBeLessThan(1024);
        expect(await store.checkIntegrity({ rehash: true })).toEqual({ checked: 2, problems: [] });
        expect(Buffer.from(await store.getBlock(committed.cid)).toString()).toBe('committed before the crash');
        expect(Buffer.from(await store.getBlock(after.cid)).toString()).toBe('written after the crash');
      } finally {
        await store.close();
      }
    } finally {
      await cleanup();
    }
  });
});
