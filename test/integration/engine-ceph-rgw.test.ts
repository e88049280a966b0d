import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCephRgw, type CephRgw } from '../helpers/engines/ceph-rgw.js';

/** The real S3-compatible store the scale-out tests run on: a one-node Ceph with its RADOS Gateway. */
describe('a real Ceph RADOS Gateway for the tests', () => {
  let rgw: CephRgw;
  beforeAll(async () => {
    rgw = await startCephRgw();
  }, 90_000);
  afterAll(async () => {
    await rgw.stop();
  }, 60_000);

  it('stores and returns objects for its access key, and refuses a wrong secret', async () => {
    const client = (secretAccessKey: string) =>
      new S3Client({ endpoint: rgw.endpoint, region: rgw.region, forcePathStyle: true, credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey } });
    const s3 = client(rgw.secretAccessKey);
    await s3.send(new CreateBucketCommand({ Bucket: 'engine-check' }));
    await s3.send(new PutObjectCommand({ Bucket: 'engine-check', Key: 'blocks/one', Body: Buffer.from('block bytes') }));
    const got = await s3.send(new GetObjectCommand({ Bucket: 'engine-check', Key: 'blocks/one' }));
    expect(await got.Body?.transformToString()).toBe('block bytes');
    await expect(client('wrong').send(new GetObjectCommand({ Bucket: 'engine-check', Key: 'blocks/one' }))).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
  });
});
