import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUsage } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { accountCli, createUser, createUserKey, expectError } from '../helpers/account-api.js';
import { openEvents, type EventReader } from '../helpers/event-stream-reader.js';
import { randomData, uploadCid } from './uploads-helpers.js';

/**
 * Issue 12: `event: partner` on GET /api/v0/events. The Partners page follows the users a partner created
 * without polling: their creation, plan changes, keys and usage reach the partner's stream as `{uuid}`.
 */

describe('GET /api/v0/events: event partner', () => {
  let server: TestServer;
  const readers: EventReader[] = [];
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    for (const reader of readers) reader.close();
    await server.stop();
  });

  async function open(key = server.owner): Promise<EventReader> {
    const reader = await openEvents(server, key);
    readers.push(reader);
    await reader.next('usage');
    return reader;
  }

  it("tells the partner of its user's creation, plan change, keys and usage, each as {uuid}", async () => {
    const partner = await open();
    // A second stream of the same key for the usage events: `next` skips what it does not wait for.
    const balance = await open();
    await createUser(server, server.owner, 'ep-alice');
    expect(await partner.next('partner')).toEqual({ uuid: 'ep-alice' });

    // A plan change moves the partner's balance too: its own usage event follows.
    const before = (await call<{ data: AccountUsage }>(server, 'GET', '/api/v0/stats', { key: server.owner })).json.data.token_amount;
    expect((await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'ep-alice', plan_id: 2 } })).status).toBe(200);
    expect(await partner.next('partner')).toEqual({ uuid: 'ep-alice' });
    expect((await balance.next('usage', (usage) => usage.token_amount !== before)).token_amount).toBe((Number(before) - 4.99).toFixed(2));

    const key = await createUserKey(server, server.owner, 'ep-alice', 'ci', ['admin']);
    expect(await partner.next('partner')).toEqual({ uuid: 'ep-alice' });
    await uploadCid(server, key, randomData(1024));
    expect(await partner.next('partner')).toEqual({ uuid: 'ep-alice' });
    expect((await call(server, 'DELETE', '/api/v0/partner/user/key', { key: server.owner, body: { uuid: 'ep-alice', name: 'ci' } })).status).toBe(200);
    expect(await partner.next('partner')).toEqual({ uuid: 'ep-alice' });
  });

  it('a refused call tells nobody; another partner hears only of its own users, and the user hears no partner event', async () => {
    const owner = await open();
    // Refused: a bad e-mail, a uuid taken, a plan that does not exist. Then one good change: the next event is that one.
    await createUser(server, server.owner, 'ep-bob');
    expect(await owner.next('partner')).toEqual({ uuid: 'ep-bob' });
    expectError(
      await call(server, 'POST', '/api/v0/partner/user/create', { key: server.owner, body: { uuid: 'ep-carol', name: 'Carol', email: 'not-an-address' } }),
      400,
      /email/,
    );
    expectError(
      await call(server, 'POST', '/api/v0/partner/user/create', { key: server.owner, body: { uuid: 'ep-bob', name: 'Bob', email: 'b@example.com' } }),
      409,
      /uuid/,
    );
    expectError(await call(server, 'POST', '/api/v0/partner/user/update-plan', { key: server.owner, body: { uuid: 'ep-bob', plan_id: 99 } }), 400, /plan_id/);
    await createUser(server, server.owner, 'ep-dave');
    expect(await owner.next('partner')).toEqual({ uuid: 'ep-dave' });

    // Bob becomes a partner himself; his user's changes reach his stream, not the owner's.
    expect((await accountCli(server, ['partner', 'ep-bob', 'on'])).code).toBe(0);
    const bobKey = await createUserKey(server, server.owner, 'ep-bob', 'admin', ['admin']);
    expect(await owner.next('partner')).toEqual({ uuid: 'ep-bob' });
    const bob = await open(bobKey);
    await createUser(server, bobKey, 'ep-grandchild');
    expect(await bob.next('partner')).toEqual({ uuid: 'ep-grandchild' });
    // The owner's next partner event is about its own user, not about Bob's.
    await createUser(server, server.owner, 'ep-erin');
    expect(await owner.next('partner')).toEqual({ uuid: 'ep-erin' });
    expect(bob.pending().filter((event) => event.event === 'partner')).toEqual([]);
  });
});
