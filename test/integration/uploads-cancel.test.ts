/**
 * Cancel racing the end of an upload (issue 22, item 9), decided once: a gate (AppInit.uploadCommitGate)
 * holds each step 2 between its last byte and its commit, so a test chooses which comes first. Cancel
 * first: nothing of the upload is stored or counted, and the step 2 is refused. Commit first: the cancel
 * answers what was stored. The same when the client goes away instead of cancelling.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadCancelOutcome } from '../../shared/api-types.js';
import type { UploadTestHooks } from '../../main/http/step-two-outcomes.js';
import { createPublicApiClient } from '../../renderer/api/client.js';
import { settleCancel } from '../../renderer/lib/upload-cancel.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { deferred, type Deferred } from '../helpers/deferred.js';
import {
  addressFor,
  carV1,
  counters,
  expectNotServed,
  fileDag,
  gatewayGet,
  randomData,
  referenceCid,
  stats,
  step2,
  type Step2Result,
} from './uploads-helpers.js';

/** One step 2 at the gate: `reached` once its last byte is in, `open()` lets it on; `ended` is its outcome. */
interface Held {
  reached: Promise<void>;
  open(): void;
  ended: Promise<UploadCancelOutcome>;
}

/** The test hooks: each step 2 (by nonce) waits at the gate until the test opens it. */
function uploadGates() {
  const steps = new Map<string, { reached: Deferred<void>; opened: Deferred<void>; ended: Deferred<UploadCancelOutcome> }>();
  const step = (nonce: string) => {
    let found = steps.get(nonce);
    if (found === undefined) {
      found = { reached: deferred(), opened: deferred(), ended: deferred<UploadCancelOutcome>() };
      steps.set(nonce, found);
    }
    return found;
  };
  const hooks: UploadTestHooks = {
    async beforeCommit(nonce) {
      step(nonce).reached.resolve();
      await step(nonce).opened.promise;
    },
    ended: (nonce, outcome) => step(nonce).ended.resolve(outcome),
  };
  const of = (url: string): Held => {
    const found = step(nonceOf(url));
    return { reached: found.reached.promise, open: () => found.opened.resolve(), ended: found.ended.promise };
  };
  return { hooks, of };
}

/** The nonce inside an upload address's `sargs`. */
function nonceOf(url: string): string {
  const sargs = new URL(url).searchParams.get('sargs') as string;
  return (JSON.parse(Buffer.from(sargs, 'base64url').toString('utf8')) as { nonce: string }).nonce;
}

/** The cancel call of the window: the address's `sargs` and `ssig`, to POST /api/v0/upload/cancel. */
async function cancel(server: TestServer, url: string): Promise<{ status: number; json: { code: number; msg: string; data?: UploadCancelOutcome } }> {
  const address = new URL(url);
  const query = { sargs: address.searchParams.get('sargs') as string, ssig: address.searchParams.get('ssig') as string };
  const answer = await call<{ code: number; msg: string; data?: UploadCancelOutcome }>(server, 'POST', '/api/v0/upload/cancel', {
    key: null,
    query,
    noTs: true,
  });
  return { status: answer.status, json: answer.json };
}

