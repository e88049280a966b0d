import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceFacts } from '../../shared/api-types.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createKey, createUser, createUserKey, expectError, repoRoot } from '../helpers/account-api.js';

/** Issue 12, api12.md section 8: GET /api/v0/service, the Settings page's facts of the running service. */

describe('GET /api/v0/service', () => {
  let server: TestServer;
  let startedFrom: number;
  let startedBy: number;
  beforeAll(async () => {
    startedFrom = Math.floor(Date.now() / 1000);
    server = await startTestServer({ gcIntervalSeconds: 1234, gcGraceSeconds: 56, cidProfile: 'unixfs-v0-2015', publicGateway: true });
    startedBy = Math.floor(Date.now() / 1000);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('the owner reads version, data folder, URL, GC settings (and that it leads GC), CID profile, public gateway and start time', async () => {
    const response = await call<{ code: number; msg: string; data: ServiceFacts }>(server, 'GET', '/api/v0/service', { key: server.owner });
    expect(response.status).toBe(200);
    const version = (JSON.parse(readFileSync(`${repoRoot}/package.json`, 'utf8')) as { version: string }).version;
    expect(response.json).toEqual({
      code: 200,
      msg: 'ok',
      data: {
        version,
        data_dir: server.dataDir,
        url: server.url,
        gc_interval_seconds: 1234,
        gc_grace_seconds: 56,
        cid_profile: 'unixfs-v0-2015',
        public_gateway: true,
        started_at: expect.any(Number),
        // One instance on its own SQLite file always runs the periodic GC.
        gc_leader: true,
      },
    });
    expect(response.json.data.started_at).toBeGreaterThanOrEqual(startedFrom);
    expect(response.json.data.started_at).toBeLessThanOrEqual(startedBy);
  });

  it("anyone but the owner's admin keys is refused: a partner user's admin key 403, an owner key without admin 403, no key 401, no ts 400", async () => {
    await createUser(server, server.owner, 'facts-user');
    const userAdmin = await createUserKey(server, server.owner, 'facts-user', 'admin', ['admin']);
    expectError(await call(server, 'GET', '/api/v0/service', { key: userAdmin }), 403, /only the owner/);
    const pinner = await createKey(server, server.owner, 'facts-pinner', ['pin', 'read']);
    expectError(await call(server, 'GET', '/api/v0/service', { key: pinner }), 403, /admin/);
    expectError(await call(server, 'GET', '/api/v0/service', {}), 401, /X-Access-Key/);
    expectError(await call(server, 'GET', '/api/v0/service', { key: server.owner, noTs: true }), 400, /ts is required/);
  });
});
