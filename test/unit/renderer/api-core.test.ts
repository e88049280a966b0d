import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../renderer/api/api-error.js';
import { createApiCore, type ApiObserver, type Credentials } from '../../../renderer/api/core.js';
import { isRecord } from '../../../renderer/api/shape.js';
import { signatureMatches } from '../../../main/http/signature.js';
import { startScriptedService, unreachableUrl, type ScriptedService } from './scripted-service.js';

const credentials: Credentials = { accessKey: '3f0c1c9e-6a7e-4c43-9d3e-2b5c0f6e9a11', accessSecret: 'c2VjcmV0LXNlY3JldC1zZWNyZXQ' };
const anyRecord = (value: unknown): value is Record<string, unknown> => isRecord(value);

let service: ScriptedService;
beforeAll(async () => {
  service = await startScriptedService();
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  service.seen = [];
});

function recordingObserver(): ApiObserver & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    unauthorized: (used, error) => events.push(`unauthorized ${used.accessKey} ${error.msg}`),
    unreachable: () => events.push('unreachable'),
    answered: () => events.push('answered'),
  };
}

describe('createApiCore: the request', () => {
  it('puts ts (whole seconds) and the key headers on an authenticated call, and leaves undefined query values out', async () => {
    service.answerData({ a: 1 });
    const core = createApiCore({ baseUrl: `${service.url}/`, now: () => 1_700_000_000_999, credentials });
    await expect(core.data({ path: '/api/v0/x', query: { limit: 25, name: undefined, pin: false } }, anyRecord, 'x')).resolves.toEqual({ a: 1 });
    expect(service.seen[0]).toMatchObject({ method: 'GET', url: '/api/v0/x?ts=1700000000&limit=25&pin=false' });
    expect(service.seen[0]?.headers['x-access-key']).toBe(credentials.accessKey);
    // Signed, never the secret itself: the service's own check accepts the signature for this URL only.
    expect(service.seen[0]?.headers['x-access-secret']).toBeUndefined();
    const signature = String(service.seen[0]?.headers['x-access-signature']);
    const key = Buffer.from(credentials.accessSecret, 'base64url');
    expect(signatureMatches(key, 'GET', '/api/v0/x?ts=1700000000&limit=25&pin=false', signature)).toBe(true);
    expect(signatureMatches(key, 'GET', '/api/v0/x?ts=1700000000&limit=26&pin=false', signature)).toBe(false);
    expect(signatureMatches(key, 'POST', '/api/v0/x?ts=1700000000&limit=25&pin=false', signature)).toBe(false);
  });

  it('signs the path as it is sent, percent-encoded', async () => {
    service.answerData({});
    const core = createApiCore({ baseUrl: service.url, now: () => 1_700_000_000_000, credentials });
    await core.data({ method: 'POST', path: '/api/v0/some path/é' }, anyRecord, 'x');
    const sent = service.seen[0];
    expect(sent?.url).toBe('/api/v0/some%20path/%C3%A9?ts=1700000000');
    expect(signatureMatches(Buffer.from(credentials.accessSecret, 'base64url'), 'POST', sent?.url ?? '', String(sent?.headers['x-access-signature']))).toBe(
      true,
    );
  });

  it('sends neither ts nor key headers on a keyless call, with or without a key of its own (plan list, code sign-in)', async () => {
    service.answerData({});
    await createApiCore({ baseUrl: service.url }).data({ method: 'POST', path: '/api/v0/session', keyless: true, query: { code: 'abc' } }, anyRecord, 'x');
    await createApiCore({ baseUrl: service.url, credentials }).data({ path: '/api/v0/plans', keyless: true }, anyRecord, 'x');
    expect(service.seen.map((seen) => `${seen.method} ${seen.url}`)).toEqual(['POST /api/v0/session?code=abc', 'GET /api/v0/plans']);
    expect(service.seen.map((seen) => seen.headers['x-access-key'])).toEqual([undefined, undefined]);
  });

  it('refuses a call that needs a key on a core without one, before anything is sent', async () => {
    service.answerData({});
    const refusal = await createApiCore({ baseUrl: service.url })
      .data({ path: '/api/v0/stats' }, anyRecord, 'x')
      .catch((e: unknown) => e);
    expect(refusal).not.toBeInstanceOf(ApiError);
    expect(String(refusal)).toContain('GET /api/v0/stats needs a key');
    expect(service.seen).toEqual([]);
  });

  it('sends a body as JSON with its content type', async () => {
    service.answerData({});
    await createApiCore({ baseUrl: service.url, credentials }).empty({ method: 'DELETE', path: '/api/v0/key', body: { name: 'ci' } });
    expect(service.seen[0]?.method).toBe('DELETE');
    expect(service.seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(service.seen[0]?.body ?? '')).toEqual({ name: 'ci' });
  });
});

