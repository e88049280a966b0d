import { randomBytes, randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Configuration, RemotePinningServiceClient, Status, TextMatchingStrategy, type PinStatus } from '@ipfs-shipyard/pinning-service-client';
import { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewAccessKey, PinListEnvelope, Permission } from '../../shared/api-types.js';
import { createUser, rawRequest } from '../helpers/account-api.js';
import { call, makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { uploadCid } from './uploads-helpers.js';

/**
 * The IPFS Pinning Service API at /psa (contract section 11), driven the way Kubo drives a remote pinning
 * service (`ipfs pin remote add --background`, `ls`, `rm`) through the generated client
 * (@ipfs-shipyard/pinning-service-client), and checked against the account's pin list (GET /api/v0/pin): one pin set.
 */

/** Plan 1 (every new account's) with room for three pins: the fourth is the plan limit. */
const SMALL = {
  id: 1,
  name: 'Small',
  price: '0.00',
  pinned_count_limit: 3,
  pinned_bytes_limit: 1_000_000,
  ingress_limit: 10_000_000,
  egress_limit: 10_000_000,
  ipns_limit: 1,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A raw CID of random bytes no one holds: its pin stays `pinning` (`queued` on the PSA). */
async function missingCid(): Promise<string> {
  return CID.create(1, raw.code, await sha256.digest(randomBytes(32))).toString();
}

function clientFor(server: TestServer, token: string | undefined): RemotePinningServiceClient {
  return new RemotePinningServiceClient(new Configuration({ endpointUrl: `${server.url}/psa`, ...(token !== undefined ? { accessToken: token } : {}) }));
}

/** The client throws the Response of a refusal: its status, body and WWW-Authenticate. */
async function refusal(attempt: Promise<unknown>): Promise<{ status: number; body: unknown; authenticate: string | null }> {
  try {
    await attempt;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    return { status: thrown.status, body: await thrown.json(), authenticate: thrown.headers.get('www-authenticate') };
  }
  throw new Error('the call was not refused');
}

/** `ipfs pin remote rm --service=… --cid=<cid>`: Kubo lists the pinned pins of that CID, then deletes each by requestid. */
async function kuboRemoteRm(client: RemotePinningServiceClient, cid: string): Promise<number> {
  const { results } = await client.pinsGet({ cid: [cid], status: [Status.Pinned] });
  for (const pin of results) await client.pinsRequestidDelete({ requestid: pin.requestid });
  return results.length;
}

describe('Pinning Service API (contract section 11)', () => {
  let server: TestServer;
  let dataDir: string;
  let delegate: string;
  beforeAll(async () => {
    dataDir = await makeTempDir();
    await writeFile(join(dataDir, 'plans.json'), JSON.stringify([SMALL]));
    server = await startTestServer({ dataDir });
    delegate = `/ip4/127.0.0.1/tcp/${new URL(server.url).port}/http`;
  });
  afterAll(async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A new account (Free plan: the small one above) and a key of it with these permissions. */
  async function newAccountKey(permissions: Permission[]): Promise<NewAccessKey> {
    const uuid = randomUUID();
    await createUser(server, server.owner, uuid);
    const answer = await call<{ data: NewAccessKey }>(server, 'POST', '/api/v0/partner/user/key', {
      key: server.owner,
      body: { uuid, name: 'psa', permissions },
    });
    expect(answer.status).toBe(200);
    return answer.json.data;
  }

  async function accountPins(key: NewAccessKey): Promise<PinListEnvelope['data']> {
    return (await call<PinListEnvelope>(server, 'GET', '/api/v0/pin', { key, query: { limit: 100 } })).json.data;
  }

  it('shows the token with the secret when a key is created: <access_key>.<access_secret>', async () => {
    const created = await call<{ data: NewAccessKey }>(server, 'POST', '/api/v0/key', {
      key: server.owner,
      body: { name: 'kubo', permissions: ['pin', 'unpin'] },
    });
    expect(created.status).toBe(200);
    const { access_key, access_secret, psa_token } = created.json.data;
    expect(psa_token).toBe(`${access_key}.${access_secret}`);
    expect(psa_token).toMatch(/^[A-Za-z0-9._~+/-]+=*$/);
    const partnerMade = await newAccountKey(['admin']);
    expect(partnerMade.psa_token).toBe(`${partnerMade.access_key}.${partnerMade.access_secret}`);
  });

  it('runs Kubo’s flow: add in the background, ls by status, get, replace, rm; the pins are the account’s, in GET /api/v0/pin', async () => {
    const key = await newAccountKey(['admin']);
    const client = clientFor(server, key.psa_token);
    const held = await uploadCid(server, key, randomBytes(2000));
    const missing = await missingCid();

    // `ipfs pin remote add --background`: the answer is the pin's status at once, never awaited.
    const pinned = await client.pinsPost({ pin: { cid: held, name: 'held file', meta: { app: 'kubo' } } });
    expect(pinned).toMatchObject({ status: Status.Pinned, pin: { cid: held, name: 'held file', meta: { app: 'kubo' }, origins: [] }, delegates: [delegate] });
    expect(pinned.requestid).toMatch(UUID);
    expect(pinned.info).toEqual({ dag_size: expect.stringMatching(/^\d+$/) as string });
    expect(Math.abs(pinned.created.getTime() - Date.now())).toBeLessThan(60_000);
    const queued = await client.pinsPost({
      pin: {
        cid: missing,
        name: 'from elsewhere',
        origins: [
          '/ip4/127.0.0.1/tcp/9/http',
          '/ip4/198.51.100.7/tcp/4001/p2p/12D3KooWGzxzKZYveHXtpG6AsrUJBcWxHBFS2HsEoGTxrMLvKXtf',
          '/dns4/example.org/tcp/443/https',
        ],
      },
    });
    expect(queued).toMatchObject({
      status: Status.Queued,
      pin: { cid: missing, origins: ['/ip4/127.0.0.1/tcp/9/http', '/dns4/example.org/tcp/443/https'], meta: {} },
    });
    expect(queued.requestid).not.toBe(pinned.requestid);

    // One pin set: the account API shows both, by name and status.
    expect((await accountPins(key)).map((pin) => [pin.cid, pin.name, pin.status])).toEqual([
      [missing, 'from elsewhere', 'pinning'],
      [held, 'held file', 'pinned'],
    ]);

    // `ipfs pin remote ls` (status pinned, its default and the spec's), then by the other statuses.
    const ls = await client.pinsGet({});
    expect(ls.count).toBe(1);
    expect(ls.results.map((pin) => pin.requestid)).toEqual([pinned.requestid]);
    expect((await client.pinsGet({ status: [Status.Queued, Status.Pinning] })).results.map((pin) => pin.pin.cid)).toEqual([missing]);
    expect((await client.pinsGet({ status: [Status.Pinning] })).count).toBe(0);
    // A filter without a status matches every status (the spec's "only successful pins" is for no filter at all).
    expect((await client.pinsGet({ name: 'from elsewhere' })).results.map((pin) => pin.status)).toEqual([Status.Queued]);
    expect((await client.pinsGet({ status: [Status.Queued, Status.Pinned, Status.Failed] })).results.map((pin) => pin.pin.cid)).toEqual([missing, held]);
    expect((await client.pinsGet({ status: [Status.Pinned, Status.Queued], cid: [held] })).results.map((pin) => pin.pin.cid)).toEqual([held]);
    expect((await client.pinsGet({ status: [Status.Pinned, Status.Queued], meta: { app: 'kubo' } })).results.map((pin) => pin.pin.cid)).toEqual([held]);
    expect((await client.pinsGet({ status: [Status.Pinned, Status.Queued], name: 'ELSEWHERE', match: TextMatchingStrategy.Ipartial })).count).toBe(1);
    expect((await client.pinsGet({ status: [Status.Pinned, Status.Queued], name: 'ELSEWHERE', match: TextMatchingStrategy.Partial })).count).toBe(0);

    expect(await client.pinsRequestidGet({ requestid: queued.requestid })).toMatchObject({ requestid: queued.requestid, status: Status.Queued });

    // Replace: a new pin (a new requestid), the old one gone.
    const replacement = await missingCid();
    const replaced = await client.pinsRequestidPost({ requestid: queued.requestid, pin: { cid: replacement, name: 'replacement' } });
    expect(replaced.requestid).not.toBe(queued.requestid);
    expect(replaced).toMatchObject({ status: Status.Queued, pin: { cid: replacement, name: 'replacement' } });
    expect(await refusal(client.pinsRequestidGet({ requestid: queued.requestid }))).toMatchObject({ status: 404, body: { error: { reason: 'NOT_FOUND' } } });
    expect((await accountPins(key)).map((pin) => [pin.cid, pin.status])).toEqual([
      [replacement, 'pinning'],
      [missing, 'unpinning'],
      [held, 'pinned'],
    ]);
    // Replacing a pin by its own CID renews its requestid.
    const renewed = await client.pinsRequestidPost({ requestid: replaced.requestid, pin: { cid: replacement } });
    expect(renewed.requestid).not.toBe(replaced.requestid);
    expect(renewed.pin).toMatchObject({ cid: replacement, name: 'replacement' });

    // `ipfs pin remote rm --cid`: gone from the PSA, `unpinning` in the account's list.
    expect(await kuboRemoteRm(client, held)).toBe(1);
    expect(await refusal(client.pinsRequestidGet({ requestid: pinned.requestid }))).toMatchObject({ status: 404 });
    expect((await client.pinsGet({})).count).toBe(0);
    expect((await accountPins(key)).find((pin) => pin.cid === held)?.status).toBe('unpinning');
    // Pinned again, it is a new pin request.
    const again = await client.pinsPost({ pin: { cid: held } });
    expect(again).toMatchObject({ status: Status.Pinned });
    expect(again.requestid).not.toBe(pinned.requestid);
    expect(again.pin).toEqual({ cid: held, name: 'held file', origins: [], meta: {} });
  });

  it('pages by created: each pin has its own, so `before` the oldest of a page reads the next with none lost', async () => {
    const client = clientFor(server, `${server.owner.access_key}.${server.owner.access_secret}`);
    const made = new Set<string>();
    for (let i = 0; i < 15; i++) made.add((await client.pinsPost({ pin: { cid: await missingCid(), meta: { batch: 'paging' } } })).requestid);
    const seen: string[] = [];
    let before: Date | undefined;
    for (;;) {
      const page = await client.pinsGet({ status: [Status.Queued], meta: { batch: 'paging' }, limit: 4, ...(before ? { before } : {}) });
      expect(page.count).toBe(15 - seen.length);
      if (page.results.length === 0) break;
      seen.push(...page.results.map((pin) => pin.requestid));
      const created = page.results.map((pin) => pin.created.getTime());
      expect([...created].sort((a, b) => b - a)).toEqual(created);
      before = (page.results[page.results.length - 1] as PinStatus).created;
    }
    expect(seen).toHaveLength(15);
    expect(new Set(seen)).toEqual(made);
    const newest = await client.pinsGet({ status: [Status.Queued], meta: { batch: 'paging' }, limit: 1 });
    const after = await client.pinsGet({ status: [Status.Queued], meta: { batch: 'paging' }, after: before, limit: 1000 });
    expect(after.count).toBe(14);
    expect(after.results[0]?.requestid).toBe(newest.results[0]?.requestid);
  });

  it('refuses in the PSA’s shape: no token or a wrong one 401, a permission missing 403, the plan’s limit 409 INSUFFICIENT_FUNDS, bad input 400', async () => {
    const pinOnly = await newAccountKey(['pin']);
    expect(await refusal(clientFor(server, undefined).pinsGet({}))).toEqual({
      status: 401,
      body: { error: { reason: 'UNAUTHORIZED', details: 'Authorization: Bearer <token> header is required' } },
      authenticate: 'Bearer realm="pinfold"',
    });
    for (const token of ['purposefullyInvalid', `${pinOnly.access_key}.${pinOnly.access_secret.slice(1)}x`, `${randomUUID()}.${pinOnly.access_secret}`]) {
      expect(await refusal(clientFor(server, token).pinsPost({ pin: { cid: await missingCid() } }))).toMatchObject({
        status: 401,
        body: { error: { reason: 'UNAUTHORIZED' } },
      });
    }
    // The key headers and `ts` are not the PSA's credentials.
    const headers = await call(server, 'GET', '/psa/pins', { key: pinOnly });
    expect(headers.status).toBe(401);
    expect(headers.json).toEqual({ error: { reason: 'UNAUTHORIZED', details: 'Authorization: Bearer <token> header is required' } });

    const client = clientFor(server, pinOnly.psa_token);
    const added = await client.pinsPost({ pin: { cid: await missingCid() } });
    expect(await refusal(client.pinsRequestidDelete({ requestid: added.requestid }))).toMatchObject({
      status: 403,
      body: { error: { reason: 'FORBIDDEN', details: 'permission missing: unpin' } },
    });
    expect(await refusal(client.pinsRequestidPost({ requestid: added.requestid, pin: { cid: await missingCid() } }))).toMatchObject({
      status: 403,
      body: { error: { reason: 'FORBIDDEN', details: 'permission missing: unpin' } },
    });
    expect(await refusal(client.pinsGet({}))).toMatchObject({ status: 403, body: { error: { reason: 'FORBIDDEN', details: 'permission missing: admin' } } });

    const admin = await newAccountKey(['admin']);
    const full = clientFor(server, admin.psa_token);
    for (let i = 0; i < SMALL.pinned_count_limit; i++) await full.pinsPost({ pin: { cid: await missingCid() } });
    const before = await accountPins(admin);
    expect(await refusal(full.pinsPost({ pin: { cid: await missingCid() } }))).toEqual({
      status: 409,
      body: { error: { reason: 'INSUFFICIENT_FUNDS', details: 'plan limit reached: pinned_count' } },
      authenticate: null,
    });
    expect(await accountPins(admin)).toEqual(before);
    // A replace by another CID needs a pin more until GC removes the old one: refused alike; by the same CID, it is not.
    const [first] = (await full.pinsGet({ status: [Status.Queued], limit: 1 })).results;
    if (!first) throw new Error('no pin to replace');
    expect(await refusal(full.pinsRequestidPost({ requestid: first.requestid, pin: { cid: await missingCid() } }))).toMatchObject({
      status: 409,
      body: { error: { reason: 'INSUFFICIENT_FUNDS' } },
    });
    expect(await full.pinsRequestidGet({ requestid: first.requestid })).toMatchObject({ requestid: first.requestid, status: Status.Queued });
    const same = await full.pinsRequestidPost({ requestid: first.requestid, pin: { cid: first.pin.cid, name: 'renamed' } });
    expect(same).toMatchObject({ status: Status.Queued, pin: { cid: first.pin.cid, name: 'renamed' } });
    expect(same.requestid).not.toBe(first.requestid);
    const afterReplace = await accountPins(admin);
    expect(afterReplace.map((pin) => [pin.cid, pin.status])).toEqual(before.map((pin) => [pin.cid, pin.status]));

    const bad = async (method: string, path: string, body?: unknown) => {
      const answer = await rawRequest(
        server.url,
        method,
        path,
        { Authorization: `Bearer ${admin.psa_token}`, 'Content-Type': 'application/json' },
        body === undefined ? undefined : JSON.stringify(body),
      );
      return { status: answer.status, type: answer.headers['content-type'], body: JSON.parse(answer.body) as unknown };
    };
    expect(await bad('POST', '/psa/pins', { cid: 'not-a-cid' })).toMatchObject({
      status: 400,
      type: expect.stringMatching(/^application\/json/) as string,
      body: { error: { reason: 'BAD_REQUEST', details: 'cid is not a valid CID: not-a-cid' } },
    });
    expect(await bad('POST', '/psa/pins', { cid: await missingCid(), origins: 'x' })).toMatchObject({
      status: 400,
      body: { error: { details: 'origins must be an array of multiaddrs' } },
    });
    expect(await bad('POST', '/psa/pins', { cid: await missingCid(), meta: { n: 1 } })).toMatchObject({
      status: 400,
      body: { error: { details: 'meta.n must be a string' } },
    });
    expect(await bad('GET', '/psa/pins?limit=0')).toMatchObject({ status: 400, body: { error: { details: 'limit must be an integer from 1 to 1000' } } });
    expect(await bad('GET', '/psa/pins?status=done')).toMatchObject({ status: 400, body: { error: { reason: 'BAD_REQUEST' } } });
    expect(await bad('GET', '/psa/pins?before=yesterday')).toMatchObject({ status: 400, body: { error: { reason: 'BAD_REQUEST' } } });
    expect(await bad('GET', '/psa/pins?match=regex&name=x')).toMatchObject({ status: 400, body: { error: { reason: 'BAD_REQUEST' } } });
    expect(await bad('GET', '/psa/pins?meta=%7B%22a%22%3A1%7D')).toMatchObject({ status: 400, body: { error: { details: 'meta.a must be a string' } } });
    expect(await bad('GET', '/psa/nothing')).toMatchObject({ status: 404, body: { error: { reason: 'NOT_FOUND' } } });
    expect(await bad('GET', `/psa/pins/${randomUUID()}`)).toMatchObject({ status: 404, body: { error: { reason: 'NOT_FOUND' } } });
    expect(await accountPins(admin)).toEqual(afterReplace);

    const rebinding = await rawRequest(server.url, 'GET', '/psa/pins', { Host: 'evil.example', Authorization: `Bearer ${admin.psa_token}` });
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body)).toMatchObject({ error: { reason: 'FORBIDDEN' } });
  });

  it('a key deleted stops its token at once', async () => {
    const created = await call<{ data: NewAccessKey }>(server, 'POST', '/api/v0/key', {
      key: server.owner,
      body: { name: 'short-lived', permissions: ['admin'] },
    });
    const client = clientFor(server, created.json.data.psa_token);
    expect((await client.pinsGet({})).count).toBeGreaterThanOrEqual(0);
    expect((await call(server, 'DELETE', '/api/v0/key', { key: server.owner, body: { name: 'short-lived' } })).status).toBe(200);
    expect(await refusal(client.pinsGet({}))).toMatchObject({ status: 401 });
  });
});
