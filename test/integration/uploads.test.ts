import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../main/app/create-app.js';
import { testConfig } from '../helpers/test-network.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, expectError } from '../helpers/account-api.js';
import { addressFor, counters, expectNotServed, gatewayGet, MiB, randomData, referenceCid, stats, step1, step2, uploadFile } from './uploads-helpers.js';
import { ownerKeyOf } from '../helpers/owner-key.js';

describe('single-file uploads: POST /ipfs/?size= (contract section 4)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('step 1 answers the envelope with one signed address on the same path', async () => {
    const response = await step1(server, server.owner, 'POST', '/ipfs/', { size: 10 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(response.json).sort()).toEqual(['code', 'data', 'msg']);
    expect(response.json.code).toBe(200);
    expect(response.json.msg).toBe('ok');
    expect(Object.keys(response.json.data)).toEqual(['url']);
    const port = new URL(server.url).port;
    expect(response.json.data.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/ipfs/\\?sargs=[A-Za-z0-9_-]+&ssig=[A-Za-z0-9_-]+$`));
  });

  it('step 1 without a valid size is 400; without write permission 403', async () => {
    // The field at fault is named beside the message, for a form to show it there (docs/errors.md).
    expect(expectError(await step1(server, server.owner, 'POST', '/ipfs/'), 400, /size/).param).toBe('size');
    expectError(await step1(server, server.owner, 'POST', '/ipfs/', { size: -1 }), 400, /size/);
    expectError(await step1(server, server.owner, 'POST', '/ipfs/', { size: '1.5' }), 400, /size/);
    const reader = await createKey(server, server.owner, 'reader-only', ['read']);
    expectError(await step1(server, reader, 'POST', '/ipfs/', { size: 1 }), 403, /write/);
  });

  it.each([0, 1, MiB + 1, 5 * MiB + 12_345])('raw body of %i random bytes: 201, ipfs-hash = ipfs-unixfs-importer CID, served back', async (size) => {
    const bytes = randomData(size);
    const before = await stats(server, server.owner);
    const response = await uploadFile(server, server.owner, bytes);
    expect(response.status).toBe(201);
    expect(response.text).toBe('');
    const expected = await referenceCid(bytes);
    expect(response.headers.get('ipfs-hash')).toBe(expected);
    expect(response.headers.get('location')).toBe(`/ipfs/${expected}`);
    const after = await stats(server, server.owner);
    expect(after.ingress - before.ingress).toBe(size);
    const served = await gatewayGet(server, server.owner, `/ipfs/${expected}`);
    expect(served.status).toBe(200);
    expect(Buffer.compare(served.bytes, Buffer.from(bytes))).toBe(0);
  });

  it.each([0, 1, MiB + 1])('multipart `file` part of %i bytes: same CID as the raw body', async (size) => {
    const bytes = randomData(size);
    const before = await stats(server, server.owner);
    const response = await uploadFile(server, server.owner, bytes, { multipart: true });
    expect(response.status).toBe(201);
    const expected = await referenceCid(bytes);
    expect(response.headers.get('ipfs-hash')).toBe(expected);
    expect(response.headers.get('location')).toBe(`/ipfs/${expected}`);
    // Ingress counts the file part's bytes, not the whole form.
    expect((await stats(server, server.owner)).ingress - before.ingress).toBe(size);
  });

  it('a body longer than size is 413: nothing stored, no ingress', async () => {
    for (const [declared, sent] of [
      [1000, 1001],
      [MiB, 2 * MiB + 5],
    ] as const) {
      const bytes = randomData(sent);
      const before = await stats(server, server.owner);
      const response = await uploadFile(server, server.owner, bytes, { size: declared });
      expect(response.status).toBe(413);
      expect(response.json).toMatchObject({ code: 413 });
      expect(counters(await stats(server, server.owner))).toEqual(counters(before));
      await expectNotServed(server, server.owner, await referenceCid(bytes));
      await expectNotServed(server, server.owner, await referenceCid(bytes.subarray(0, declared)));
    }
  });

  it('a body shorter than size is 400: nothing stored, no ingress', async () => {
    const bytes = randomData(MiB + 7);
    const before = await stats(server, server.owner);
    const response = await uploadFile(server, server.owner, bytes, { size: MiB + 8 });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, msg: expect.stringMatching(/size/) });
    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('a multipart form whose first part is not named `file` is 400 and stores nothing', async () => {
    const bytes = randomData(100);
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 100 });
    const form = new FormData();
    form.append('upload', new Blob([bytes]), 'x.bin');
    const before = await stats(server, server.owner);
    const response = await step2(url, 'POST', form);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ code: 400, msg: expect.stringMatching(/file/) });
    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('an address works once: the replay is 401 and stores nothing more', async () => {
    const first = randomData(64);
    const second = randomData(64);
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 64 });
    expect((await step2(url, 'POST', first)).status).toBe(201);
    const before = await stats(server, server.owner);
    const replay = await step2(url, 'POST', second);
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ code: 401 });
    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    await expectNotServed(server, server.owner, await referenceCid(second));
  });

  it('tampered sargs or ssig, a missing one, a changed path or method: 401, nothing stored', async () => {
    const bytes = randomData(32);
    const expected = await referenceCid(bytes);
    const before = await stats(server, server.owner);

    const url = new URL(await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 32 }));
    const sargs = url.searchParams.get('sargs') as string;
    const ssig = url.searchParams.get('ssig') as string;
    const args = JSON.parse(Buffer.from(sargs, 'base64url').toString('utf8')) as Record<string, unknown>;
    const bigger = Buffer.from(JSON.stringify({ ...args, size: 10 * MiB }), 'utf8').toString('base64url');
    const flipped = (ssig[0] === 'A' ? 'B' : 'A') + ssig.slice(1);
    const attempts = [
      `${server.url}/ipfs/?sargs=${bigger}&ssig=${ssig}`,
      `${server.url}/ipfs/?sargs=${sargs}&ssig=${flipped}`,
      `${server.url}/ipfs/?sargs=${sargs}&ssig=`,
      `${server.url}/ipfs/?sargs=${sargs}`,
      `${server.url}/ipfs/?sargs=not-base64!&ssig=${ssig}`,
    ];
    for (const attempt of attempts) {
      const response = await step2(attempt, 'POST', bytes);
      expect(response.status, attempt).toBe(401);
      expect(response.json).toMatchObject({ code: 401 });
    }
    // A DAG-add address reused on another path, and with another method.
    const addUrl = new URL(await addressFor(server, server.owner, 'PUT', `/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/a.txt`, { size: 32 }));
    const otherPath = `${server.url}/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/b.txt${addUrl.search}`;
    expect((await step2(otherPath, 'PUT', bytes)).status).toBe(401);
    const otherMethod = `${server.url}/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/a.txt${addUrl.search}`;
    expect((await step2(otherMethod, 'DELETE', null)).status).toBe(401);
    // The single-file address on the DAG-add path.
    const fileUrl = new URL(await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 32 }));
    expect((await step2(`${server.url}/ipfs/QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn/a.txt${fileUrl.search}`, 'PUT', bytes)).status).toBe(401);

    expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    await expectNotServed(server, server.owner, expected);
    // The untouched addresses still work afterwards: the failures did not use them up.
    expect((await step2(url.toString(), 'POST', bytes)).status).toBe(201);
    expect((await step2(fileUrl.toString(), 'POST', bytes)).status).toBe(201);
  });

  it('step 2 ignores authentication headers sent along, even wrong ones', async () => {
    const bytes = randomData(500);
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 500 });
    const response = await step2(url, 'POST', bytes, {
      'X-Access-Key': '00000000-0000-0000-0000-000000000000',
      'X-Access-Secret': 'wrong',
      'X-Access-Signature': 'AAAA',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('ipfs-hash')).toBe(await referenceCid(bytes));
  });

  it('a request without an address is step 1: it needs credentials', async () => {
    const response = await fetch(`${server.url}/ipfs/?size=3&ts=${Math.floor(Date.now() / 1000)}`, { method: 'POST', body: 'abc' });
    expect(response.status).toBe(401);
    await expectNotServed(server, server.owner, await referenceCid(new TextEncoder().encode('abc')));
  });
});

describe('upload address expiry (10 minutes, server clock)', () => {
  it('an address used after its 600 s is 401 and stores nothing; within them it works', async () => {
    const dataDir = await makeTempDir();
    // A clock that moves only when told: "599 s later" must not become 600 s on a slow machine.
    const startMs = Date.now();
    let offsetMs = 0;
    const clock = { nowMs: () => startMs + offsetMs };
    const app = await createApp({ config: testConfig({ dataDir, port: 0 }), env: {}, clock });
    try {
      const server = { url: await app.listen() };
      const key = ownerKeyOf(app);
      const bytes = randomData(256);
      const late = await addressFor(server, key, 'POST', '/ipfs/', { size: 256 });
      const onTime = await addressFor(server, key, 'POST', '/ipfs/', { size: 256 });
      offsetMs = 599_000;
      expect((await step2(onTime, 'POST', bytes)).status).toBe(201);
      offsetMs = 602_000;
      const other = randomData(256);
      const response = await step2(late, 'POST', other);
      expect(response.status).toBe(401);
      expect(response.json).toMatchObject({ code: 401, msg: expect.stringMatching(/expired/) });
      offsetMs = 0;
      expect((await stats(server, key)).ingress).toBe(256);
      await expectNotServed(server, key, await referenceCid(other));
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
