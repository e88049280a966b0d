import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadSettings } from '../../shared/api-types.js';
import { createKey, createUser, createUserKey, expectError, ownerAccountRow } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Issue 12: GET /api/v0/upload/settings, what the Files page needs from any account that uploads: the
 * CID profile its folder CARs are built with, whether the gateway is public, and the account to keep its
 * recent uploads under.
 */

type Answer = { code: number; msg: string; data: UploadSettings };

describe('GET /api/v0/upload/settings', () => {
  let defaults: TestServer;
  let legacy: TestServer;
  beforeAll(async () => {
    [defaults, legacy] = await Promise.all([startTestServer(), startTestServer({ cidProfile: 'unixfs-v0-2015', publicGateway: true })]);
  });
  afterAll(async () => {
    await Promise.all([defaults?.stop(), legacy?.stop()]);
  });

  it("answers the owner its account, the service's CID profile and gateway setting", async () => {
    const answer = await call<Answer>(defaults, 'GET', '/api/v0/upload/settings', { key: defaults.owner });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      code: 200,
      msg: 'ok',
      data: { account_uuid: (await ownerAccountRow(defaults)).uuid, cid_profile: 'unixfs-v1-2025', public_gateway: false },
    });
    const other = await call<Answer>(legacy, 'GET', '/api/v0/upload/settings', { key: legacy.owner, signed: true });
    expect(other.json.data).toEqual({ account_uuid: (await ownerAccountRow(legacy)).uuid, cid_profile: 'unixfs-v0-2015', public_gateway: true });
  });

  it('answers any key that may upload, each with its own account: a partner user, a write-only key', async () => {
    await createUser(defaults, defaults.owner, 'settings-user');
    const userKey = await createUserKey(defaults, defaults.owner, 'settings-user', 'uploader', ['write']);
    const answer = await call<Answer>(defaults, 'GET', '/api/v0/upload/settings', { key: userKey });
    expect(answer.status).toBe(200);
    expect(answer.json.data).toEqual({ account_uuid: 'settings-user', cid_profile: 'unixfs-v1-2025', public_gateway: false });
  });

  it('refuses a key that cannot upload (403), no key (401, even with a public gateway), no ts (400) and other methods (404)', async () => {
    const reader = await createKey(defaults, defaults.owner, 'settings-reader', ['read', 'pin']);
    expectError(await call(defaults, 'GET', '/api/v0/upload/settings', { key: reader }), 403, /permission missing: write/);
    expectError(await call(defaults, 'GET', '/api/v0/upload/settings', {}), 401, /X-Access-Key/);
    expectError(await call(legacy, 'GET', '/api/v0/upload/settings', {}), 401, /X-Access-Key/);
    expectError(await call(defaults, 'GET', '/api/v0/upload/settings', { key: defaults.owner, noTs: true }), 400, /ts is required/);
    expectError(await call(defaults, 'POST', '/api/v0/upload/settings', { key: defaults.owner }), 404, /no route/);
  });
});
