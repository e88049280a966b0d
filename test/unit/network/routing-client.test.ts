import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { peerIdFromString } from '@libp2p/peer-id';
import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../main/base/logger.js';
import { SettingsFile } from '../../../main/base/settings-file.js';
import { createRoutingClient, type ClosableRoutingClient } from '../../../main/network/routing-client.js';
import { openNetworkSettings, type NetworkSettings } from '../../../main/network/settings.js';
import { startScriptedServer, type ScriptedServer } from '../../helpers/scripted-server.js';
import { collect } from '../../helpers/collect.js';

const CONTENT = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');
const PEER_A = '12D3KooWDpJ7As7BWAwRMfu1VU2WCqNjvq387JEYKDBj4kx6nXTN';
const PEER_B = 'QmYyQSo1c1Ym7orWxLYvCrM2EmxFTANf8wXmmE7DWjhx5N';
const NAME = peerIdFromString(PEER_A).toCID();

const gatewayPeer = (id: string, addrs: string[], protocols = ['transport-ipfs-gateway-http']) => ({
  Schema: 'peer',
  ID: id,
  Addrs: addrs,
  Protocols: protocols,
});

let dir: string;
let servers: ScriptedServer[];
let client: ClosableRoutingClient | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pinfold-routing-'));
  servers = [];
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all(servers.map((server) => server.close()));
  await rm(dir, { recursive: true, force: true });
});

async function serve(handler: Parameters<typeof startScriptedServer>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer(handler);
  servers.push(server);
  return server;
}

async function settingsWith(routing: string[], offline = false): Promise<NetworkSettings> {
  return openNetworkSettings(new SettingsFile(join(dir, 'settings.json')), { routing, offline, fetchFrom: [] });
}

describe('routing client: providers', () => {
  it('asks every endpoint, keeps only HTTP gateway providers and their HTTP addresses, each URL once', async () => {
    const json = await serve((request, response) => {
      expect(request.url).toMatch(new RegExp(`^/routing/v1/providers/${CONTENT.toString()}`));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          Providers: [
            gatewayPeer(PEER_A, ['/ip4/127.0.0.1/tcp/8080/http', '/ip4/10.0.0.1/tcp/4001', '/dns4/gw.example/tcp/443/https']),
            gatewayPeer(PEER_B, ['/ip4/127.0.0.1/tcp/9090/http'], ['transport-bitswap']),
          ],
        }),
      );
    });
    const ndjson = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write(`${JSON.stringify(gatewayPeer(PEER_B, ['/dns4/gw.example/tcp/443/https', '/ip6/::1/tcp/7070/http']))}\n`);
      response.end(`${JSON.stringify(gatewayPeer(PEER_B, ['/ip4/127.0.0.1/udp/4001/quic-v1']))}\n`);
    });
    const broken = await serve((_request, response) => {
      response.writeHead(500);
      response.end('no');
    });
    client = createRoutingClient({ settings: await settingsWith([json.url, ndjson.url, broken.url]), logger: createLogger('silent') });
    const urls = await collect(client.gatewayProviders(CONTENT));
    expect(urls.sort()).toEqual(['http://127.0.0.1:8080', 'http://[::1]:7070', 'https://gw.example']);
    for (const server of [json, ndjson, broken]) expect(server.requests).toHaveLength(1);
    // The IPIP-484 filter is asked for; the answers are filtered again whatever the endpoint did with it.
    expect(json.requests[0]?.url).toContain('filter-protocols=transport-ipfs-gateway-http');
  });

  it('keeps an endpoint path prefix', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ Providers: [gatewayPeer(PEER_A, ['/ip4/127.0.0.1/tcp/8080/http'])] }));
    });
    client = createRoutingClient({ settings: await settingsWith([`${server.url}/delegated`]), logger: createLogger('silent') });
    expect(await collect(client.gatewayProviders(CONTENT))).toEqual(['http://127.0.0.1:8080']);
    expect(server.requests[0]?.url).toMatch(/^\/delegated\/routing\/v1\/providers\//);
  });

  it('sends nothing offline, and follows a settings change at the next call', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ Providers: [gatewayPeer(PEER_A, ['/ip4/127.0.0.1/tcp/8080/http'])] }));
    });
    const settings = await settingsWith([server.url], true);
    client = createRoutingClient({ settings, logger: createLogger('silent') });
    expect(await collect(client.gatewayProviders(CONTENT))).toEqual([]);
    expect(await client.getRecords(NAME)).toEqual([]);
    expect(await client.putRecord(NAME, new Uint8Array([1]))).toEqual({ accepted: [], failed: [] });
    expect(server.requests).toHaveLength(0);
    // The flag pins offline for this run; a run without it reads the saved value.
    const online = await openNetworkSettings(new SettingsFile(join(dir, 'settings.json')), { fetchFrom: [] });
    await online.update({ routing: [server.url], offline: false });
    const second = createRoutingClient({ settings: online, logger: createLogger('silent') });
    try {
      expect(await collect(second.gatewayProviders(CONTENT))).toEqual(['http://127.0.0.1:8080']);
      await online.update({ offline: true });
      expect(await collect(second.gatewayProviders(CONTENT))).toEqual([]);
      expect(server.requests).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('yields as providers arrive and cancels every request when the consumer stops', async () => {
    const fast = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.write(`${JSON.stringify(gatewayPeer(PEER_A, ['/ip4/127.0.0.1/tcp/8080/http']))}\n`);
      // …and never ends.
    });
    const stalled = await serve(() => undefined);
    client = createRoutingClient({ settings: await settingsWith([fast.url, stalled.url]), logger: createLogger('silent') });
    for await (const url of client.gatewayProviders(CONTENT)) {
      expect(url).toBe('http://127.0.0.1:8080');
      break;
    }
    await expect.poll(() => [...fast.cancelled, ...stalled.cancelled].length, { timeout: 5000 }).toBe(2);
  });

  it('gives up on an endpoint at its timeout', async () => {
    const stalled = await serve(() => undefined);
    client = createRoutingClient({ settings: await settingsWith([stalled.url]), logger: createLogger('silent'), timeoutMs: 200 });
    expect(await collect(client.gatewayProviders(CONTENT))).toEqual([]);
  });
});

