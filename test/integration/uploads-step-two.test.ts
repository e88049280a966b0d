import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey } from '../helpers/account-api.js';
import { serverNumber } from '../helpers/suite-metadata.js';
import {
  addressFor,
  carV1,
  counters,
  dagAdd,
  EMPTY_DIR_V1,
  expectNotServed,
  fileDag,
  MiB,
  multipartBody,
  randomData,
  referenceCid,
  sendRaw,
  sendTrickle,
  stats,
  step2,
  type Block,
} from './uploads-helpers.js';

/** Step 2's own checks (contract section 4): what is refused, with which status, and that a refusal changes nothing. */
describe('upload step 2: refused before anything is parsed, and nothing kept', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function pinTotal(): Promise<number> {
    return (await call<{ total: number }>(server, 'GET', '/api/v0/pin', { key: server.owner })).json.total;
  }

  /** Runs `refuse` and checks that no counter, pin or one of `blocks` changed. */
  async function expectNothingChanged(blocks: readonly Block[], refuse: () => Promise<void>): Promise<void> {
    const before = counters(await stats(server, server.owner));
    const pins = await pinTotal();
    await refuse();
    expect(counters(await stats(server, server.owner))).toEqual(before);
    expect(await pinTotal()).toBe(pins);
    for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());
  }

  /** The envelope with the string of its status (docs/errors.md). */
  function expectEnvelope(answer: { status: number; json: unknown }, status: 400 | 401 | 413, msg: RegExp): void {
    const error = { 400: 'bad_input', 401: 'unauthenticated', 413: 'too_large' }[status];
    expect(answer.status).toBe(status);
    expect(answer.json).toEqual({ code: status, msg: expect.stringMatching(msg), error });
  }

  it('dag/import with a body longer than size is 413, by Content-Length or counted when chunked, not a CAR error', async () => {
    const { root, blocks } = await fileDag(randomData(3000));
    const car = await carV1([root], blocks);
    await expectNothingChanged(blocks, async () => {
      const declared = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength - 1 });
      expectEnvelope(await step2(declared, 'POST', car), 413, /larger than size/);
      const chunked = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength - 1 });
      const pieces = [car.subarray(0, 100), car.subarray(100)];
      expectEnvelope(await sendRaw(chunked, 'POST', { 'content-type': 'application/vnd.ipld.car' }, pieces), 413, /larger than size/);
      // A chunked body cut after the header: the count, not the parser, decides.
      const early = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: 10 });
      expectEnvelope(await sendRaw(early, 'POST', {}, [car.subarray(0, 60)]), 413, /larger than size=10/);
    });
  });

  it('a Content-Length that cannot match size is refused before the body is read, on every payload route', async () => {
    const bytes = randomData(2000);
    await expectNothingChanged([], async () => {
      // Decided from the headers: the answer comes though not a byte of the body was sent.
      for (const [method, path, length] of [
        ['POST', '/ipfs/', 2001],
        ['PUT', `/ipfs/${EMPTY_DIR_V1}/a.bin`, 1999],
        ['POST', '/api/v0/dag/import', 2001],
        ['POST', '/api/v0/dag/import', 1999],
      ] as const) {
        const url = await addressFor(server, server.owner, method, path, { size: 2000 });
        const answer = await sendRaw(url, method, { 'content-length': String(length) }, [], { finish: false });
        expectEnvelope(answer, length > 2000 ? 413 : 400, length > 2000 ? /larger than size=2000/ : /shorter than size=2000/);
      }
      const longer = await addressFor(server, server.owner, 'PUT', `/ipfs/${EMPTY_DIR_V1}/a.bin`, { size: 1999 });
      expectEnvelope(await step2(longer, 'PUT', bytes), 413, /larger than size=1999/);
      const shorter = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: 2001 });
      expectEnvelope(await step2(shorter, 'POST', bytes), 400, /shorter than size=2001/);
      // A form holds its file and more: only a form shorter than the file alone is known short at once.
      const form = multipartBody([{ name: 'file', filename: 'a.bin', bytes }]);
      const formShort = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: form.body.byteLength + 1 });
      expectEnvelope(await step2(formShort, 'POST', new Uint8Array(form.body), { 'content-type': form.contentType }), 400, /shorter than size/);
    });
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('a DELETE step 2 with a body is 413 and removes nothing', async () => {
    const added = await dagAdd(server, server.owner, EMPTY_DIR_V1, 'keep.txt', randomData(10));
    const root = added.headers.get('ipfs-hash') as string;
    await expectNothingChanged([], async () => {
      const sized = await addressFor(server, server.owner, 'DELETE', `/ipfs/${root}/keep.txt`);
      expectEnvelope(await step2(sized, 'DELETE', randomData(5)), 413, /larger than size=0/);
      const chunked = await addressFor(server, server.owner, 'DELETE', `/ipfs/${root}/keep.txt`);
      expectEnvelope(await sendRaw(chunked, 'DELETE', { 'transfer-encoding': 'chunked' }, [randomData(5)]), 413, /larger than size=0/);
    });
    // Without a body it works.
    const removal = await addressFor(server, server.owner, 'DELETE', `/ipfs/${root}/keep.txt`);
    expect((await step2(removal, 'DELETE', null)).status).toBe(201);
  });

  it('an address sent with another method, or to a route it was not made for, is 401 before the route parses anything', async () => {
    const bytes = randomData(32);
    const single = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 32 });
    const add = await addressFor(server, server.owner, 'PUT', `/ipfs/${EMPTY_DIR_V1}/a.txt`, { size: 32 });
    const car = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: 32 });
    await expectNothingChanged([], async () => {
      for (const [url, method, body] of [
        [single, 'PUT', bytes],
        [single, 'DELETE', null],
        [add, 'POST', bytes],
        [add, 'DELETE', null],
        [car, 'PUT', bytes],
        [car, 'DELETE', null],
      ] as const) {
        expectEnvelope(await step2(url, method, body), 401, /upload address/);
      }
    });
    // Refused as addresses, they were not used up.
    expect((await step2(single, 'POST', bytes)).status).toBe(201);
    expect((await step2(add, 'PUT', bytes)).status).toBe(201);
  });

  it('an address dies with the access key that asked for it', async () => {
    const writer = await createKey(server, server.owner, 'short-lived writer', ['write', 'pin']);
    const bytes = randomData(64);
    const file = await addressFor(server, writer, 'POST', '/ipfs/', { size: 64 });
    const { root, blocks } = await fileDag(randomData(100));
    const car = await carV1([root], blocks);
    const carUrl = await addressFor(server, writer, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    const deleted = await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'short-lived writer' } });
    expect(deleted.status).toBe(200);
    await expectNothingChanged(blocks, async () => {
      expectEnvelope(await step2(file, 'POST', bytes), 401, /access key was deleted/);
      expectEnvelope(await step2(carUrl, 'POST', car), 401, /access key was deleted/);
    });
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  describe('a malformed multipart body is 400 with the envelope, and stores and counts nothing', () => {
    const file = randomData(3000);
    const whole = multipartBody([{ name: 'file', filename: 'a.bin', bytes: file }]);
    const cases: Array<[string, Record<string, string>, Buffer]> = [
      ['no boundary in the Content-Type', { 'content-type': 'multipart/form-data' }, whole.body],
      ['a boundary that never appears', { 'content-type': 'multipart/form-data; boundary=elsewhere' }, whole.body],
      ['cut off inside the file part', { 'content-type': whole.contentType }, whole.body.subarray(0, whole.body.byteLength - 500)],
      ['cut off inside the part headers', { 'content-type': whole.contentType }, whole.body.subarray(0, 30)],
      // The boundary after the file ends its part, but the form's closing `--` never comes.
      ['the file part whole but the form never closed', { 'content-type': whole.contentType }, whole.body.subarray(0, whole.body.byteLength - 4)],
    ];
    for (const [name, headers, body] of cases) {
      it(name, async () => {
        await expectNothingChanged([], async () => {
          const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: file.byteLength });
          const answer = await sendRaw(url, 'POST', { ...headers, 'content-length': String(body.byteLength) }, [body]);
          expect(answer.status, answer.text).toBe(400);
          expect(answer.json).toEqual({ code: 400, msg: expect.any(String), error: 'bad_input' });
        });
        await expectNotServed(server, server.owner, await referenceCid(file));
      });
    }
  });
});

