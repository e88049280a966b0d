import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccessKey, IpnsRecordView } from '../../shared/api-types.js';
import { createKey, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, createName, importName, listNames, namesTotal, publishName, removeName, type Envelope } from './names-helpers.js';
import { fixtureKey } from '../helpers/fixture-keys.js';
import { counters, gatewayGet, stats, uploadCid } from './uploads-helpers.js';

type View = Envelope<IpnsRecordView>;

describe('account API for IPNS names: list, get, search, alias, counters, plan limit (spec "Account")', () => {
  let server: TestServer;
  let content: string;
  let other: string;
  let alice: CreatedAccessKey;
  let bob: CreatedAccessKey;

  beforeAll(async () => {
    server = await startTestServer();
    content = await uploadCid(server, server.owner, new TextEncoder().encode('account api content\n'));
    other = await uploadCid(server, server.owner, new TextEncoder().encode('other content\n'));
    await createUser(server, server.owner, '0b6d2c9e-1f2a-4a7b-9c3d-00000000a11c');
    await createUser(server, server.owner, '0b6d2c9e-1f2a-4a7b-9c3d-000000000b0b');
    alice = await createUserKey(server, server.owner, '0b6d2c9e-1f2a-4a7b-9c3d-00000000a11c', 'admin', ['admin']);
    bob = await createUserKey(server, server.owner, '0b6d2c9e-1f2a-4a7b-9c3d-000000000b0b', 'admin', ['admin']);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('list: newest first, total counts every name, limit/start page through them; get returns one record', async () => {
    const owner = server.owner;
    const before = await namesTotal(server, owner);
    const startedAt = Math.floor(Date.now() / 1000);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push(await createdName(server, owner, content, { alias: `list-${i}` }));
    const newestFirst = [...created].reverse();

    const all = await listNames(server, owner);
    expect(all.status).toBe(200);
    expect(Object.keys(all.json).sort()).toEqual(['code', 'data', 'total']);
    expect(all.json.total).toBe(before + 5);
    expect(all.json.data.slice(0, 5).map((view) => view.name)).toEqual(newestFirst);
    const first = all.json.data[0] as IpnsRecordView;
    expect(Object.keys(first).sort()).toEqual(['alias', 'created_at', 'name', 'public', 'publish_at', 'value']);
    expect(first).toMatchObject({ name: newestFirst[0], value: content, alias: 'list-4', public: false });
    expect(first.created_at).toBeGreaterThanOrEqual(startedAt);
    expect(first.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));

    const page = await listNames(server, owner, { limit: 2, start: 1 });
    expect(page.json.total).toBe(before + 5);
    expect(page.json.data.map((view) => view.name)).toEqual(newestFirst.slice(1, 3));
    const past = await listNames(server, owner, { limit: 10, start: before + 5 });
    expect(past.json.data).toEqual([]);
    expect(past.json.total).toBe(before + 5);
    // Default limit is 10.
    for (let i = 0; i < 6; i++) await createdName(server, owner, content);
    expect((await listNames(server, owner)).json.data.length).toBe(10);

    const got = await call<View>(server, 'GET', `/api/v0/ipns/${created[2]}`, { key: owner });
    expect(got.status).toBe(200);
    expect(got.json.data).toEqual(all.json.data.find((view) => view.name === created[2]));
  });

  it('a bad limit or start is 400', async () => {
    for (const query of <Array<Record<string, string | number>>>[
      { limit: 0 },
      { limit: 1001 },
      { limit: 'ten' },
      { limit: -1 },
      { limit: '2.5' },
      { start: -1 },
      { start: 'x' },
    ]) {
      expectError(await listNames(server, server.owner, query), 400, /limit|start/);
    }
  });

  it('publish moves value and publish_at, not created_at', async () => {
    const name = await createdName(server, alice, content);
    const before = (await call<View>(server, 'GET', `/api/v0/ipns/${name}`, { key: alice })).json.data;
    expect((await publishName(server, alice, name, other)).status).toBe(200);
    const after = (await call<View>(server, 'GET', `/api/v0/ipns/${name}`, { key: alice })).json.data;
    expect(after.value).toBe(other);
    expect(after.created_at).toBe(before.created_at);
    expect(after.publish_at).toBeGreaterThanOrEqual(before.publish_at);
    expect((await removeName(server, alice, name)).status).toBe(200);
  });

  it('search by alias is exact and case-sensitive; 404 when no name has it', async () => {
    const name = await createdName(server, alice, content, { alias: 'My-Site' });
    const found = await call<View>(server, 'GET', '/api/v0/ipns/search', { key: alice, query: { alias: 'My-Site' } });
    expect(found.status).toBe(200);
    expect(found.json.data).toMatchObject({ name, alias: 'My-Site', value: content });
    for (const alias of ['my-site', 'My-Sit', 'My-Site ', 'My']) {
      expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: alice, query: { alias } }), 404, /alias/);
    }
    expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: alice }), 400, /alias/);
    // Bob's names are not searched for Alice.
    expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: bob, query: { alias: 'My-Site' } }), 404, /alias/);
    expect((await removeName(server, alice, name)).status).toBe(200);
  });

  it('alias update: the new alias is found, the old one is gone; the same alias in another account is fine', async () => {
    const name = await createdName(server, alice, content, { alias: 'before' });
    const updated = await call(server, 'POST', '/api/v0/ipns/alias', { key: alice, body: { name, alias: 'after' } });
    expect(updated.status).toBe(200);
    expect(updated.json).toEqual({ code: 200, msg: 'ok' });
    expect((await call<View>(server, 'GET', '/api/v0/ipns/search', { key: alice, query: { alias: 'after' } })).json.data.name).toBe(name);
    expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: alice, query: { alias: 'before' } }), 404, /alias/);

    const bobs = await createdName(server, bob, content, { alias: 'after' });
    expect((await call<View>(server, 'GET', '/api/v0/ipns/search', { key: bob, query: { alias: 'after' } })).json.data.name).toBe(bobs);
    expect((await removeName(server, alice, name)).status).toBe(200);
    expect((await removeName(server, bob, bobs)).status).toBe(200);
  });

  it('a duplicate alias within an account is 409 at create, import and alias update, and changes nothing', async () => {
    const taken = await createdName(server, alice, content, { alias: 'unique' });
    const second = await createdName(server, alice, content, { alias: 'second' });
    const total = await namesTotal(server, alice);
    const usage = counters(await stats(server, alice));

    expectError(await createName(server, alice, other, { alias: 'unique' }), 409, /alias unique/);
    const key = fixtureKey('kubo-openssl-ed25519');
    expectError(
      await importName(server, alice, { name: key.name, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext', alias: 'unique' }),
      409,
      /alias unique/,
    );
    expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: alice, body: { name: second, alias: 'unique' } }), 409, /alias unique/);

    expect(await namesTotal(server, alice)).toBe(total);
    expect(counters(await stats(server, alice))).toEqual(usage);
    expect((await call<View>(server, 'GET', `/api/v0/ipns/${second}`, { key: alice })).json.data.alias).toBe('second');
    expect((await call<View>(server, 'GET', '/api/v0/ipns/search', { key: alice, query: { alias: 'unique' } })).json.data.name).toBe(taken);
    expect((await gatewayGet(server, alice, `/ipns/${key.name}`)).status).toBe(404);
    // Setting a name's own alias again is no conflict.
    expect((await call(server, 'POST', '/api/v0/ipns/alias', { key: alice, body: { name: taken, alias: 'unique' } })).status).toBe(200);
    expect((await removeName(server, alice, taken)).status).toBe(200);
    expect((await removeName(server, alice, second)).status).toBe(200);
  });

  it("another account's name is 404 for get, alias, publish and rm, and nothing changes", async () => {
    const bobs = await createdName(server, bob, content, { alias: 'bobs' });
    expectError(await call(server, 'GET', `/api/v0/ipns/${bobs}`, { key: alice }), 404, /not found/);
    expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: alice, body: { name: bobs, alias: 'stolen' } }), 404, /not found/);
    expectError(await publishName(server, alice, bobs, other), 404, /not found/);
    expectError(await removeName(server, alice, bobs), 404, /not found/);
    const view = (await call<View>(server, 'GET', `/api/v0/ipns/${bobs}`, { key: bob })).json.data;
    expect(view).toMatchObject({ alias: 'bobs', value: content });
    // Names are public on the gateway: anyone with read resolves them.
    expect((await gatewayGet(server, alice, `/ipns/${bobs}`)).bytes.toString('utf8')).toBe('account api content\n');
    expect((await removeName(server, bob, bobs)).status).toBe(200);
  });

  it('the account API needs admin', async () => {
    const writer = await createKey(server, server.owner, 'account-writer', ['write', 'read', 'pin']);
    expectError(await listNames(server, writer), 403, /admin/);
    expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: writer, query: { alias: 'x' } }), 403, /admin/);
  });

  it('stats count names (ipns) against the plan (ipns_limit); past the Free limit of 3, create and import are 403 and create nothing', async () => {
    const uuid = '0b6d2c9e-1f2a-4a7b-9c3d-00000000f4ee';
    await createUser(server, server.owner, uuid);
    const free = await createUserKey(server, server.owner, uuid, 'admin', ['admin']);
    const start = await stats(server, free);
    expect(start.plan).toBe('Free');
    expect(start.ipns_limit).toBe(3);
    expect(start.ipns).toBe(0);

    const one = await createdName(server, free, content);
    expect((await stats(server, free)).ipns).toBe(1);
    await createdName(server, free, content);
    const ed = fixtureKey('js-libp2p-example-ed25519');
    const imported = await importName(server, free, {
      name: ed.name,
      value: content,
      secret_key: ed.protobuf.toString('base64'),
      format: 'libp2p-protobuf-cleartext',
    });
    expect(imported.status, imported.text).toBe(200);
    const full = await stats(server, free);
    expect(full.ipns).toBe(3);

    expectError(await createName(server, free, content), 403, /^plan limit reached: ipns$/);
    expectError(await createName(server, free, other, { pin: true, alias: 'over' }), 403, /^plan limit reached: ipns$/);
    const rsa = fixtureKey('kubo-openssl-rsa');
    expectError(
      await importName(server, free, { name: rsa.name, value: content, secret_key: rsa.pem, format: 'pem-pkcs8-cleartext' }),
      403,
      /^plan limit reached: ipns$/,
    );
    expect(await namesTotal(server, free)).toBe(3);
    expect(counters(await stats(server, free))).toEqual(counters(full));
    expect((await gatewayGet(server, free, `/ipns/${rsa.name}`)).status).toBe(404);
    expectError(await call(server, 'GET', '/api/v0/ipns/search', { key: free, query: { alias: 'over' } }), 404, /alias/);
    expectError(await call(server, 'GET', `/api/v0/pin/${other}`, { key: free }), 404, /not pinned/);

    // Publishing an existing name is not a new name: it is allowed at the limit.
    expect((await publishName(server, free, one, other)).status).toBe(200);
    expect((await removeName(server, free, one)).status).toBe(200);
    expect((await stats(server, free)).ipns).toBe(2);
    expect((await createName(server, free, content)).status).toBe(200);
    expect((await stats(server, free)).ipns).toBe(3);
  });
});