describe('createApiCore: the answer', () => {
  it('turns an error envelope into an ApiError with its code, msg, stable error string and detail', async () => {
    service.answerError('bad_input', 'name is too long', { param: 'name' });
    const error = await createApiCore({ baseUrl: service.url, credentials })
      .empty({ path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'http', code: 400, msg: 'name is too long', error: 'bad_input', detail: { param: 'name' }, isUnauthorized: false });
  });

  it('keeps a plan limit apart from a missing permission, though both are 403', async () => {
    const core = createApiCore({ baseUrl: service.url, credentials });
    service.answerError('plan_limit', 'plan limit reached: pinned_bytes', { limit: 'pinned_bytes' });
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ code: 403, error: 'plan_limit', detail: { limit: 'pinned_bytes' } });
    service.answerError('permission', 'permission missing: admin');
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ code: 403, error: 'permission', detail: {} });
  });

  it('an envelope without a string it knows (an older service, a newer string) stands for its status; no answer has none', async () => {
    const core = createApiCore({ baseUrl: service.url, credentials });
    service.answer = { status: 404, body: JSON.stringify({ code: 404, msg: 'no such pin' }) };
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ code: 404, error: 'not_found' });
    service.answer = { status: 409, body: JSON.stringify({ code: 409, msg: 'later', error: 'some_newer_string' }) };
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ code: 409, error: 'conflict' });
    service.answer = { status: 418, body: JSON.stringify({ code: 418, msg: 'teapot' }) };
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ code: 418, error: null });
    expect(new ApiError('network', 0, 'unreachable').error).toBeNull();
    expect(new ApiError('protocol', 200, 'bad shape').error).toBeNull();
  });

  it('reports a 401 made with the key to the observer, with the key', async () => {
    const observer = recordingObserver();
    service.answerError('unauthenticated', 'session expired');
    const core = createApiCore({ baseUrl: service.url, observer, credentials });
    await expect(core.empty({ path: '/x' })).rejects.toMatchObject({ isUnauthorized: true });
    expect(observer.events).toEqual(['answered', `unauthorized ${credentials.accessKey} session expired`]);
    // A 401 to a keyless call (a spent sign-in code) is the caller's alone.
    observer.events.length = 0;
    await expect(core.empty({ method: 'POST', path: '/api/v0/session', keyless: true })).rejects.toMatchObject({ code: 401 });
    expect(observer.events).toEqual(['answered']);
  });

  it('reports no answer as a network error with code 0, and tells the observer', async () => {
    const observer = recordingObserver();
    const error = await createApiCore({ baseUrl: await unreachableUrl(), observer, credentials })
      .empty({ path: '/x' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'network', code: 0, isUnreachable: true });
    expect(observer.events).toEqual(['unreachable']);
  });

  it('reports a body that is not JSON, or JSON without the envelope, as a protocol error with the status', async () => {
    service.answer = { status: 502, body: '<html>bad gateway</html>', contentType: 'text/html' };
    await expect(createApiCore({ baseUrl: service.url, credentials }).empty({ path: '/x' })).rejects.toMatchObject({ kind: 'protocol', code: 502 });
    service.answer = { status: 200, body: '{"ok":true}' };
    await expect(createApiCore({ baseUrl: service.url, credentials }).empty({ path: '/x' })).rejects.toMatchObject({ kind: 'protocol', code: 200 });
  });

  it('rejects data of the wrong shape, naming what it expected', async () => {
    service.answerData([1, 2]);
    await expect(createApiCore({ baseUrl: service.url, credentials }).data({ path: '/x' }, anyRecord, 'the thing')).rejects.toMatchObject({
      kind: 'protocol',
      msg: 'The service sent the thing in an unexpected shape.',
    });
  });

  it('answers a list as {items, total}, and rejects one without total or with a bad row', async () => {
    const core = createApiCore({ baseUrl: service.url, credentials });
    service.answerList([{ a: 1 }, { a: 2 }], 40);
    await expect(core.list({ path: '/x' }, anyRecord, 'rows')).resolves.toEqual({ items: [{ a: 1 }, { a: 2 }], total: 40 });
    service.answer = { status: 200, body: JSON.stringify({ code: 200, data: [] }) };
    await expect(core.list({ path: '/x' }, anyRecord, 'rows')).rejects.toMatchObject({ kind: 'protocol' });
    service.answerList([{ a: 1 }, 7]);
    await expect(core.list({ path: '/x' }, anyRecord, 'rows')).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('passes an abort through unchanged, not as an ApiError and not to the observer', async () => {
    const observer = recordingObserver();
    service.answerData({});
    const controller = new AbortController();
    controller.abort();
    const error = await createApiCore({ baseUrl: service.url, observer, credentials })
      .data({ path: '/x', signal: controller.signal }, anyRecord, 'x')
      .catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(ApiError);
    expect((error as Error).name).toBe('AbortError');
    expect(observer.events).toEqual([]);
  });

  it('stream(): the open response on 200, the envelope as an ApiError otherwise', async () => {
    const core = createApiCore({ baseUrl: service.url, credentials });
    service.answer = { status: 200, body: 'retry: 3000\n\n', contentType: 'text/event-stream' };
    const response = await core.stream({ path: '/api/v0/events' });
    expect(await response.text()).toBe('retry: 3000\n\n');
    expect(service.seen.at(-1)?.headers.accept).toBe('text/event-stream');
    service.answerError('too_many_requests', 'too many event streams for this key');
    await expect(core.stream({ path: '/api/v0/events' })).rejects.toMatchObject({ kind: 'http', code: 429 });
  });

  it('content(): the response on 2xx whatever its type; a failure as an ApiError, and a 401 with the key is reported', async () => {
    const observer = recordingObserver();
    const core = createApiCore({ baseUrl: service.url, observer, credentials });
    service.answer = { status: 200, body: 'plain bytes', contentType: 'application/octet-stream' };
    const response = await core.content({ path: '/ipfs/bafy' });
    expect(await response.text()).toBe('plain bytes');
    expect(service.seen.at(-1)?.headers.accept).toBe('*/*');
    expect(service.seen.at(-1)?.url).toMatch(/^\/ipfs\/bafy\?ts=\d+$/);

    service.answerError('not_found', 'not held here');
    await expect(core.content({ path: '/ipfs/bafy' })).rejects.toMatchObject({ kind: 'http', code: 404, msg: 'not held here' });
    service.answerError('unauthenticated', 'unknown access key');
    await expect(core.content({ method: 'HEAD', path: '/ipfs/bafy' })).rejects.toMatchObject({ kind: 'http', code: 401 });
    // A keyless call (the public probe): a 401 is nobody's session ending.
    await expect(core.content({ method: 'HEAD', path: '/ipfs/bafy', keyless: true })).rejects.toMatchObject({ kind: 'http', code: 401 });
    expect(observer.events.filter((event) => event.startsWith('unauthorized'))).toEqual([`unauthorized ${credentials.accessKey} the gateway answered 401`]);
  });
});
