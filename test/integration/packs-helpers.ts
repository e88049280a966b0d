import { request } from 'node:http';
import { join } from 'node:path';
import { randomData } from './uploads-helpers.js';
import { until } from '../helpers/until.js';
import { packBytes } from '../helpers/pack-files.js';

/** Helpers for the tests about the space uploads take in the blockstore's pack files. */

/** Waits (polling, with a deadline) until the packs hold exactly `bytes`; returns what they held last. */
export async function packsSettleAt(dataDir: string, bytes: number, ms = 20_000): Promise<number> {
  let last = -1;
  try {
    return await until(
      `packs back to ${bytes} bytes`,
      async () => {
        last = await packBytes(join(dataDir, 'blocks'));
        return last === bytes ? last : undefined;
      },
      ms,
    );
  } catch {
    throw new Error(`packs hold ${last} bytes, expected ${bytes}`);
  }
}

/** Waits (polling, with a deadline) until the packs hold at least `bytes`. */
export async function packsReach(dataDir: string, bytes: number): Promise<void> {
  await until(`packs holding ${bytes} bytes`, async () => ((await packBytes(join(dataDir, 'blocks'))) >= bytes ? true : undefined));
}

/**
 * A step 2 whose client will go away mid-body: declares `declared` bytes and sends `sent` of them now.
 * `drop()` closes the connection; the server sees the body end early.
 */
export function openUpload(url: string, sizes: { declared: number; sent: number }): { drop(): Promise<void> } {
  const client = request(url, { method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': sizes.declared } });
  const gone = new Promise<void>((resolve) => {
    client.on('error', () => resolve());
    client.on('close', () => resolve());
  });
  client.write(randomData(sizes.sent));
  return {
    async drop() {
      client.destroy();
      await gone;
    },
  };
}
