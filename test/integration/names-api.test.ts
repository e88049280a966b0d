import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpnsRecordView, PinRecord } from '../../shared/api-types.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import {
  createdName,
  createName,
  decodeValidRecord,
  fetchRecord,
  importName,
  ipfsValue,
  namesTotal,
  peerIdOf,
  publishName,
  removeName,
  type Envelope,
} from './names-helpers.js';
import { fixtureKey, fixtureKeys, type FixtureKey } from '../helpers/fixture-keys.js';
import { asCall, counters, gatewayGet, randomData, stats, uploadCid, type Key } from './uploads-helpers.js';

const RAW_CODEC = 0x55;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Before any server of this file signs a record: validity is bracketed by this and "now", not by a tolerance. */
const SUITE_START_MS = Date.now();
const TTL_NS = 300n * 1_000_000_000n;

/** A record as the contract wants it: V1+V2 signed, valid for the ipns package, one year, TTL 5 min. */
async function expectRecord(server: TestServer, key: Key, name: string, want: { sequence: bigint; cid: string }): Promise<void> {
  const record = await decodeValidRecord(name, await fetchRecord(server, key, name));
  expect(record.sequence).toBe(want.sequence);
  expect(record.value).toBe(ipfsValue(want.cid));
  expect(record.ttl).toBe(TTL_NS);
  expect('signatureV1' in record && record.signatureV1.byteLength > 0).toBe(true);
  expect(record.signatureV2.byteLength).toBeGreaterThan(0);
  const validUntil = Date.parse(record.validity);
  expect(validUntil).toBeGreaterThanOrEqual(SUITE_START_MS + YEAR_MS);
  expect(validUntil).toBeLessThanOrEqual(Date.now() + YEAR_MS);
}

async function servedText(server: TestServer, key: Key, path: string): Promise<string> {
  const response = await gatewayGet(server, key, path);
  expect(response.status, response.bytes.toString('utf8')).toBe(200);
  return response.bytes.toString('utf8');
}

