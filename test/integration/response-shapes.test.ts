import { array } from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountUsageSchema, DailyUsageSchema, PartnerUserUsageSchema, PlanSchema } from '../../shared/schemas/account.js';
import { AccessKeyListingSchema, AccessKeyViewSchema, NewAccessKeySchema } from '../../shared/schemas/keys.js';
import { IpnsRecordViewSchema, NameBindingSchema } from '../../shared/schemas/names.js';
import { PartnerUserSummarySchema } from '../../shared/schemas/partners.js';
import { PinRecordSchema } from '../../shared/schemas/pins.js';
import { GarbageCollectionSchema, NetworkSettingsViewSchema, ServiceFactsSchema } from '../../shared/schemas/service.js';
import { SessionKeySchema, SessionsRevokedSchema, SignInCodeSchema } from '../../shared/schemas/session.js';
import { UploadAddressSchema, UploadCancelOutcomeSchema, UploadSettingsSchema } from '../../shared/schemas/uploads.js';
import { createUser } from '../helpers/account-api.js';
import { openEvents, type EventReader } from '../helpers/event-stream-reader.js';
import { fixtureKey } from '../helpers/fixture-keys.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { until } from '../helpers/until.js';
import { dataOf, heldEvents, rowsOf } from './response-shapes-helpers.js';
import { step2 } from './uploads-helpers.js';

/**
 * Issue 25, item 5: the answers the window reads, from a real service with content in it (an upload, a pin,
 * names, keys, a session, a partner user), each held to the schema the window checks it with
 * (shared/schemas/), and every event the window's stream received on the way. Sync folders: sync-response-shapes.
 */
