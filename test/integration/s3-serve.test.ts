import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePostgresUrl, parseS3Url } from '../../main/base/backend-urls.js';
import { BadInputError } from '../../main/base/errors.js';
import { listObjectKeys, startCephRgw, type CephRgw } from '../helpers/engines/ceph-rgw.js';
import { startPostgres, type PostgresServer } from '../helpers/engines/postgres.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { carImport, carV1, fileDag, gatewayGet, MiB, randomData, uploadCid } from './uploads-helpers.js';

/**
 * The service with `--db postgres://… --blocks s3://…` (issue "beyond one machine"): uploads and CAR imports
 * land in the bucket (nothing in the data folder's blocks), the gateway reads them back, and a restart finds
 * them. The S3 keys come from the standard AWS variables, as `pinfold serve` takes them.
 */
describe('the service on PostgreSQL and an S3 bucket (--db, --blocks)', () => {
  let rgw: CephRgw;
  let postgres: PostgresServer;
  let dataDir: string;
  let server: TestServer;
  let config: { database: ReturnType<typeof parsePostgresUrl>; blocks: ReturnType<typeof parseS3Url> };
  const savedEnv = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(async () => {
    [rgw, postgres] = await Promise.all([startCephRgw(), startPostgres()]);
    // The SDK's default chain reads these (this worker's environment only).
    process.env.AWS_ACCESS_KEY_ID = rgw.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = rgw.secretAccessKey;
    const url = await postgres.createDatabase('s3_serve');
    config = {
      database: parsePostgresUrl(url),
      blocks: parseS3Url(`s3://pinfold-serve/instances/?endpoint=${encodeURIComponent(rgw.endpoint)}&region=${rgw.region}`),
    };
    dataDir = await makeTempDir('pinfold-s3-serve-');
    server = await startTestServer({ dataDir, ...config });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await Promise.all([rgw?.stop(), postgres?.stop()]);
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
    process.env.AWS_ACCESS_KEY_ID = savedEnv.id;
    process.env.AWS_SECRET_ACCESS_KEY = savedEnv.secret;
    if (savedEnv.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (savedEnv.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  }, 60_000);

  async function packObjects(): Promise<string[]> {
    return listObjectKeys(rgw, 'pinfold-serve', 'instances/packs/');
  }

  async function expectServesBoth(): Promise<void> {
    for (const [cid, bytes] of [
      [uploadedCid, uploaded],
      [importedCid, imported],
    ] as const) {
      const served = await gatewayGet(server, server.owner, `/ipfs/${cid}`);
      expect(served.status).toBe(200);
      expect(Buffer.compare(served.bytes, Buffer.from(bytes))).toBe(0);
    }
  }

  async function localPackFiles(): Promise<string[]> {
    return readdir(join(dataDir, 'blocks', 'packs')).catch(() => []);
  }

  const uploaded = randomData(3 * MiB + 17);
  const imported = randomData(MiB + 5);
  let uploadedCid = '';
  let importedCid = '';

  it('uploads a file and imports a CAR into the bucket, and serves both through the gateway', async () => {
    uploadedCid = await uploadCid(server, server.owner, uploaded);
    const { root, blocks } = await fileDag(imported);
    const response = await carImport(server, server.owner, await carV1([root], blocks));
    expect(response.status).toBe(200);
    importedCid = root.toString();
    await expectServesBoth();
    expect((await packObjects()).length).toBeGreaterThanOrEqual(2);
    expect(await localPackFiles()).toEqual([]);
  });

  it('still serves both after a restart', async () => {
    await server.stop();
    server = await startTestServer({ dataDir, ...config });
    await expectServesBoth();
  });

  it('refuses --blocks without --db: the block index must be shared like the bucket', async () => {
    const alone = await makeTempDir('pinfold-s3-alone-');
    try {
      const refused = startTestServer({ dataDir: alone, blocks: config.blocks });
      await expect(refused).rejects.toBeInstanceOf(BadInputError);
      await expect(refused).rejects.toThrow(/--blocks needs --db postgres/);
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  });
});
