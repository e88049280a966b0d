import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { expectFailureEnvelope } from '../helpers/error-envelope.js';
import { suiteEngine } from '../helpers/suite-database.js';
import { call, nowTs, startTestServer, type CallResult, type TestServer } from '../helpers/test-server.js';

/** Every route that reads a JSON body (contract section 2: parsed as JSON whatever the Content-Type). */
const ROUTES: Array<[string, string]> = [
  ['POST', '/api/v0/key'],
  ['DELETE', '/api/v0/key'],
  ['POST', '/api/v0/pin/rename'],
  ['POST', '/api/v0/name/import'],
  ['POST', '/api/v0/ipns/alias'],
  ['POST', '/api/v0/folder/operation'],
  ['POST', '/api/v0/sync/add'],
  ['POST', '/api/v0/partner/user/create'],
  ['POST', '/api/v0/partner/user/update-plan'],
  ['POST', '/api/v0/partner/user/key'],
  ['DELETE', '/api/v0/partner/user/key'],
];

/**
 * With the metadata in PostgreSQL, sync folders are refused by design (409) before their body is read:
 * there the sync route answers that refusal to every body, malformed or not.
 */
const SYNC_REFUSED = /single-instance feature/;
const refusedOnThisEngine = (path: string): boolean => suiteEngine() === 'postgres' && path.startsWith('/api/v0/sync/');

const deep = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
/** Fields valid for the key routes, so that only the flaw under test is wrong (a 200 before the fix). */
const KEY = '"name":"json-probe","permissions":["read"],"uuid":"json-probe-user","email":"probe@example.com"';

/** [what, body bytes, msg] */
const MALFORMED: Array<[string, Buffer, RegExp]> = [
  ['100,000 unclosed brackets', Buffer.from('['.repeat(100_000)), /^body is not valid JSON$/],
  ['100,000 nested arrays in a field', Buffer.from(`{${KEY},"extra":${deep(100_000)}}`), /^extra(\[0\]){31}: JSON nested deeper than 32 levels$/],
  ['100,000 nested objects', Buffer.from(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`), /^a(\.a){31}: JSON nested deeper than 32 levels$/],
  [
    'bytes that are not UTF-8',
    Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","permissions":["read"]}')]),
    /^body is not valid UTF-8$/,
  ],
  ['a __proto__ key', Buffer.from(`{"__proto__":{"admin":true},${KEY}}`), /^__proto__: the key "__proto__" is not accepted$/],
  ['a lone surrogate', Buffer.from('{"name":"probe\\ud800","permissions":["read"]}'), /^name: is not valid UTF-8 \(a lone surrogate escape/],
  ['no body', Buffer.alloc(0), /^a JSON body is required$/],
  ['not JSON', Buffer.from('name=x&permissions=read'), /^body is not valid JSON$/],
  ['JSON that is not an object', Buffer.from('[{"name":"x"}]'), /^body must be a JSON object$/],
  ['a number beyond double range', Buffer.from('1e400'), /^body must be a JSON object$/],
];

/** Values of the wrong type, or numbers no field takes: each route names its own field. */
const WRONG_FIELDS = Buffer.from(
  '{"name":1e400,"permissions":"read","uuid":[1],"email":{},"plan_id":1.5,"cid":123456789012345678901234567890,"path":[],"value":{},"alias":{},"add":"x","remove":[1],"pin_new":"yes"}',
);

describe('malformed JSON bodies over a real server (contract sections 2 and 3)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function send(method: string, path: string, body: Buffer, contentType: string): Promise<CallResult> {
    const response = await fetch(`${server.url}${path}?ts=${nowTs()}`, {
      method,
      body,
      headers: { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret, 'Content-Type': contentType },
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
    return { status: response.status, headers: response.headers, json, text };
  }

  /** Everything a refused body could have changed. */
  async function state(): Promise<unknown[]> {
    const reads = ['/api/v0/keys', '/api/v0/pin', '/api/v0/ipns', '/api/v0/sync', '/api/v0/stats'];
    return Promise.all(reads.map(async (path) => (await call(server, 'GET', path, { key: server.owner })).json));
  }

  it('each is a 400 with the envelope naming the flaw, on every JSON route and whatever the Content-Type, and changes nothing', async () => {
    const before = await state();
    for (const [method, path] of ROUTES) {
      for (const [what, body, msg] of MALFORMED) {
        for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
          const response = await send(method, path, body, type);
          try {
            if (refusedOnThisEngine(path)) expectError(response, 409, SYNC_REFUSED, 'conflict');
            else expectError(response, 400, msg, 'bad_input');
          } catch (error) {
            throw new Error(`${method} ${path}, ${what}, ${type}: ${response.status} ${response.text.slice(0, 120)}`, { cause: error });
          }
        }
      }
      const wrong = await send(method, path, WRONG_FIELDS, 'application/json');
      expect(wrong.status, `${method} ${path} wrong fields: ${wrong.text}`).toBe(refusedOnThisEngine(path) ? 409 : 400);
      expectFailureEnvelope(wrong.json, wrong.status, refusedOnThisEngine(path) ? 'conflict' : 'bad_input');
    }
    expect(await state()).toEqual(before);
  });
});