describe('upload step 2 idle timeout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ uploadIdleTimeoutMs: 300 });
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a client that stops sending is cut off with 408, and nothing of its body is kept', async () => {
    const bytes = randomData(2 * MiB);
    // The first MiB is a whole chunk: staged as a block, it must not become visible.
    const firstLeaf = await referenceCid(bytes.subarray(0, MiB));
    const before = counters(await stats(server, server.owner));
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    const answer = await sendRaw(url, 'POST', { 'content-length': String(bytes.byteLength) }, [bytes.subarray(0, MiB + 10)], { finish: false });
    expect(answer.status).toBe(408);
    // The stall may come in the window where the last bytes did (too few) or in the next (nothing).
    expect(answer.json).toEqual({ code: 408, msg: expect.stringMatching(/^upload body/), error: 'request_timeout' });
    expect(answer.headers.connection).toBe('close');
    expect(counters(await stats(server, server.owner))).toEqual(before);
    await expectNotServed(server, server.owner, firstLeaf);
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('so is one that stops inside a form before its file part, and a CAR import', async () => {
    const before = counters(await stats(server, server.owner));
    const form = multipartBody([{ name: 'file', filename: 'a.bin', bytes: randomData(100) }]);
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 100 });
    const stalled = await sendRaw(
      url,
      'POST',
      { 'content-type': form.contentType, 'content-length': String(form.body.byteLength) },
      [form.body.subarray(0, 20)],
      {
        finish: false,
      },
    );
    expect(stalled.status).toBe(408);
    const { root, blocks } = await fileDag(randomData(5000));
    const car = await carV1([root], blocks);
    const carUrl = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    const carStalled = await sendRaw(carUrl, 'POST', { 'content-length': String(car.byteLength) }, [car.subarray(0, car.byteLength - 1)], { finish: false });
    expect(carStalled.status).toBe(408);
    expect(counters(await stats(server, server.owner))).toEqual(before);
    for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());
  });
});

