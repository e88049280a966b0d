import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, decodeValidRecord, ipfsValue, publishName } from './names-helpers.js';
import { gatewayGet, uploadCid } from './uploads-helpers.js';

/**
 * The served long-poll of a name's record (issue 24, docs/sync.md "Following a folder"): `X-Pinfold-Wait` and
 * `X-Pinfold-Seq` on `GET /ipns/<name>?format=ipns-record` answer at once when the record held is newer, else
 * when the name is published again, else 304 once the wait ends; every record answer of a name held here says
 * `X-Pinfold-Push: 1`.
 */
describe('the long-poll of a held name’s record (issue 24)', () => {
  let server: TestServer;
  let name: string;
  let first: string;
  let second: string;

  const record = (sequence: string, wait: string, extra: Record<string, string> = {}) =>
    gatewayGet(server, server.owner, `/ipns/${name}`, {
      query: { format: 'ipns-record' },
      headers: { 'X-Pinfold-Wait': wait, 'X-Pinfold-Seq': sequence, ...extra },
    });

  beforeAll(async () => {
    server = await startTestServer();
    first = await uploadCid(server, server.owner, new TextEncoder().encode('first'));
    second = await uploadCid(server, server.owner, new TextEncoder().encode('second'));
    name = await createdName(server, server.owner, first);
    // Sequence 1, so that a client holding an older record (0) can be played.
    expect((await publishName(server, server.owner, name, first)).status).toBe(200);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('answers at once, with the push marker, when the record held is newer than the one the client has', async () => {
    const plain = await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('x-pinfold-push')).toBe('1');
    const held = await decodeValidRecord(name, new Uint8Array(plain.bytes));
    const started = Date.now();
    const answer = await record(String(held.sequence - 1n), '60');
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.headers.get('x-pinfold-push')).toBe('1');
    expect((await decodeValidRecord(name, new Uint8Array(answer.bytes))).value).toBe(ipfsValue(first));
  });

  it('holds the request until the name is published again, then answers the new record', async () => {
    const held = await decodeValidRecord(
      name,
      new Uint8Array((await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } })).bytes),
    );
    const waiting = record(String(held.sequence), '60');
    // The wait is under way once the server saw the request; the publish comes after it.
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled).toBe(false);
    const published = await publishName(server, server.owner, name, second);
    expect(published.status, published.text).toBe(200);
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const got = await decodeValidRecord(name, new Uint8Array(answer.bytes));
    expect(got.value).toBe(ipfsValue(second));
    expect(got.sequence).toBe(held.sequence + 1n);
  });

  it('answers 304 with the push marker when the wait ends with no newer record', async () => {
    const held = await decodeValidRecord(
      name,
      new Uint8Array((await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } })).bytes),
    );
    const started = Date.now();
    const answer = await record(String(held.sequence), '1');
    expect(answer.status).toBe(304);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(answer.headers.get('x-pinfold-push')).toBe('1');
    expect(answer.bytes.byteLength).toBe(0);
  });

  it('refuses a malformed wait with a 400 naming the header', async () => {
    for (const [wait, sequence, header] of [
      ['0', '1', 'X-Pinfold-Wait'],
      ['121', '1', 'X-Pinfold-Wait'],
      ['soon', '1', 'X-Pinfold-Wait'],
      ['5', '-1', 'X-Pinfold-Seq'],
      ['5', '18446744073709551616', 'X-Pinfold-Seq'],
    ] as const) {
      const answer = await record(sequence, wait);
      const text = answer.bytes.toString('utf8');
      expectError({ status: answer.status, json: JSON.parse(text) as unknown, text, headers: answer.headers }, 400, new RegExp(`^${header}: `));
    }
  });
});
