import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkSettingsView, PinRecord } from '../../shared/api-types.js';
import { startTrustlessGateway, type TestGateway } from '../helpers/trustless-gateway.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { randomData, referenceCid } from './uploads-helpers.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe('tests never reach the internet (issue 23)', () => {
  const servers: TestServer[] = [];
  let gateway: TestGateway | undefined;
  const original = globalThis.fetch;
  afterEach(async () => {
    globalThis.fetch = original;
    for (const server of servers.splice(0)) await server.stop();
    await gateway?.close();
  });

  it('a test server is offline unless the test names local endpoints: no request leaves this machine', async () => {
    // Every request the process makes through fetch (the network layer's and the routing library's), seen on its way.
    const outbound: string[] = [];
    globalThis.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input instanceof URL ? input.href : input);
      if (!LOOPBACK.has(url.hostname)) outbound.push(url.href);
      return original(input, init);
    };
    const plain = await startTestServer();
    servers.push(plain);
    gateway = await startTrustlessGateway([]);
    const local = await startTestServer({ network: { fetchFrom: [gateway.url] } });
    servers.push(local);

    // A pin of a CID neither holds: the one with a local gateway asks it, the plain one asks nobody.
    const cid = await referenceCid(randomData(100));
    for (const server of [plain, local]) expect((await call(server, 'POST', '/api/v0/pin/add', { key: server.owner, query: { arg: cid } })).status).toBe(200);
    await expect.poll(() => gateway?.blockRequests().length ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);

    const settings = await call<{ data: NetworkSettingsView }>(plain, 'GET', '/api/v0/settings/network', { key: plain.owner });
    expect(settings.json.data).toMatchObject({ offline: true, pinned: { offline: true } });
    const pin = await call<{ data: PinRecord }>(plain, 'GET', `/api/v0/pin/${cid}`, { key: plain.owner });
    expect(pin.json.data.status).toBe('pinning');
    expect(pin.json.data.fetch).toBeUndefined();
    expect(outbound).toEqual([]);
  });
});
