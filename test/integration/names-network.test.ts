import { marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tryParseIpnsName } from '../../main/names/name-parse.js';
import type { IpnsRecordView, PinRecord } from '../../shared/api-types.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/scripted-server.js';
import { call, startTestServer, testClock, type TestServer } from '../helpers/test-server.js';
import { createdName, publishName } from './names-helpers.js';
import { gatewayGet, MiB, randomData, uploadCid } from './uploads-helpers.js';
import { until } from '../helpers/until.js';

const IPNS_RECORD = 'application/vnd.ipfs.ipns-record';
/** The TTL of the records Pinfold signs (contract section 7): a name held elsewhere is looked up again after it. */
const TTL_MS = 300_000;

/** A's record of `name` as its served routing API answers it (A is a public gateway). */
async function recordAt(server: TestServer, name: string): Promise<Uint8Array | null> {
  const response = await fetch(`${server.url}/routing/v1/ipns/${name}`, { headers: { accept: IPNS_RECORD } });
  if (!(response.headers.get('content-type') ?? '').includes(IPNS_RECORD)) return null;
  return new Uint8Array(await response.arrayBuffer());
}

/** The sequence of the record a server resolves `name` to (`?format=ipns-record`), or its status when none. */
async function resolvedSequence(server: TestServer, name: string): Promise<bigint | number> {
  const answer = await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } });
  return answer.status === 200 ? unmarshalIPNSRecord(answer.bytes).sequence : answer.status;
}

function forged(record: Uint8Array, sequence: bigint): Uint8Array {
  const parsed = unmarshalIPNSRecord(record);
  return marshalIPNSRecord({ ...parsed, sequence });
}