describe('cancel and commit of an upload, decided once', () => {
  let server: TestServer;
  const gates = uploadGates();
  beforeAll(async () => {
    server = await startTestServer({}, {}, undefined, { uploadTestHooks: gates.hooks });
  });
  afterAll(async () => {
    await server.stop();
  });

  const usage = async () => counters(await stats(server, server.owner));
  const pinTotal = async () => (await call<{ total: number }>(server, 'GET', '/api/v0/pin', { key: server.owner })).json.total;

  it('a file: cancel before the commit stores and counts nothing, and its step 2 is refused (409)', async () => {
    const bytes = randomData(300_000);
    const before = await usage();
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    const held = gates.of(url);
    const sent = step2(url, 'POST', bytes);
    await held.reached;
    expect((await cancel(server, url)).json).toEqual({ code: 200, msg: 'ok', data: { outcome: 'cancelled', roots: [] } });
    held.open();
    const answer = await sent;
    expect(answer.status).toBe(409);
    expect(answer.json).toEqual({ code: 409, msg: expect.stringMatching(/cancelled before it was stored/), error: 'conflict' });
    await expectNotServed(server, server.owner, await referenceCid(bytes));
    expect(await usage()).toEqual(before);
    // Asked again, the same answer.
    expect((await cancel(server, url)).json.data).toEqual({ outcome: 'cancelled', roots: [] });
  });

  it('a file: the commit before the cancel is stored and counted, and the cancel says so', async () => {
    const bytes = randomData(300_000);
    const before = await usage();
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    const held = gates.of(url);
    const sent = step2(url, 'POST', bytes);
    await held.reached;
    held.open();
    const answer = await sent;
    expect(answer.status).toBe(201);
    const cid = answer.headers.get('ipfs-hash');
    expect(cid).toBe(await referenceCid(bytes));
    expect((await cancel(server, url)).json.data).toEqual({ outcome: 'stored', roots: [cid] });
    expect((await gatewayGet(server, server.owner, `/ipfs/${cid}`)).bytes.equals(Buffer.from(bytes))).toBe(true);
    expect((await usage()).ingress).toBe(before.ingress + bytes.byteLength);
  });

  it("a folder's CAR (dag/import, roots pinned): cancel first keeps no block, no pin, no ingress; commit first keeps all", async () => {
    const { root, blocks } = await fileDag(randomData(200_000));
    const car = await carV1([root], blocks);
    const before = await usage();
    const pins = await pinTotal();

    const first = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    const held = gates.of(first);
    const sent = step2(first, 'POST', car);
    await held.reached;
    expect((await cancel(server, first)).json.data).toEqual({ outcome: 'cancelled', roots: [] });
    held.open();
    expect((await sent).status).toBe(409);
    for (const block of blocks) await expectNotServed(server, server.owner, block.cid.toString());
    expect(await usage()).toEqual(before);
    expect(await pinTotal()).toBe(pins);

    const second = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength });
    const again = gates.of(second);
    const stored = step2(second, 'POST', car);
    await again.reached;
    again.open();
    expect((await stored).status).toBe(200);
    expect((await cancel(server, second)).json.data).toEqual({ outcome: 'stored', roots: [root.toString()] });
    expect((await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: root.toString() } })).status).toBe(200);
    expect(await pinTotal()).toBe(pins + 1);
    expect((await usage()).ingress).toBe(before.ingress + car.byteLength);
  });

  it('a client that goes away after its last byte, before the commit: nothing is stored or counted', async () => {
    const bytes = randomData(200_000);
    const before = await usage();
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    const held = gates.of(url);
    // The server's side of this request: closed once the client went away.
    const closed = new Promise<void>((resolve) => {
      const onRequest = (request: IncomingMessage, response: ServerResponse) => {
        if (!request.url?.includes(new URL(url).searchParams.get('ssig') as string)) return;
        server.app.server.server.off('request', onRequest);
        response.once('close', () => resolve());
      };
      server.app.server.server.on('request', onRequest);
    });
    const controller = new AbortController();
    const sent = fetch(url, { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream' }, signal: controller.signal }).catch(
      (error: unknown) => error,
    );
    await held.reached;
    controller.abort();
    await closed;
    held.open();
    expect(await sent).toBeInstanceOf(Error);
    // Decided at its commit point, with no cancel asked: the client was gone. Asked afterwards, the same.
    expect(await held.ended).toEqual({ outcome: 'cancelled', roots: [] });
    expect((await cancel(server, url)).json.data).toEqual({ outcome: 'cancelled', roots: [] });
    await expectNotServed(server, server.owner, await referenceCid(bytes));
    expect(await usage()).toEqual(before);
  });

  it('an address cancelled before its step 2 came: refused (401), its reservation released at once', async () => {
    const bytes = randomData(1000);
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: bytes.byteLength });
    expect((await cancel(server, url)).json.data).toEqual({ outcome: 'cancelled', roots: [] });
    const late: Step2Result = await step2(url, 'POST', bytes);
    expect(late.status).toBe(401);
    expect(late.json).toEqual({ code: 401, msg: 'upload address was cancelled', error: 'unauthenticated' });
    await expectNotServed(server, server.owner, await referenceCid(bytes));
  });

  it('a cancel needs a whole address signed by this server', async () => {
    const url = await addressFor(server, server.owner, 'POST', '/ipfs/', { size: 10 });
    const address = new URL(url);
    const forged = `${address.origin}${address.pathname}?sargs=${address.searchParams.get('sargs') as string}&ssig=${'A'.repeat(43)}`;
    expect((await cancel(server, forged)).status).toBe(401);
    const missing = await call(server, 'POST', '/api/v0/upload/cancel', { key: null, noTs: true });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ msg: 'sargs and ssig are required: the upload address to cancel', param: 'sargs' });
  });
});

