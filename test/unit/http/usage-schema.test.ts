import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createOwner } from '../../../main/accounts/accounts.js';
import { accountUsage, record } from '../../../main/accounts/usage.js';
import { STATS_RESPONSE_SCHEMA } from '../../../main/http/usage-schema.js';
import { accountById } from '../../../main/store/db/accounts-queries.js';
import { accountsFixture, manualClock, type AccountsFixture } from '../accounts/accounts-fixture.js';

describe('the stats response schema', () => {
  let fx: AccountsFixture | undefined;
  afterEach(() => fx?.close());

  it('serializes a real stats answer with every field and value it has', async () => {
    fx = accountsFixture(manualClock(Date.UTC(2027, 0, 15)));
    const ownerId = createOwner(fx.ctx).id;
    record(fx.ctx, ownerId, 'ingress', 12345);
    const account = accountById(fx.ctx.db, ownerId);
    if (!account) throw new Error('owner missing');
    const usage = accountUsage(fx.ctx, account);
    const server = Fastify();
    server.get('/stats', { schema: { response: STATS_RESPONSE_SCHEMA } }, async () => ({ code: 200, msg: 'ok', data: usage }));
    const answer = await server.inject({ method: 'GET', url: '/stats' });
    // A field the schema lacks would be dropped silently: the parsed answer must be the object itself.
    expect(JSON.parse(answer.body)).toEqual({ code: 200, msg: 'ok', data: usage });
    expect(Object.keys(STATS_RESPONSE_SCHEMA[200].properties.data.properties).sort()).toEqual(Object.keys(usage).sort());
    await server.close();
  });
});