describe('the answers the window reads fit its schemas', () => {
  let server: TestServer;
  let events: EventReader;
  let cid = '';

  beforeAll(async () => {
    server = await startTestServer();
    events = await openEvents(server, server.owner);
  });
  afterAll(async () => {
    events?.close();
    await server?.stop();
  });

  const owner = () => ({ key: server.owner });

  it('account: stats, usage per day, plans', async () => {
    dataOf(await call(server, 'GET', '/api/v0/stats', owner()), AccountUsageSchema, 'stats');
    const days = dataOf(await call(server, 'GET', '/api/v0/stats/daily', { ...owner(), query: { days: 7 } }), array(DailyUsageSchema), 'usage per day');
    expect(days).toHaveLength(7);
    const plans = dataOf(await call(server, 'GET', '/api/v0/plans'), array(PlanSchema), 'plans');
    expect(plans.length).toBeGreaterThan(0);
  });

  it('uploads: the settings, both step-1 addresses, a file sent, a cancelled address', async () => {
    dataOf(await call(server, 'GET', '/api/v0/upload/settings', owner()), UploadSettingsSchema, 'upload settings');
    const bytes = new TextEncoder().encode('what the window uploads\n');
    const file = dataOf(await call(server, 'POST', '/ipfs/', { ...owner(), query: { size: bytes.byteLength } }), UploadAddressSchema, 'a file address');
    const sent = await step2(file.url, 'POST', bytes);
    expect(sent.status, sent.text).toBe(201);
    cid = sent.headers.get('ipfs-hash') ?? '';
    const car = dataOf(
      await call(server, 'POST', '/api/v0/dag/import', { ...owner(), query: { size: 100, 'pin-roots': false } }),
      UploadAddressSchema,
      'a CAR address',
    );
    const { searchParams } = new URL(car.url);
    const cancel = await call(server, 'POST', '/api/v0/upload/cancel', {
      noTs: true,
      query: { sargs: searchParams.get('sargs') ?? '', ssig: searchParams.get('ssig') ?? '' },
    });
    expect(dataOf(cancel, UploadCancelOutcomeSchema, 'a cancelled upload').outcome).toBe('cancelled');
  });

  it('pins: the list and one pin', async () => {
    expect((await call(server, 'POST', '/api/v0/pin/add', { ...owner(), query: { arg: cid, name: 'report' } })).status).toBe(200);
    const rows = rowsOf(await call(server, 'GET', '/api/v0/pin', { ...owner(), query: { limit: 10 } }), PinRecordSchema, 'the pin list');
    expect(rows.map((row) => row.name)).toContain('report');
    dataOf(await call(server, 'GET', `/api/v0/pin/${cid}`, owner()), PinRecordSchema, 'a pin');
  });

  it('names: created, published, imported, listed, found by alias, made public', async () => {
    const created = dataOf(
      await call(server, 'POST', '/api/v0/name/create', { ...owner(), query: { arg: cid, alias: 'site' } }),
      NameBindingSchema,
      'a created name',
    );
    dataOf(await call(server, 'POST', '/api/v0/name/publish', { ...owner(), query: { arg: cid, key: created.name } }), NameBindingSchema, 'a published name');
    const key = fixtureKey('kubo-openssl-ed25519');
    const imported = await call(server, 'POST', '/api/v0/name/import', {
      ...owner(),
      body: { value: cid, secret_key: key.protobuf.toString('base64'), format: 'libp2p-protobuf-cleartext' },
    });
    expect(dataOf(imported, NameBindingSchema, 'an imported name').name).toBe(key.name);
    expect(rowsOf(await call(server, 'GET', '/api/v0/ipns', owner()), IpnsRecordViewSchema, 'the name list')).toHaveLength(2);
    dataOf(await call(server, 'GET', `/api/v0/ipns/${created.name}`, owner()), IpnsRecordViewSchema, 'a name');
    dataOf(await call(server, 'GET', '/api/v0/ipns/search', { ...owner(), query: { alias: 'site' } }), IpnsRecordViewSchema, 'a name by alias');
    const marked = await call(server, 'POST', '/api/v0/name/public', { ...owner(), query: { arg: created.name, on: true } });
    expect(dataOf(marked, IpnsRecordViewSchema, 'a public name').public).toBe(true);
  });

  it('keys and sessions: a new key, a sign-in code, its session key, the key list with both kinds, sessions revoked', async () => {
    dataOf(await call(server, 'POST', '/api/v0/key', { ...owner(), body: { name: 'ci', permissions: ['read', 'pin'] } }), NewAccessKeySchema, 'a new key');
    const code = dataOf(await call(server, 'POST', '/api/v0/session/code', owner()), SignInCodeSchema, 'a sign-in code');
    dataOf(await call(server, 'POST', '/api/v0/session', { noTs: true, query: { code: code.code } }), SessionKeySchema, 'a session key');
    const keys = dataOf(await call(server, 'GET', '/api/v0/keys', owner()), array(AccessKeyViewSchema), 'the key list');
    expect(keys.map((row) => row.session).sort()).toEqual([false, false, true]);
    expect(dataOf(await call(server, 'DELETE', '/api/v0/session/all', owner()), SessionsRevokedSchema, 'sessions revoked').revoked).toBe(1);
  });

  it("partners: the users, a user's stats, a user's new key and key list", async () => {
    await createUser(server, server.owner, 'user-1');
    const users = rowsOf(await call(server, 'GET', '/api/v0/partner/users', owner()), PartnerUserSummarySchema, 'the partner users');
    expect(users.map((user) => user.uuid)).toEqual(['user-1']);
    const query = { uuid: 'user-1' };
    dataOf(await call(server, 'GET', '/api/v0/partner/user/stats', { ...owner(), query }), PartnerUserUsageSchema, "a user's stats");
    const body = { uuid: 'user-1', name: 'app', permissions: ['read'] };
    dataOf(await call(server, 'POST', '/api/v0/partner/user/key', { ...owner(), body }), NewAccessKeySchema, "a user's new key");
    const keys = dataOf(await call(server, 'GET', '/api/v0/partner/user/keys', { ...owner(), query }), array(AccessKeyListingSchema), "a user's keys");
    expect(keys.map((key) => key.name)).toEqual(['app']);
  });

  it('the service: its facts, the network settings read and saved, a garbage collection', async () => {
    dataOf(await call(server, 'GET', '/api/v0/service', owner()), ServiceFactsSchema, 'the service facts');
    dataOf(await call(server, 'GET', '/api/v0/settings/network', owner()), NetworkSettingsViewSchema, 'the network settings');
    const saved = await call(server, 'POST', '/api/v0/settings/network', { ...owner(), body: { offline: true } });
    expect(dataOf(saved, NetworkSettingsViewSchema, 'the saved network settings').saved.offline).toBe(true);
    expect((await call(server, 'POST', '/api/v0/pin/rm', { ...owner(), query: { arg: cid } })).status).toBe(200);
    const collected = dataOf(await call(server, 'POST', '/api/v0/repo/gc', owner()), GarbageCollectionSchema, 'a garbage collection');
    expect(collected.pins_removed).toBeGreaterThan(0);
  });

  it('events: every one the stream sent meanwhile, records and removals', async () => {
    const name = (await call<{ data: { name: string }[] }>(server, 'GET', '/api/v0/ipns', owner())).json.data[0]?.name ?? '';
    expect((await call(server, 'POST', '/api/v0/name/rm', { ...owner(), query: { key: name } })).status).toBe(200);
    expect((await call(server, 'DELETE', '/api/v0/key', { ...owner(), body: { name: 'ci' } })).status).toBe(200);
    const removed = (event: string) =>
      events.pending().some((received) => received.event === event && (received.data as { removed?: unknown }).removed === true);
    const received = await until('the removals, the partner notice and the usage', () =>
      ['pin', 'name', 'key'].every(removed) && ['partner', 'usage'].every((event) => events.pending().some((received) => received.event === event))
        ? events.pending()
        : undefined,
    );
    expect(heldEvents(received)).toMatchObject({ usage: expect.any(Number), pin: expect.any(Number), name: expect.any(Number), key: expect.any(Number) });
  });
});
