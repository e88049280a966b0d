import { CID } from 'multiformats/cid';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/base/logger.js';
import { createNameRecordSources } from '../../../main/network/name-records.js';
import { waitForRecord } from '../../../main/network/record-push.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/scripted-server.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const RECORD_TYPE = 'application/vnd.ipfs.ipns-record';
const servers: ScriptedServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function gateway(
  answer: (headers: Record<string, string | string[] | undefined>) => { status: number; headers?: Record<string, string>; body?: Uint8Array },
) {
  const server = await startScriptedServer((request, response) => {
    const { status, headers = {}, body } = answer(request.headers);
    response.writeHead(status, headers);
    response.end(body);
  });
  servers.push(server);
  return server;
}

describe('waitForRecord: the client of the long-poll (issue 24)', () => {
  it('asks with the wait and the sequence held, and tells a pushing source from an ordinary one', async () => {
    const pushing = await gateway(() => ({ status: 200, headers: { 'content-type': RECORD_TYPE, 'x-pinfold-push': '1' }, body: Uint8Array.of(1, 2, 3) }));
    const signal = new AbortController().signal;
    expect(await waitForRecord(pushing.url, NAME, 7n, 30, signal)).toEqual({ kind: 'record', bytes: Uint8Array.of(1, 2, 3), push: true });
    expect(pushing.requests[0]).toMatchObject({ url: `/ipns/${NAME}?format=ipns-record` });
    expect(pushing.requests[0]?.headers).toMatchObject({ 'x-pinfold-wait': '30', 'x-pinfold-seq': '7', accept: RECORD_TYPE });

    const ordinary = await gateway(() => ({ status: 200, headers: { 'content-type': RECORD_TYPE }, body: Uint8Array.of(4) }));
    expect(await waitForRecord(ordinary.url, NAME, 7n, 30, signal)).toEqual({ kind: 'record', bytes: Uint8Array.of(4), push: false });

    const unchanged = await gateway(() => ({ status: 304, headers: { 'x-pinfold-push': '1' } }));
    expect(await waitForRecord(unchanged.url, NAME, 7n, 30, signal)).toEqual({ kind: 'unchanged', push: true });
  });

  it('answers none for anything but a record: an error status, another type, a body too large, a source that is down', async () => {
    const signal = new AbortController().signal;
    const missing = await gateway(() => ({ status: 404 }));
    expect(await waitForRecord(missing.url, NAME, 0n, 5, signal)).toMatchObject({ kind: 'none', push: false, reason: 'HTTP 404' });
    const html = await gateway(() => ({ status: 200, headers: { 'content-type': 'text/html' }, body: Uint8Array.of(60) }));
    expect(await waitForRecord(html.url, NAME, 0n, 5, signal)).toMatchObject({ kind: 'none' });
    const huge = await gateway(() => ({ status: 200, headers: { 'content-type': RECORD_TYPE, 'x-pinfold-push': '1' }, body: new Uint8Array(20_000) }));
    expect(await waitForRecord(huge.url, NAME, 0n, 5, signal)).toMatchObject({ kind: 'none', push: true });
    const down = await gateway(() => ({ status: 200 }));
    await down.close();
    servers.splice(servers.indexOf(down), 1);
    expect(await waitForRecord(down.url, NAME, 0n, 5, signal)).toMatchObject({ kind: 'none', push: false });
  });

  it('ends with its signal while the source holds the request', async () => {
    const server = await startScriptedServer(() => undefined);
    servers.push(server);
    const controller = new AbortController();
    const waiting = waitForRecord(server.url, NAME, 0n, 60, controller.signal);
    setTimeout(() => controller.abort(new Error('stopped')), 50);
    await expect(waiting).rejects.toThrow('stopped');
  });
});

describe("a name's records asked of the settings' sources and a follow's own", () => {
  it('asks every fetch source and every extra gateway once, and the routing endpoints', async () => {
    const record = (byte: number) => () => ({ status: 200, headers: { 'content-type': RECORD_TYPE }, body: Uint8Array.of(byte) });
    const settingsSource = await gateway(record(1));
    const ownSource = await gateway(record(2));
    const routed: string[] = [];
    const sources = createNameRecordSources({
      settings: { current: () => ({ offline: false, fetchFrom: [settingsSource.url], routing: [] }) },
      routing: {
        async getRecords(name) {
          routed.push(name.toString());
          return [{ endpoint: 'http://127.0.0.1:9', record: Uint8Array.of(3) }];
        },
      },
      logger: createLogger('silent'),
    });
    const records = await sources.records(CID.parse(NAME), { sources: [ownSource.url, settingsSource.url] });
    expect(records.map(({ bytes }) => bytes[0]).sort()).toEqual([1, 2, 3]);
    expect(settingsSource.requests).toHaveLength(1);
    expect(ownSource.requests).toHaveLength(1);
    expect(routed).toHaveLength(1);
  });
});
