import { generateKeyPair } from '@libp2p/crypto/keys';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, decodeValidRecord, ipfsValue, publishName } from './names-helpers.js';
import { asCall, dagAdd, EMPTY_DIR_V1, gatewayGet, uploadCid } from './uploads-helpers.js';

const IPNS_CACHE = 'public, max-age=300';

describe('gateway /ipns/{name}[/{path}] (contract sections 5 and 7)', () => {
  let server: TestServer;
  let root: string;
  let file: string;
  let name: string;
  const readme = 'read me through a mutable name\n';

  beforeAll(async () => {
    server = await startTestServer();
    file = await uploadCid(server, server.owner, new TextEncoder().encode(readme));
    const added = await dagAdd(server, server.owner, EMPTY_DIR_V1, 'docs/readme.txt', new TextEncoder().encode(readme));
    expect(added.status, added.text).toBe(201);
    root = added.headers.get('ipfs-hash') as string;
    name = await createdName(server, server.owner, root);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('GET serves the content under the name with Cache-Control from the record TTL, not immutable', async () => {
    const response = await gatewayGet(server, server.owner, `/ipns/${name}/docs/readme.txt`);
    expect(response.status).toBe(200);
    expect(response.bytes.toString('utf8')).toBe(readme);
    expect(response.headers.get('cache-control')).toBe(IPNS_CACHE);
    expect(response.headers.get('etag')).toBe(`"${file}"`);
    expect(response.headers.get('x-ipfs-path')).toBe(`/ipns/${name}/docs/readme.txt`);
    expect(response.headers.get('x-ipfs-roots')?.split(',')[0]).toBe(root);

    // The same content by CID is immutable: the difference is the name's, not the content's.
    const byCid = await gatewayGet(server, server.owner, `/ipfs/${root}/docs/readme.txt`);
    expect(byCid.bytes.toString('utf8')).toBe(readme);
    expect(byCid.headers.get('cache-control')).toMatch(/immutable/);
  });

  it('HEAD answers the same headers and no body', async () => {
    const get = await gatewayGet(server, server.owner, `/ipns/${name}/docs/readme.txt`);
    const head = await gatewayGet(server, server.owner, `/ipns/${name}/docs/readme.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    for (const header of ['cache-control', 'etag', 'content-type', 'content-length', 'x-ipfs-path']) {
      expect(head.headers.get(header), header).toBe(get.headers.get(header));
    }
    expect(head.headers.get('cache-control')).toBe(IPNS_CACHE);
  });

  it('the root directory listing and format=raw also carry the TTL cache header', async () => {
    const listing = await gatewayGet(server, server.owner, `/ipns/${name}/`);
    expect(listing.status).toBe(200);
    expect(listing.bytes.toString('utf8')).toContain('docs');
    expect(listing.headers.get('cache-control')).toBe(IPNS_CACHE);
    const raw = await gatewayGet(server, server.owner, `/ipns/${name}/docs/readme.txt`, { query: { format: 'raw' } });
    expect(raw.status).toBe(200);
    expect(raw.bytes.toString('utf8')).toBe(readme);
    expect(raw.headers.get('cache-control')).toBe(IPNS_CACHE);
    expect(raw.headers.get('cache-control')).not.toMatch(/immutable/);
  });

  it('If-None-Match with the Etag answers 304', async () => {
    const response = await gatewayGet(server, server.owner, `/ipns/${name}/docs/readme.txt`, { headers: { 'if-none-match': `"${file}"` } });
    expect(response.status).toBe(304);
  });

  it('format=ipns-record returns the signed record bytes, which change with a publish', async () => {
    const response = await gatewayGet(server, server.owner, `/ipns/${name}`, { query: { format: 'ipns-record' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.ipfs.ipns-record');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(response.headers.get('cache-control')).toBe(IPNS_CACHE);
    const record = await decodeValidRecord(name, new Uint8Array(response.bytes));
    expect(record.value).toBe(ipfsValue(root));
    expect(record.sequence).toBe(0n);

    const accept = await gatewayGet(server, server.owner, `/ipns/${name}`, { headers: { accept: 'application/vnd.ipfs.ipns-record' } });
    expect(Buffer.compare(accept.bytes, response.bytes)).toBe(0);
    const head = await gatewayGet(server, server.owner, `/ipns/${name}`, { method: 'HEAD', query: { format: 'ipns-record' } });
    expect(head.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    expect(head.headers.get('content-type')).toBe('application/vnd.ipfs.ipns-record');

    const other = await uploadCid(server, server.owner, new TextEncoder().encode('another version\n'));
    const moving = await createdName(server, server.owner, root);
    expect((await publishName(server, server.owner, moving, other)).status).toBe(200);
    const after = await gatewayGet(server, server.owner, `/ipns/${moving}`, { query: { format: 'ipns-record' } });
    const next = await decodeValidRecord(moving, new Uint8Array(after.bytes));
    expect(next.sequence).toBe(1n);
    expect(next.value).toBe(ipfsValue(other));
    expect((await gatewayGet(server, server.owner, `/ipns/${moving}`)).bytes.toString('utf8')).toBe('another version\n');
  });

  it('an unknown name is 404, a path missing under a name 404, text that is no name 400', async () => {
    const stranger = await generateKeyPair('Ed25519');
    const unknown = CID.createV1(0x72, Digest.decode(stranger.publicKey.toMultihash().bytes)).toString(base36);
    expectError(asCall(await gatewayGet(server, server.owner, `/ipns/${unknown}`)), 404, /not found/);
    expectError(asCall(await gatewayGet(server, server.owner, `/ipns/${unknown}`, { query: { format: 'ipns-record' } })), 404, /not found/);
    const missing = await gatewayGet(server, server.owner, `/ipns/${name}/docs/nope.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
    expectError(asCall(await gatewayGet(server, server.owner, '/ipns/not_a_name')), 400, /name/);
  });

  it('a name bound to another name (its libp2p-key CID) resolves through it; a loop of names is 508 with the envelope, not a hang', async () => {
    const outer = await createdName(server, server.owner, name);
    const response = await gatewayGet(server, server.owner, `/ipns/${outer}/docs/readme.txt`);
    expect(response.status).toBe(200);
    expect(response.bytes.toString('utf8')).toBe(readme);
    expect(response.headers.get('cache-control')).toBe(IPNS_CACHE);
    const record = await decodeValidRecord(
      outer,
      new Uint8Array((await gatewayGet(server, server.owner, `/ipns/${outer}`, { query: { format: 'ipns-record' } })).bytes),
    );
    expect(record.value).toBe(`/ipns/${name}`);

    const loopA = await createdName(server, server.owner, root);
    const loopB = await createdName(server, server.owner, loopA);
    expect((await publishName(server, server.owner, loopA, loopB)).status).toBe(200);
    for (const [start, next] of [
      [loopA, loopB],
      [loopB, loopA],
    ]) {
      expectError(
        asCall(await gatewayGet(server, server.owner, `/ipns/${start}/docs/readme.txt`)),
        508,
        new RegExp(`could not resolve ${start}: ${start} -> ${next} -> ${start} is a DNSLink or IPNS loop`),
      );
    }
    const self = await createdName(server, server.owner, root);
    expect((await publishName(server, server.owner, self, self)).status).toBe(200);
    expectError(asCall(await gatewayGet(server, server.owner, `/ipns/${self}`)), 508, new RegExp(`${self} -> ${self} is a DNSLink or IPNS loop`));
    const head = await gatewayGet(server, server.owner, `/ipns/${self}`, { method: 'HEAD' });
    expect(head.status).toBe(508);
  });

  it('reading a name needs credentials (read permission) unless the gateway is public', async () => {
    const response = await fetch(`${server.url}/ipns/${name}/docs/readme.txt?ts=${Math.floor(Date.now() / 1000)}`);
    expect(response.status).toBe(401);
  });
});