describe('routing client: IPNS records', () => {
  it('returns every record the endpoints answer, and nothing for a 404', async () => {
    const record = new Uint8Array([1, 2, 3, 4]);
    const holding = await serve((request, response) => {
      expect(request.url).toBe(`/routing/v1/ipns/${NAME.toString()}`);
      expect(request.headers.accept).toContain('application/vnd.ipfs.ipns-record');
      response.writeHead(200, { 'content-type': 'application/vnd.ipfs.ipns-record' });
      response.end(record);
    });
    const lacking = await serve((_request, response) => {
      response.writeHead(404);
      response.end();
    });
    client = createRoutingClient({ settings: await settingsWith([holding.url, lacking.url]), logger: createLogger('silent') });
    expect(await client.getRecords(NAME)).toEqual([{ endpoint: holding.url, record }]);
  });

  it('PUTs a record to every endpoint and says which accepted it', async () => {
    const received: Buffer[] = [];
    const accepting = await serve((request, response, body) => {
      expect(request.method).toBe('PUT');
      expect(request.headers['content-type']).toBe('application/vnd.ipfs.ipns-record');
      received.push(body);
      response.writeHead(200);
      response.end();
    });
    const refusing = await serve((_request, response) => {
      response.writeHead(400);
      response.end('bad record');
    });
    client = createRoutingClient({ settings: await settingsWith([accepting.url, refusing.url]), logger: createLogger('silent') });
    const answer = await client.putRecord(NAME, new Uint8Array([9, 8, 7]));
    expect(answer.accepted).toEqual([accepting.url]);
    expect(answer.failed).toEqual([{ endpoint: refusing.url, reason: expect.any(String) }]);
    expect(received.map((bytes) => [...bytes])).toEqual([[9, 8, 7]]);
  });
});