describe('IPNS names over HTTP: create, publish, import, rm (contract section 7)', () => {
  let server: TestServer;
  let first: string;
  let second: string;
  const firstText = 'first version of the page\n';
  const secondText = 'second version of the page\n';

  beforeAll(async () => {
    server = await startTestServer();
    first = await uploadCid(server, server.owner, new TextEncoder().encode(firstText));
    second = await uploadCid(server, server.owner, new TextEncoder().encode(secondText));
  });
  afterAll(async () => {
    await server.stop();
  });

  it('create answers a k51 name and the CID; the record is a real signed one (seq 0, one year, TTL 5 min)', async () => {
    const response = await createName(server, server.owner, first);
    expect(response.status).toBe(200);
    expect(response.json.code).toBe(200);
    const { name, value } = response.json.data;
    expect(name).toMatch(/^k51qzi5uqu5[a-z0-9]+$/);
    expect(value).toBe(first);
    await expectRecord(server, server.owner, name, { sequence: 0n, cid: first });
    expect(await servedText(server, server.owner, `/ipns/${name}`)).toBe(firstText);
  });

  it('publish increments the sequence and the new value is served at once', async () => {
    const name = await createdName(server, server.owner, first);
    const published = await publishName(server, server.owner, name, second);
    expect(published.status).toBe(200);
    expect(published.json.data).toEqual({ name, value: second });
    expect(await servedText(server, server.owner, `/ipns/${name}`)).toBe(secondText);
    await expectRecord(server, server.owner, name, { sequence: 1n, cid: second });

    expect((await publishName(server, server.owner, name, first)).status).toBe(200);
    expect(await servedText(server, server.owner, `/ipns/${name}`)).toBe(firstText);
    await expectRecord(server, server.owner, name, { sequence: 2n, cid: first });
    const view = await call<Envelope<IpnsRecordView>>(server, 'GET', `/api/v0/ipns/${name}`, { key: server.owner });
    expect(view.json.data.value).toBe(first);
  });

  it('the 12D3KooW... peer-ID form is taken by publish, get, alias, rm and the gateway', async () => {
    const name = await createdName(server, server.owner, first);
    const peerId = peerIdOf(name);
    expect(peerId).toMatch(/^12D3KooW/);

    const published = await publishName(server, server.owner, peerId, second);
    expect(published.status).toBe(200);
    expect(published.json.data.name).toBe(name);
    const view = await call<Envelope<IpnsRecordView>>(server, 'GET', `/api/v0/ipns/${peerId}`, { key: server.owner });
    expect(view.status).toBe(200);
    expect(view.json.data.name).toBe(name);
    const alias = await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: { name: peerId, alias: 'peer-id-form' } });
    expect(alias.status).toBe(200);

    // The gateway redirects the peer-ID form to the canonical name (path gateway spec), keeping the query.
    const redirect = await gatewayGet(server, server.owner, `/ipns/${peerId}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(new RegExp(`^/ipns/${name}\\?ts=\\d+$`));
    expect(await servedText(server, server.owner, `/ipns/${name}`)).toBe(secondText);

    expect((await removeName(server, server.owner, peerId)).status).toBe(200);
    expect((await gatewayGet(server, server.owner, `/ipns/${name}`)).status).toBe(404);
  });

  it('rm deletes the name: 404 on the gateway, on publish, on get and on a second rm; the counter goes down', async () => {
    const name = await createdName(server, server.owner, first);
    const before = await stats(server, server.owner);
    const removed = await removeName(server, server.owner, name);
    expect(removed.status).toBe(200);
    expect(removed.json).toEqual({ code: 200, msg: 'ok' });
    expect((await stats(server, server.owner)).ipns).toBe(before.ipns - 1);
    expectError(await gatewayGet(server, server.owner, `/ipns/${name}`).then(asCall), 404, /not found/);
    expectError(await publishName(server, server.owner, name, second), 404, /key .* not found/);
    expectError(await call(server, 'GET', `/api/v0/ipns/${name}`, { key: server.owner }), 404, /name .* not found/);
    expectError(await removeName(server, server.owner, name), 404, /key .* not found/);
  });

  it('create and publish need write; pin=true needs pin besides write, and a refused call creates nothing', async () => {
    const writer = await createKey(server, server.owner, 'names-writer', ['write']);
    const reader = await createKey(server, server.owner, 'names-reader', ['read']);
    expectError(await createName(server, reader, first), 403, /write/);

    const total = await namesTotal(server, server.owner);
    const usage = counters(await stats(server, server.owner));
    expectError(await createName(server, writer, first, { pin: true }), 403, /pin/);
    expect(await namesTotal(server, server.owner)).toBe(total);
    expect(counters(await stats(server, server.owner))).toEqual(usage);

    const name = await createdName(server, writer, first);
    expectError(await publishName(server, writer, name, second, { pin: true }), 403, /pin/);
    expect((await publishName(server, writer, name, second)).status).toBe(200);
    expectError(await publishName(server, reader, name, first), 403, /write/);
    expectError(await removeName(server, reader, name), 403, /write/);
    expectError(await createName(server, server.owner, first, { pin: 'yes' }), 400, /pin/);
  });

  it('create and publish with pin=true pin the CID first', async () => {
    const own = await uploadCid(server, server.owner, randomData(1000));
    const name = await createdName(server, server.owner, own, { pin: true });
    const pin = await call<Envelope<PinRecord>>(server, 'GET', `/api/v0/pin/${own}`, { key: server.owner });
    expect(pin.status).toBe(200);
    expect(pin.json.data.status).toBe('pinned');
    expect(pin.json.data.size).toBe(1000);

    const next = await uploadCid(server, server.owner, randomData(2000));
    expect((await publishName(server, server.owner, name, next, { pin: true })).status).toBe(200);
    const nextPin = await call<Envelope<PinRecord>>(server, 'GET', `/api/v0/pin/${next}`, { key: server.owner });
    expect(nextPin.json.data.status).toBe('pinned');
  });

  it('pin=true meets the same limits as pin add: at the pin limit create and publish fail with 403 and change nothing', async () => {
    const uuid = '5e1f0c2a-9d4b-4c1e-8f3a-000000000401';
    await createUser(server, server.owner, uuid);
    const admin = await createUserKey(server, server.owner, uuid, 'admin', ['admin']);
    const name = await createdName(server, admin, first);
    // Free allows 100 pins; pins of content not held count at once (they are `pinning`).
    for (let i = 0; i < 100; i++) {
      const cid = CID.createV1(RAW_CODEC, await sha256.digest(new TextEncoder().encode(`not held ${i}`)));
      const pinned = await call(server, 'POST', '/api/v0/pin/add', { key: admin, query: { arg: cid.toString() } });
      expect(pinned.status, pinned.text).toBe(200);
    }
    const before = counters(await stats(server, admin));
    expect(before.pinned_count).toBe(100);
    const other = await uploadCid(server, admin, randomData(300));
    const afterUpload = counters(await stats(server, admin));
    expectError(await createName(server, admin, other, { pin: true }), 403, /^plan limit reached: pinned_count$/);
    expectError(await publishName(server, admin, name, other, { pin: true }), 403, /^plan limit reached: pinned_count$/);
    expect(counters(await stats(server, admin))).toEqual(afterUpload);
    expect(await namesTotal(server, admin)).toBe(1);
    await expectRecord(server, admin, name, { sequence: 0n, cid: first });
  });
});

describe('name/import of the fixture keys (contract section 7)', () => {
  let server: TestServer;
  let content: string;
  let later: string;

  beforeAll(async () => {
    server = await startTestServer();
    content = await uploadCid(server, server.owner, new TextEncoder().encode('imported name content\n'));
    later = await uploadCid(server, server.owner, new TextEncoder().encode('published after import\n'));
  });
  afterAll(async () => {
    await server.stop();
  });

  const keys = fixtureKeys();
  const cases: Array<{ key: FixtureKey; format: 'pem-pkcs8-cleartext' | 'libp2p-protobuf-cleartext'; nameForm: 'canonical' | 'peer-id' }> = [];
  for (const key of keys) {
    for (const nameForm of ['canonical', 'peer-id'] as const) {
      if (key.pem !== undefined) cases.push({ key, format: 'pem-pkcs8-cleartext', nameForm });
      cases.push({ key, format: 'libp2p-protobuf-cleartext', nameForm });
    }
  }

  it('the fixtures hold Ed25519 and RSA keys in both formats', () => {
    expect(cases.filter((c) => c.key.type === 'Ed25519' && c.format === 'pem-pkcs8-cleartext').length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.key.type === 'RSA' && c.format === 'pem-pkcs8-cleartext').length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.key.type === 'RSA' && c.format === 'libp2p-protobuf-cleartext').length).toBeGreaterThan(0);
    expect(cases.filter((c) => c.key.type === 'Ed25519' && c.format === 'libp2p-protobuf-cleartext').length).toBeGreaterThan(1);
  });

  it.each(cases.map((c) => [c.key.id, c.format, c.nameForm, c] as const))(
    '%s as %s, name given in %s form: imports to its stated name; seq sets the sequence, publish uses seq + 1',
    async (_id, format, nameForm, { key }) => {
      const secret = format === 'pem-pkcs8-cleartext' ? (key.pem as string) : key.protobuf.toString('base64');
      const seq = 41;
      const imported = await importName(server, server.owner, {
        name: nameForm === 'canonical' ? key.name : key.peerId,
        value: content,
        secret_key: secret,
        format,
        seq,
      });
      expect(imported.status, imported.text).toBe(200);
      expect(imported.json).toEqual({ code: 200, msg: 'ok' });
      // The stated peer ID and the base36 name are the same key.
      expect(peerIdOf(key.name)).toBe(key.peerId);

      await expectRecord(server, server.owner, key.name, { sequence: BigInt(seq), cid: content });
      const record = await decodeValidRecord(key.name, await fetchRecord(server, server.owner, key.name));
      // RSA names are hashes of the key: the record must carry the public key to be checked.
      if (key.type === 'RSA') expect(record.pubKey?.byteLength ?? 0).toBeGreaterThan(200);
      expect(await servedText(server, server.owner, `/ipns/${key.name}`)).toBe('imported name content\n');

      const published = await publishName(server, server.owner, key.name, later);
      expect(published.status).toBe(200);
      await expectRecord(server, server.owner, key.name, { sequence: BigInt(seq + 1), cid: later });

      // The name is taken now: a second import is a conflict.
      expectError(await importName(server, server.owner, { name: key.name, value: content, secret_key: secret, format }), 409, /already exists/);
      expect((await removeName(server, server.owner, key.name)).status).toBe(200);
    },
  );

  it('seq defaults to 0; seq 0 and a large safe integer are taken', async () => {
    const key = fixtureKey('js-libp2p-example-ed25519');
    const secret = key.protobuf.toString('base64');
    expect((await importName(server, server.owner, { name: key.name, value: content, secret_key: secret, format: 'libp2p-protobuf-cleartext' })).status).toBe(
      200,
    );
    await expectRecord(server, server.owner, key.name, { sequence: 0n, cid: content });
    expect((await removeName(server, server.owner, key.name)).status).toBe(200);

    const big = 2 ** 40;
    expect(
      (await importName(server, server.owner, { name: key.name, value: content, secret_key: secret, format: 'libp2p-protobuf-cleartext', seq: big })).status,
    ).toBe(200);
    await expectRecord(server, server.owner, key.name, { sequence: BigInt(big), cid: content });
    expect((await removeName(server, server.owner, key.name)).status).toBe(200);
  });

  it('a name that is not the key is 400 and nothing is stored', async () => {
    const ed = fixtureKey('kubo-openssl-ed25519');
    const rsa = fixtureKey('kubo-openssl-rsa');
    const total = await namesTotal(server, server.owner);
    const usage = counters(await stats(server, server.owner));
    for (const [key, otherName] of [
      [ed, rsa.name],
      [rsa, ed.peerId],
    ] as const) {
      expectError(
        await importName(server, server.owner, { name: otherName, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }),
        400,
        /name does not match secret_key/,
      );
      expectError(await call(server, 'GET', `/api/v0/ipns/${otherName}`, { key: server.owner }), 404, /not found/);
    }
    expect(await namesTotal(server, server.owner)).toBe(total);
    expect(counters(await stats(server, server.owner))).toEqual(usage);
  });

  it("without a name (extension): imports under the key's own name and answers it; the spec's form keeps its bare answer", async () => {
    for (const [id, format] of [
      ['kubo-openssl-ed25519', 'pem-pkcs8-cleartext'],
      ['kubo-openssl-rsa', 'libp2p-protobuf-cleartext'],
    ] as const) {
      const key = fixtureKey(id);
      const secret = format === 'pem-pkcs8-cleartext' ? (key.pem as string) : key.protobuf.toString('base64');
      for (const body of [
        { value: content, secret_key: secret, format, alias: `from a file ${id}` },
        { name: '', value: content, secret_key: secret, format },
      ]) {
        const imported = await importName(server, server.owner, body);
        expect(imported.status, imported.text).toBe(200);
        expect(imported.json).toEqual({ code: 200, msg: 'ok', data: { name: key.name, value: content } });
        await expectRecord(server, server.owner, key.name, { sequence: 0n, cid: content });
        // Without a name, a second import of the same key is still a conflict, named by the key's name.
        expectError(await importName(server, server.owner, body), 409, new RegExp(`name ${key.name} already exists`));
        expect((await removeName(server, server.owner, key.name)).status).toBe(200);
      }
    }
  });

  it('without a name, a bad key, value or alias is still 400 and nothing is stored', async () => {
    const key = fixtureKey('kubo-openssl-ed25519');
    const total = await namesTotal(server, server.owner);
    const usage = counters(await stats(server, server.owner));
    const bodies: Array<[Record<string, unknown>, RegExp]> = [
      [{ value: content, secret_key: 'not a key', format: 'pem-pkcs8-cleartext' }, /secret_key/],
      [{ value: content, secret_key: key.pem, format: 'libp2p-protobuf-cleartext' }, /secret_key/],
      [{ value: content, secret_key: key.pem }, /format/],
      [{ value: 'not-a-cid', secret_key: key.pem, format: 'pem-pkcs8-cleartext' }, /value/],
      [{ value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext', alias: 'a'.repeat(257) }, /alias/],
      [{ name: null, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }, /name/],
      [{ name: 5, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }, /name/],
    ];
    for (const [body, message] of bodies) expectError(await importName(server, server.owner, body), 400, message);
    expect(await namesTotal(server, server.owner)).toBe(total);
    expect(counters(await stats(server, server.owner))).toEqual(usage);
    expect((await gatewayGet(server, server.owner, `/ipns/${key.name}`)).status).toBe(404);
  });

  it('import needs write', async () => {
    const reader = await createKey(server, server.owner, 'import-reader', ['read']);
    const key = fixtureKey('kubo-openssl-ed25519');
    expectError(await importName(server, reader, { name: key.name, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }), 403, /write/);
  });
});
