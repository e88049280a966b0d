import { delegatedRoutingV1HttpApiClient, type DelegatedRoutingV1HttpApiClient } from '@helia/delegated-routing-v1-http-api-client';
import { generateKeyPair } from '@libp2p/crypto/keys';
import { peerIdFromString } from '@libp2p/peer-id';
import { marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns';
import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { base64url } from 'multiformats/bases/base64';
import { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../main/base/logger.js';
import { nameOfKey, type NameKey } from '../../main/names/keys.js';
import { signRecord } from '../../main/names/records.js';
import { componentLogger } from '../../main/network/libp2p-logger.js';
import '../../main/network/promise-with-resolvers.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, publishName } from './names-helpers.js';
import { MiB, randomData, uploadCid } from './uploads-helpers.js';

const IPNS_RECORD = 'application/vnd.ipfs.ipns-record';
const HOUR_MS = 60 * 60_000;

interface Provider {
  Schema: string;
  ID: string;
  Addrs: string[];
  Protocols: string[];
}

/** An unauthenticated request, as any routing client sends it. */
function get(server: TestServer, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { headers });
}

function put(server: TestServer, path: string, body: Uint8Array, contentType = IPNS_RECORD): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'PUT', headers: { 'content-type': contentType }, body });
}

describe('Delegated Routing V1 served by a public gateway (contract section 11)', () => {
  let a: TestServer;
  let closed: TestServer;
  let helia: DelegatedRoutingV1HttpApiClient;
  let held: string;
  let name: string;
  let selfAddr: string;

  beforeAll(async () => {
    a = await startTestServer({ publicGateway: true });
    closed = await startTestServer();
    // Over one chunk: a dag-pb root, which also has a CIDv0.
    held = await uploadCid(a, a.owner, randomData(MiB + 3000));
    name = await createdName(a, a.owner, held);
    const { port } = new URL(a.url);
    selfAddr = `/ip4/127.0.0.1/tcp/${port}/http`;
    helia = delegatedRoutingV1HttpApiClient({ url: `${a.url}/`, cacheTTL: 0 })({ logger: componentLogger(silentLogger) });
  });
  afterAll(async () => {
    await helia.stop();
    await a.stop();
    await closed.stop();
  });

  it('names itself the HTTP provider of a CID it holds, in JSON by default and in NDJSON when asked, with the spec headers', async () => {
    const json = await get(a, `/routing/v1/providers/${held}`);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.headers.get('cache-control')).toBe('public, max-age=300, stale-while-revalidate=172800, stale-if-error=172800');
    expect(json.headers.get('vary')).toBe('Accept');
    expect(Number.isNaN(Date.parse(json.headers.get('last-modified') ?? ''))).toBe(false);
    const body = (await json.json()) as { Providers: Provider[] };
    expect(Object.keys(body)).toEqual(['Providers']);
    expect(body.Providers).toHaveLength(1);
    const [provider] = body.Providers;
    expect(provider).toEqual({
      Schema: 'peer',
      ID: expect.stringMatching(/^12D3KooW/) as string,
      Addrs: [selfAddr],
      Protocols: ['transport-ipfs-gateway-http'],
    });
    // A peer ID a libp2p parser reads: an Ed25519 key.
    expect(peerIdFromString(provider?.ID ?? '').type).toBe('Ed25519');

    const ndjson = await get(a, `/routing/v1/providers/${held}`, { accept: 'application/x-ndjson' });
    expect(ndjson.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const lines = (await ndjson.text()).split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(JSON.parse(lines[0] ?? '')).toEqual(provider);

    // Its peers route answers its own record, by either form of its ID, and nobody else's.
    const peers = (await (await get(a, `/routing/v1/peers/${provider?.ID ?? ''}`)).json()) as { Peers: Provider[] };
    expect(peers.Peers).toEqual([provider]);
    const asCid = peerIdFromString(provider?.ID ?? '')
      .toCID()
      .toString(base36);
    expect(((await (await get(a, `/routing/v1/peers/${asCid}`)).json()) as { Peers: Provider[] }).Peers).toEqual([provider]);
    expect(((await (await get(a, '/routing/v1/peers/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN')).json()) as { Peers: Provider[] }).Peers).toEqual(
      [],
    );
  });

  it('takes the CID in any multibase and version, answers none (200) for a CID it lacks, and applies the IPIP-484 filters', async () => {
    const cid = CID.parse(held);
    expect(cid.code).toBe(0x70);
    for (const form of [cid.toString(base36), cid.toString(base58btc), cid.toString(base64url), cid.toV0().toString()]) {
      const answer = (await (await get(a, `/routing/v1/providers/${form}`)).json()) as { Providers: Provider[] };
      expect(answer.Providers, form).toHaveLength(1);
    }
    const missing = await get(a, `/routing/v1/providers/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`);
    expect(missing.status).toBe(200);
    expect(missing.headers.get('cache-control')).toBe('public, max-age=15, stale-while-revalidate=172800, stale-if-error=172800');
    expect(await missing.json()).toEqual({ Providers: [] });
    const missingStream = await get(a, `/routing/v1/providers/bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy`, { accept: 'application/x-ndjson' });
    expect(await missingStream.text()).toBe('');

    const count = async (query: string): Promise<number> =>
      ((await (await get(a, `/routing/v1/providers/${held}?${query}`)).json()) as { Providers: Provider[] }).Providers.length;
    expect(await count('filter-protocols=transport-bitswap')).toBe(0);
    expect(await count('filter-protocols=transport-bitswap,TRANSPORT-IPFS-GATEWAY-HTTP')).toBe(1);
    expect(await count('filter-addrs=webtransport')).toBe(0);
    expect(await count('filter-addrs=http')).toBe(1);
    expect(await count('filter-addrs=!ip4')).toBe(0);
    expect(await count('filter-addrs=!ip6,tcp')).toBe(1);

    const notCid = await get(a, '/routing/v1/providers/not-a-cid');
    expect(notCid.status).toBe(400);
    expect(await notCid.json()).toEqual({ code: 400, msg: 'cid: "not-a-cid" is not a valid CID', error: 'bad_input', param: 'cid' });
    expect((await get(a, `/routing/v1/providers/${held}`, { accept: 'text/html' })).status).toBe(400);
    const unknown = await get(a, '/routing/v1/nothing-here');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ code: 400, msg: 'no routing API at /routing/v1/nothing-here', error: 'bad_input' });
    const unimplemented = await get(a, `/routing/v1/dht/closest/peers/${held}`);
    expect(unimplemented.status).toBe(501);
    expect(await unimplemented.json()).toMatchObject({ code: 501, error: 'not_implemented' });
  });

  it('serves the signed record of a name it holds, with the spec headers; a name it lacks has no record', async () => {
    const answer = await get(a, `/routing/v1/ipns/${name}`, { accept: IPNS_RECORD });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe(IPNS_RECORD);
    expect(answer.headers.get('cache-control')).toMatch(/^public, max-age=300, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect(answer.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Date.parse(answer.headers.get('expires') ?? '')).toBeGreaterThan(Date.now() + 300 * 24 * HOUR_MS);
    const record = unmarshalIPNSRecord(new Uint8Array(await answer.arrayBuffer()));
    expect(record.value).toBe(`/ipfs/${held}`);
    expect((await get(a, `/routing/v1/ipns/${name}`, { 'if-none-match': answer.headers.get('etag') ?? '' })).status).toBe(304);
    expect((await get(a, `/routing/v1/ipns/${name}`, { accept: 'application/json' })).status).toBe(406);

    const stranger = nameOfKey(await generateKeyPair('Ed25519'));
    const none = await get(a, `/routing/v1/ipns/${stranger}`, { accept: IPNS_RECORD });
    expect(none.status).toBe(200);
    expect(none.headers.get('content-type')).not.toContain(IPNS_RECORD);
    expect((await get(a, '/routing/v1/ipns/not-a-name')).status).toBe(400);
  });

  it('takes a verified PUT of a name held elsewhere, never an older one, a forged one, or one for a name it holds', async () => {
    const key = (await generateKeyPair('Ed25519')) as NameKey;
    const other = nameOfKey(key);
    const first = await signRecord(key, CID.parse(held), 1, Date.now(), HOUR_MS);
    expect((await put(a, `/routing/v1/ipns/${other}`, first, 'application/octet-stream')).status).toBe(406);
    expect((await put(a, `/routing/v1/ipns/${other}`, first)).status).toBe(200);
    // The same record again is fine (a publisher refreshing it).
    expect((await put(a, `/routing/v1/ipns/${other}`, first)).status).toBe(200);
    const served = await get(a, `/routing/v1/ipns/${other}`, { accept: IPNS_RECORD });
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(first))).toBe(true);

    const older = await signRecord(key, CID.parse(held), 0, Date.now(), HOUR_MS);
    expect((await put(a, `/routing/v1/ipns/${other}`, older)).status).toBe(409);
    const parsed = unmarshalIPNSRecord(await signRecord(key, CID.parse(held), 5, Date.now(), HOUR_MS));
    const signature = Uint8Array.from(parsed.signatureV2);
    signature[3] = (signature[3] ?? 0) ^ 1;
    expect((await put(a, `/routing/v1/ipns/${other}`, marshalIPNSRecord({ ...parsed, signatureV2: signature }))).status).toBe(400);
    const own = new Uint8Array(await (await get(a, `/routing/v1/ipns/${name}`)).arrayBuffer());
    expect((await put(a, `/routing/v1/ipns/${name}`, own)).status).toBe(409);
    // Still the first one.
    const after = await get(a, `/routing/v1/ipns/${other}`, { accept: IPNS_RECORD });
    expect(unmarshalIPNSRecord(new Uint8Array(await after.arrayBuffer())).sequence).toBe(1n);
  });

  it('is what the helia delegated routing client reads and writes', async () => {
    const providers = [];
    for await (const provider of helia.getProviders(CID.parse(held))) providers.push(provider);
    expect(providers).toHaveLength(1);
    expect(providers[0]?.Protocols).toEqual(['transport-ipfs-gateway-http']);
    expect(providers[0]?.Addrs.map((addr) => addr.toString())).toEqual([selfAddr]);

    const nameCid = CID.parse(name, base36);
    const record = unmarshalIPNSRecord(await helia.getIPNS(nameCid));
    expect(record.value).toBe(`/ipfs/${held}`);
    const next = await publishName(a, a.owner, name, held);
    expect(next.status).toBe(200);
    expect(unmarshalIPNSRecord(await helia.getIPNS(nameCid)).sequence).toBe(1n);

    const key = (await generateKeyPair('Ed25519')) as NameKey;
    const elsewhere = CID.parse(nameOfKey(key), base36);
    await helia.putIPNS(elsewhere, await signRecord(key, CID.parse(held), 3, Date.now(), HOUR_MS));
    expect(unmarshalIPNSRecord(await helia.getIPNS(elsewhere)).sequence).toBe(3n);
  });

  it('is not served without --public-gateway: 404', async () => {
    for (const path of [
      `/routing/v1/providers/${held}`,
      `/routing/v1/ipns/${name}`,
      '/routing/v1/peers/12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN',
    ]) {
      expect((await get(closed, path)).status, path).toBe(404);
    }
    expect((await put(closed, `/routing/v1/ipns/${name}`, new Uint8Array([1]))).status).toBe(404);
  });
});