describe('names on the IPFS network between two Pinfolds on loopback (contract section 11)', () => {
  let a: TestServer;
  let b: TestServer;
  let content: Uint8Array;
  let cid: string;
  let name: string;
  const others: { stop(): Promise<void> }[] = [];
  const scripted: ScriptedServer[] = [];

  beforeAll(async () => {
    a = await startTestServer({ publicGateway: true });
    // Several blocks (1 MiB chunks): B walks the file, fetching each.
    content = randomData(2 * MiB + 12345);
    cid = await uploadCid(a, a.owner, content);
    name = await createdName(a, a.owner, cid);
    b = await startTestServer({ network: { routing: [a.url], fetchFrom: [a.url] } }, {}, undefined, { namePublishing: { minPutIntervalMs: 100 } });
  });
  afterAll(async () => {
    for (const server of [...others, b, a]) await server.stop();
    for (const server of scripted) await server.close();
  });

  it('B serves /ipns/<A name> for a name it does not hold: the record found through A, the content fetched from A, verified, not pinned', async () => {
    const served = await gatewayGet(b, b.owner, `/ipns/${name}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(Buffer.from(content))).toBe(true);
    // The record B serves is A's, as signed.
    const record = await gatewayGet(b, b.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } });
    expect(record.bytes.equals(Buffer.from((await recordAt(a, name)) ?? []))).toBe(true);
    // B holds the blocks now (read from its store alone), unpinned: GC's grace period keeps them a while.
    const cached = await gatewayGet(b, b.owner, `/ipfs/${cid}`, { headers: { 'cache-control': 'only-if-cached' } });
    expect(cached.status).toBe(200);
    const pins = await call<{ data: PinRecord[] }>(b, 'GET', '/api/v0/pin', { key: b.owner });
    expect(pins.json.data).toEqual([]);
    // A name neither holds: 404, as before.
    const unknown = 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8';
    expect((await gatewayGet(b, b.owner, `/ipns/${unknown}`)).status).toBe(404);
  });

  it('asks a fetch source for the record too (?format=ipns-record), with no routing endpoint at all', async () => {
    const sourceOnly = await startTestServer({ network: { fetchFrom: [a.url] } });
    others.push(sourceOnly);
    const served = await gatewayGet(sourceOnly, sourceOnly.owner, `/ipns/${name}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(Buffer.from(content))).toBe(true);
  });

  it('never goes back to a lower sequence than it has seen, and refuses a record that does not verify (a lying routing server)', async () => {
    const lying = await createdName(a, a.owner, cid);
    const first = await recordAt(a, lying);
    expect((await publishName(a, a.owner, lying, cid)).status).toBe(200);
    const second = await recordAt(a, lying);
    if (first === null || second === null) throw new Error('A serves no record of its own name');
    let answer = second;
    const liar = await startScriptedServer((request, response) => {
      if (request.method === 'GET' && request.url?.startsWith('/routing/v1/ipns/') === true) {
        response.writeHead(200, { 'content-type': IPNS_RECORD });
        response.end(answer);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"Providers":[]}');
    });
    scripted.push(liar);
    const asked = () => liar.requests.filter((request) => request.url.startsWith('/routing/v1/ipns/')).length;

    const clock = testClock();
    const c = await startTestServer({ network: { routing: [liar.url] }, tsWindowSeconds: 24 * 3600 }, {}, clock);
    others.push(c);
    expect(await resolvedSequence(c, lying)).toBe(1n);

    // The liar hands out the older record: once the TTL is over C asks again, and keeps the newer one.
    answer = first;
    clock.advance(TTL_MS);
    expect(await resolvedSequence(c, lying)).toBe(1n);
    expect(asked()).toBe(2);
    // A record that claims a higher sequence but whose signature no longer covers it: refused.
    answer = forged(second, 9n);
    clock.advance(TTL_MS);
    expect(await resolvedSequence(c, lying)).toBe(1n);
    expect(asked()).toBe(3);

    // A server that has only ever been handed the forged record resolves nothing.
    const d = await startTestServer({ network: { routing: [liar.url] } });
    others.push(d);
    expect(await resolvedSequence(d, lying)).toBe(404);
  });

  it('B marks a name public: its record and every new one reach the routing endpoint (A), which then serves and resolves it', async () => {
    const own = await uploadCid(b, b.owner, randomData(4000));
    const published = await createdName(b, b.owner, own);
    expect(await recordAt(a, published)).toBeNull();

    const marked = await call<{ data: IpnsRecordView }>(b, 'POST', '/api/v0/name/public', { key: b.owner, query: { arg: published, on: true } });
    expect(marked.status).toBe(200);
    expect(marked.json.data).toMatchObject({ name: published, public: true });
    const view = await call<{ data: IpnsRecordView }>(b, 'GET', `/api/v0/ipns/${published}`, { key: b.owner });
    expect(view.json.data.public).toBe(true);

    const atA = await until('B record on A', async () => (await recordAt(a, published)) ?? undefined);
    expect(unmarshalIPNSRecord(atA).value).toBe(`/ipfs/${own}`);
    expect((await publishName(b, b.owner, published, cid)).status).toBe(200);
    await until('the new record on A', async () => {
      const record = await recordAt(a, published);
      return record !== null && unmarshalIPNSRecord(record).sequence === 1n ? true : undefined;
    });
    // A keeps it: its own gateway resolves the name (to content A holds).
    const resolved = await gatewayGet(a, a.owner, `/ipns/${published}`);
    expect(resolved.bytes.equals(Buffer.from(content))).toBe(true);

    // Bad input changes nothing.
    expect((await call(b, 'POST', '/api/v0/name/public', { key: b.owner, query: { arg: published, on: 'yes' } })).status).toBe(400);
    expect((await call(b, 'POST', '/api/v0/name/public', { key: b.owner, query: { arg: 'nope', on: true } })).status).toBe(400);
    expect((await call(a, 'POST', '/api/v0/name/public', { key: a.owner, query: { arg: published, on: false } })).status).toBe(404);
    const off = await call<{ data: IpnsRecordView }>(b, 'POST', '/api/v0/name/public', { key: b.owner, query: { arg: published, on: false } });
    expect(off.json.data.public).toBe(false);
  });

  it('retries a routing endpoint that fails until it accepts the record', async () => {
    const bodies: Buffer[] = [];
    const flaky = await startScriptedServer((request, response, body) => {
      if (request.method !== 'PUT') {
        response.writeHead(404);
        response.end();
        return;
      }
      bodies.push(body);
      response.writeHead(bodies.length <= 2 ? 503 : 200);
      response.end();
    });
    scripted.push(flaky);
    const e = await startTestServer({ network: { routing: [flaky.url] } }, {}, undefined, { namePublishing: { retryFirstMs: 50, retryMaxMs: 200 } });
    others.push(e);
    const own = await uploadCid(e, e.owner, randomData(100));
    const published = await createdName(e, e.owner, own);
    expect((await call(e, 'POST', '/api/v0/name/public', { key: e.owner, query: { arg: published, on: true } })).status).toBe(200);
    await until('the third PUT', async () => (bodies.length >= 3 ? true : undefined));
    // The name as a CIDv1 (the routing client writes it in base32): the same key as the base36 name.
    const asked = flaky.requests.slice(0, 3).map((request) => [request.method, tryParseIpnsName(request.url.replace('/routing/v1/ipns/', ''))?.name]);
    expect(asked).toEqual(Array(3).fill(['PUT', published]));
    expect(new Set(bodies.map((body) => body.toString('hex'))).size).toBe(1);
    expect(unmarshalIPNSRecord(bodies[0] ?? new Uint8Array()).value).toBe(`/ipfs/${own}`);
  });
});
