import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Target } from '../../main/base/backend-urls.js';
import { openObjectBlockstore } from '../../main/store/objects/object-blockstore.js';
import { openPostgresStore } from '../../main/store/pg/pg-store.js';
import { startCephRgw } from '../helpers/engines/ceph-rgw.js';
import { startPostgres } from '../helpers/engines/postgres.js';
import { rawBlock } from '../helpers/raw-blocks.js';
import { numberFlag } from './lib/flags.js';

/**
 * `npm run bench -- s3-layout [--blocks 2000] [--block-size 16384] [--concurrency 16]`: why the S3 block
 * store packs blocks. On a real Ceph RGW (started here, ~11 s) with the index in a real PostgreSQL, the same
 * blocks are written two ways: one object per block (PutObject each, `--concurrency` at a time), and the
 * store's way (one batch: records appended to a local spool, uploaded as 64 MiB pack objects, indexed in
 * one transaction). Then one serial ranged GET of a 4 KiB record, the cost of a cold block read.
 * RESULT s3-layout ratio = packed time / per-object time (under 1: packing is faster).
 */
export async function run(args: readonly string[]): Promise<void> {
  const count = numberFlag(args, 'blocks', 2000);
  const blockSize = numberFlag(args, 'block-size', 16 * 1024);
  const concurrency = numberFlag(args, 'concurrency', 16);
  const [rgw, postgres] = await Promise.all([startCephRgw(), startPostgres()]);
  const credentials = { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey };
  const target: S3Target = { bucket: 'bench-layout', prefix: 'packed/', endpoint: rgw.endpoint, region: rgw.region, forcePathStyle: true };
  const store = await openPostgresStore(await postgres.createDatabase('s3_layout'));
  const blocks = await openObjectBlockstore(target, store, { credentials });
  const s3 = new S3Client({ endpoint: rgw.endpoint, region: rgw.region, forcePathStyle: true, credentials });
  try {
    const perObjectBlocks = Array.from({ length: count }, () => rawBlock(new Uint8Array(randomBytes(blockSize))));
    const packedBlocks = Array.from({ length: count }, () => rawBlock(new Uint8Array(randomBytes(blockSize))));

    let next = 0;
    const perObjectStart = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) {
          const block = perObjectBlocks[i] as (typeof perObjectBlocks)[number];
          await s3.send(new PutObjectCommand({ Bucket: target.bucket, Key: `per-object/${block.cid.toString()}`, Body: block.bytes }));
        }
      }),
    );
    const perObjectMs = performance.now() - perObjectStart;

    const packedStart = performance.now();
    const batch = blocks.createBatch();
    await Promise.all(packedBlocks.map(async (block) => batch.put(block.cid, block.bytes)));
    await batch.commit();
    const packedMs = performance.now() - packedStart;

    // A cold read: a second store (no read cache), one block at a time.
    const reader = await openObjectBlockstore(target, store, { credentials });
    const reads = Math.min(50, count);
    const readStart = performance.now();
    for (let i = 0; i < reads; i++) await reader.getBlock((packedBlocks[i] as (typeof packedBlocks)[number]).cid);
    const readMs = (performance.now() - readStart) / reads;
    await reader.close();

    process.stdout.write(
      `s3-layout: ${count} blocks of ${blockSize} bytes on Ceph RGW\n` +
        `  one object per block (${concurrency} PUTs at a time): ${perObjectMs.toFixed(0)} ms, ${(perObjectMs / count).toFixed(3)} ms per block\n` +
        `  packed (spool + one object per pack + one index transaction): ${packedMs.toFixed(0)} ms, ${(packedMs / count).toFixed(3)} ms per block\n` +
        `  cold read (index lookup + ranged GET), serial: ${readMs.toFixed(2)} ms per block\n`,
    );
    process.stdout.write(
      `RESULT s3-layout ratio=${(packedMs / perObjectMs).toFixed(3)} blocks=${count} block_bytes=${blockSize} per_object_ms_per_block=${(perObjectMs / count).toFixed(3)} packed_ms_per_block=${(packedMs / count).toFixed(3)} cold_read_ms=${readMs.toFixed(2)}\n`,
    );
  } finally {
    s3.destroy();
    await blocks.close();
    await store.close();
    await Promise.all([rgw.stop(), postgres.stop()]);
  }
}