/**
 * The window's side of the same race (renderer/lib/upload-cancel.ts with the renderer's API client): what
 * the window says after a Cancel is what the service did, whichever came first.
 */
describe("the window's Cancel says what the service did", () => {
  let server: TestServer;
  const gates = uploadGates();
  beforeAll(async () => {
    server = await startTestServer({}, {}, undefined, { uploadTestHooks: gates.hooks });
  });
  afterAll(async () => {
    await server.stop();
  });

  /** A folder's CAR sent as the window sends it (dag/import, roots not pinned), stoppable; resolves with the root it answered. */
  async function folderUpload() {
    const { root, blocks } = await fileDag(randomData(150_000));
    const car = await carV1([root], blocks);
    const address = await addressFor(server, server.owner, 'POST', '/api/v0/dag/import', { size: car.byteLength, 'pin-roots': 'false' });
    const controller = new AbortController();
    const work = fetch(address, { method: 'POST', body: car, headers: { 'content-type': 'application/vnd.ipld.car' }, signal: controller.signal }).then(
      async (response) => {
        if (response.status !== 200) throw new Error(`step 2 answered ${response.status}`);
        return ((await response.json()) as { Roots: Array<{ Cid: { '/': string } }> }).Roots[0]?.Cid['/'] as string;
      },
    );
    // Observed here: the verdict reads it later.
    work.catch(() => undefined);
    return { root: root.toString(), car, address, controller, work, held: gates.of(address) };
  }

  it('Cancel before the commit: "cancelled", and nothing of it is stored or counted', async () => {
    const api = createPublicApiClient({ baseUrl: server.url });
    const before = counters(await stats(server, server.owner));
    const upload = await folderUpload();
    await upload.held.reached;
    upload.controller.abort();
    const verdict = await settleCancel({ work: upload.work, address: upload.address, cancelAddress: (address) => api.uploads.cancel(address) });
    upload.held.open();
    expect(verdict).toEqual({ kind: 'cancelled' });
    expect(await upload.held.ended).toEqual({ outcome: 'cancelled', roots: [] });
    expect((await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: upload.root } })).status).toBe(404);
    expect(counters(await stats(server, server.owner))).toEqual(before);
  });

  it('the commit before the Cancel: "stored", under the root it answered, and counted', async () => {
    const api = createPublicApiClient({ baseUrl: server.url });
    const before = counters(await stats(server, server.owner));
    const upload = await folderUpload();
    await upload.held.reached;
    upload.held.open();
    expect(await upload.held.ended).toEqual({ outcome: 'stored', roots: [upload.root] });
    upload.controller.abort();
    const verdict = await settleCancel({ work: upload.work, address: upload.address, cancelAddress: (address) => api.uploads.cancel(address) });
    expect(verdict).toEqual({ kind: 'stored', cid: upload.root });
    expect((await call(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: upload.root } })).status).toBe(200);
    expect((await stats(server, server.owner)).ingress).toBe(before.ingress + upload.car.byteLength);
  });
});