describe('upload step 2 minimum pace', () => {
  const windowMs = 300;
  const minBytes = 1024;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ uploadIdleTimeoutMs: windowMs, uploadMinBytesPerWindow: minBytes });
  });
  afterAll(async () => {
    await server.stop();
  });

  const reservations = (): Promise<number | null> => serverNumber(server, 'SELECT count(*) AS n FROM upload_reservations');

  /**
   * A byte every 10 ms is about 30 a window, far below 1 KiB: cut off after a window or two. The trickle
   * stops after 600 bytes and then the client falls silent: a server without a minimum pace answers only
   * then, "nothing received", so the message tells the two apart without timing anything.
   */
  async function expectCutOff(url: string, headers: Record<string, string>, head: Uint8Array, tail: Uint8Array): Promise<void> {
    expect(await reservations()).toBe(1);
    const answer = await sendTrickle(url, 'POST', headers, head, tail.subarray(0, 600), 10);
    expect(answer.status, answer.text).toBe(408);
    expect(answer.json).toEqual({
      code: 408,
      msg: expect.stringMatching(/^upload body too slow: \d+ bytes received in 0.3 s, at least 1024 required$/),
      error: 'request_timeout',
    });
    expect(answer.headers.connection).toBe('close');
    expect(await reservations()).toBe(0);
  }

  it('a raw body that trickles is cut off with 408: nothing kept, nothing counted, its reservation released', async () => {
    const bytes = randomData(8192);
    const before = counters(await stats(server, server.owner));
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    await expectCutOff(url, { 'content-length': String(bytes.byteLength) }, bytes.subarray(0, 100), bytes.subarray(100));
    expect(counters(await stats(server, server.owner))).toEqual(before);
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('so is a form whose file part trickles, and a CAR import', async () => {
    const before = counters(await stats(server, server.owner));
    const file = randomData(8192);
    const form = multipartBody([{ name: 'file', filename: 'a.bin', bytes: file }]);
    const formUrl = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: file.byteLength });
    const formHeaders = { 'content-type': form.contentType, 'content-length': String(form.body.byteLength) };
    await expectCutOff(formUrl, formHeaders, form.body.subarray(0, 300), form.body.subarray(300));
    const { root, blocks } = await fileDag(randomData(8192));
    const car = await carV1([root], blocks);
    const carUrl = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    await expectCutOff(carUrl, { 'content-length': String(car.byteLength) }, car.subarray(0, 100), car.subarray(100));
    expect(counters(await stats(server, server.owner))).toEqual(before);
    for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());
    await expectNotServed(server, server.owner, await referenceCid(file));
  });
});
