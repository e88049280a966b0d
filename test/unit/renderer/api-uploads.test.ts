/**
 * renderer/api/uploads.ts: step 1 of the uploads the Files page makes, and the upload settings, against a
 * scripted HTTP service: what is sent, what comes back, and answers of the wrong shape refused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../renderer/api/api-error.js';
import { createApiClient, type ApiClient } from '../../../renderer/api/client.js';
import type { Credentials } from '../../../renderer/api/core.js';
import type { UploadSettings } from '../../../shared/api-types.js';
import { startScriptedService, type ScriptedService } from './scripted-service.js';

const credentials: Credentials = { accessKey: 'key-1', accessSecret: 'secret-1' };
const SETTINGS: UploadSettings = { account_uuid: 'u-1', cid_profile: 'unixfs-v1-2025', public_gateway: false };
const ADDRESS = 'http://127.0.0.1:5080/ipfs/?sargs=abc&ssig=def';

let service: ScriptedService;
let api: ApiClient;
beforeAll(async () => {
  service = await startScriptedService();
  api = createApiClient({ baseUrl: service.url, now: () => 1_700_000_000_000, credentials });
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  service.seen = [];
});

function lastRequest(): string {
  const last = service.seen.at(-1);
  if (!last) throw new Error('nothing was sent');
  expect(last.headers['x-access-key']).toBe('key-1');
  expect(last.headers['x-access-secret']).toBeUndefined();
  expect(last.headers['x-access-signature']).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return `${last.method} ${last.url}`;
}

describe('uploads API', () => {
  it('settings: GET /api/v0/upload/settings, checked', async () => {
    service.answerData(SETTINGS);
    expect(await api.uploads.settings()).toEqual(SETTINGS);
    expect(lastRequest()).toBe('GET /api/v0/upload/settings?ts=1700000000');
    for (const malformed of [{ ...SETTINGS, public_gateway: 'no' }, { ...SETTINGS, account_uuid: 1 }, { cid_profile: 'unixfs-v1-2025' }, null]) {
      service.answerData(malformed);
      await expect(api.uploads.settings()).rejects.toMatchObject({ kind: 'protocol' });
    }
  });

  it('fileAddress: step 1 of POST /ipfs/?size=N answers data.url', async () => {
    service.answerData({ url: ADDRESS });
    expect(await api.uploads.fileAddress(12)).toBe(ADDRESS);
    expect(lastRequest()).toBe('POST /ipfs/?ts=1700000000&size=12');
  });

  it('carAddress: step 1 of dag/import, roots left unpinned (the page pins with a name)', async () => {
    service.answerData({ url: ADDRESS });
    expect(await api.uploads.carAddress(4096)).toBe(ADDRESS);
    expect(lastRequest()).toBe('POST /api/v0/dag/import?ts=1700000000&size=4096&pin-roots=false');
  });

  it('an address of the wrong shape is a protocol error; a refusal keeps its code and msg', async () => {
    for (const malformed of [{}, { url: '' }, { url: 7 }]) {
      service.answerData(malformed);
      await expect(api.uploads.fileAddress(1)).rejects.toMatchObject({ kind: 'protocol' });
    }
    service.answerError('plan_limit', 'plan limit reached: ingress', { limit: 'ingress' });
    const refusal = await api.uploads.carAddress(1).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ kind: 'http', code: 403, msg: 'plan limit reached: ingress', error: 'plan_limit', detail: { limit: 'ingress' } });
  });

  it('cancel: POST /api/v0/upload/cancel with the address (its sargs and ssig, no key), the outcome checked', async () => {
    service.answerData({ outcome: 'stored', roots: ['bafy-root'] });
    expect(await api.uploads.cancel(ADDRESS)).toEqual({ outcome: 'stored', roots: ['bafy-root'] });
    const last = service.seen.at(-1);
    expect(`${last?.method} ${last?.url}`).toBe('POST /api/v0/upload/cancel?sargs=abc&ssig=def');
    expect(last?.headers['x-access-key']).toBeUndefined();
    for (const malformed of [{ outcome: 'maybe', roots: [] }, { outcome: 'cancelled' }, { outcome: 'stored', roots: [7] }]) {
      service.answerData(malformed);
      await expect(api.uploads.cancel(ADDRESS)).rejects.toMatchObject({ kind: 'protocol' });
    }
  });
});
