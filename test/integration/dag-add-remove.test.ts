import { MemoryBlockstore } from 'blockstore-core/memory';
import * as dagCbor from '@ipld/dag-cbor';
import { importer } from 'ipfs-unixfs-importer';
import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';
import { expectError, rawRequest } from '../helpers/account-api.js';
import {
  carImport,
  carV1,
  CONTRACT_IMPORTER_OPTIONS,
  counters,
  dagAdd,
  dagRemove,
  EMPTY_DIR_V0,
  EMPTY_DIR_V1,
  expectNotServed,
  gatewayGet,
  MiB,
  randomData,
  referenceCid,
  stats,
  step1,
  uploadCid,
} from './uploads-helpers.js';

interface DagPbView {
  Data?: { '/': { bytes: string } };
  Links: Array<{ Hash: { '/': string }; Name: string; Tsize: number }>;
}

/** The root ipfs-unixfs-importer builds for the same files (contract profile, wrapped in a directory). */
async function referenceTree(files: Record<string, Uint8Array>): Promise<string> {
  let root: CID | undefined;
  const source = Object.entries(files).map(([path, content]) => ({ path, content: [content] }));
  for await (const entry of importer(source, new MemoryBlockstore(), { ...CONTRACT_IMPORTER_OPTIONS, wrapWithDirectory: true })) root = entry.cid;
  return (root as CID).toString();
}

describe('DAG add and remove: PUT|DELETE /ipfs/{cid}/{path} (contract sections 4, 5)', () => {
  let server: TestServer;
  const text = (s: string) => new TextEncoder().encode(s);
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function dagGet(cid: string): Promise<DagPbView> {
    const response = await call<DagPbView>(server, 'GET', '/api/v0/dag/get', { key: server.owner, query: { arg: cid } });
    expect(response.status).toBe(200);
    return response.json;
  }

  async function expectFile(root: string, path: string, bytes: Uint8Array): Promise<void> {
    const response = await gatewayGet(server, server.owner, `/ipfs/${root}/${path}`);
    expect(response.status, path).toBe(200);
    expect(Buffer.compare(response.bytes, Buffer.from(bytes)), path).toBe(0);
  }

  it.each([EMPTY_DIR_V0, EMPTY_DIR_V1])('PUT on the empty directory %s creates a/b/c.txt with its intermediates', async (empty) => {
    const content = text('hello from c\n');
    const before = await stats(server, server.owner);
    const response = await dagAdd(server, server.owner, empty, 'a/b/c.txt', content);
    expect(response.status).toBe(201);
    expect(response.text).toBe('');
    const root = response.headers.get('ipfs-hash') as string;
    expect(root).toBe(await referenceTree({ 'a/b/c.txt': content }));
    expect(response.headers.get('location')).toBe(`/ipfs/${root}/a/b/c.txt`);
    expect((await stats(server, server.owner)).ingress - before.ingress).toBe(content.byteLength);

    await expectFile(root, 'a/b/c.txt', content);
    const top = await dagGet(root);
    expect(top.Links.map((link) => link.Name)).toEqual(['a']);
    const a = await dagGet(top.Links[0]?.Hash['/'] as string);
    expect(a.Links.map((link) => link.Name)).toEqual(['b']);
    const b = await dagGet(a.Links[0]?.Hash['/'] as string);
    expect(b.Links).toEqual([{ Hash: { '/': await referenceCid(content) }, Name: 'c.txt', Tsize: content.byteLength }]);
  });

  it('adds beside existing entries, replaces an existing one, and removes, each giving the importer’s tree', async () => {
    const c1 = text('first c\n');
    const d = randomData(MiB + 3);
    const c2 = text('second c, longer\n');
    let root = (await dagAdd(server, server.owner, EMPTY_DIR_V1, 'a/b/c.txt', c1)).headers.get('ipfs-hash') as string;

    const added = await dagAdd(server, server.owner, root, 'a/b/d.bin', d);
    expect(added.status).toBe(201);
    root = added.headers.get('ipfs-hash') as string;
    expect(root).toBe(await referenceTree({ 'a/b/c.txt': c1, 'a/b/d.bin': d }));
    await expectFile(root, 'a/b/c.txt', c1);
    await expectFile(root, 'a/b/d.bin', d);

    const replaced = await dagAdd(server, server.owner, root, 'a/b/c.txt', c2);
    expect(replaced.status).toBe(201);
    const replacedRoot = replaced.headers.get('ipfs-hash') as string;
    expect(replacedRoot).toBe(await referenceTree({ 'a/b/c.txt': c2, 'a/b/d.bin': d }));
    await expectFile(replacedRoot, 'a/b/c.txt', c2);
    // The old root is immutable and still served as it was.
    await expectFile(root, 'a/b/c.txt', c1);

    const removed = await dagRemove(server, server.owner, replacedRoot, 'a/b/c.txt');
    expect(removed.status).toBe(201);
    expect(removed.text).toBe('');
    const afterRemove = removed.headers.get('ipfs-hash') as string;
    expect(removed.headers.get('location')).toBe(`/ipfs/${afterRemove}/a/b`);
    expect(afterRemove).toBe(await referenceTree({ 'a/b/d.bin': d }));
    expect((await gatewayGet(server, server.owner, `/ipfs/${afterRemove}/a/b/c.txt`)).status).toBe(404);
    await expectFile(afterRemove, 'a/b/d.bin', d);

    const top = await dagRemove(server, server.owner, afterRemove, 'a');
    expect(top.status).toBe(201);
    const emptied = top.headers.get('ipfs-hash') as string;
    expect(top.headers.get('location')).toBe(`/ipfs/${emptied}`);
    expect(emptied).toBe(EMPTY_DIR_V1);
  });

  it('UTF-8 and percent-encoded names round-trip; location is percent-encoded', async () => {
    const content = text('źł\n');
    const name = 'file źł 100%.txt';
    const response = await dagAdd(server, server.owner, EMPTY_DIR_V1, `d%C4%85/${encodeURIComponent(name)}`, content);
    expect(response.status).toBe(201);
    const root = response.headers.get('ipfs-hash') as string;
    expect(response.headers.get('location')).toBe(`/ipfs/${root}/d%C4%85/${encodeURIComponent(name)}`);
    expect(root).toBe(await referenceTree({ [`dą/${name}`]: content }));
    await expectFile(root, `d%C4%85/${encodeURIComponent(name)}`, content);
  });

  describe('bad input: the right status, nothing stored, no counter moved', () => {
    let fileRoot: string;
    let rawRoot: string;
    let cborRoot: string;
    let dirRoot: string;
    const payload = text('never stored\n');

    beforeAll(async () => {
      fileRoot = await uploadCid(server, server.owner, randomData(MiB + 1));
      rawRoot = await uploadCid(server, server.owner, randomData(10));
      const cborBytes = dagCbor.encode({ hello: 'world' });
      const cbor = CID.createV1(dagCbor.code, await sha256.digest(cborBytes));
      const imported = await carImport(server, server.owner, await carV1([cbor], [{ cid: cbor, bytes: cborBytes }]), { pinRoots: false });
      expect(imported.status).toBe(200);
      cborRoot = cbor.toString();
      dirRoot = (await dagAdd(server, server.owner, EMPTY_DIR_V1, 'x/file.txt', text('x\n'))).headers.get('ipfs-hash') as string;
    });

    async function expectStep1Refused(method: string, path: string, status: number, msg: RegExp): Promise<void> {
      const before = await stats(server, server.owner);
      const query: Record<string, number> = method === 'PUT' ? { size: payload.byteLength } : {};
      expectError(await step1(server, server.owner, method, path, query), status, msg);
      expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    }

    it('DAG add on a file root, a raw root or a dag-cbor root is 400', async () => {
      for (const root of [fileRoot, rawRoot, cborRoot]) await expectStep1Refused('PUT', `/ipfs/${root}/new.txt`, 400, /not a UnixFS directory/);
      await expectStep1Refused('DELETE', `/ipfs/${fileRoot}/x`, 400, /not a UnixFS directory/);
      await expectNotServed(server, server.owner, await referenceCid(payload));
    });

    it('no path is 400', async () => {
      await expectStep1Refused('PUT', `/ipfs/${dirRoot}`, 400, /path/);
      await expectStep1Refused('PUT', `/ipfs/${dirRoot}/`, 400, /path/);
      await expectStep1Refused('DELETE', `/ipfs/${dirRoot}`, 400, /path/);
    });

    it('unknown root CID is 404; malformed CID is 400', async () => {
      const unknown = 'bafybeifbuagakq4zbipcnr7ldgoshkx4sx5mng4kh2pieax4s7p2ccbyme';
      await expectStep1Refused('PUT', `/ipfs/${unknown}/a.txt`, 404, new RegExp(unknown));
      await expectStep1Refused('DELETE', `/ipfs/${unknown}/a.txt`, 404, new RegExp(unknown));
      await expectStep1Refused('PUT', '/ipfs/bafynotacid/a.txt', 400, /cid/);
      await expectStep1Refused('DELETE', '/ipfs/QmNotACid0/a.txt', 400, /cid/);
    });

    it('`..`, `.`, empty segments and NUL are 400 (sent as raw bytes: fetch would normalise dot segments)', async () => {
      const headers = { 'X-Access-Key': server.owner.access_key, 'X-Access-Secret': server.owner.access_secret };
      const paths = ['x/../x/y.txt', 'x/%2E%2E/y.txt', './y.txt', 'x//y.txt', 'x/y%00.txt', '%00', 'x/%2e/y.txt'];
      const before = await stats(server, server.owner);
      for (const path of paths) {
        for (const method of ['PUT', 'DELETE']) {
          const response = await rawRequest(server.url, method, `/ipfs/${dirRoot}/${path}?ts=${nowTs()}&size=${payload.byteLength}`, headers);
          expect(response.status, `${method} ${path}`).toBe(400);
          expect(JSON.parse(response.body)).toMatchObject({ code: 400, msg: expect.stringMatching(/path/) });
        }
      }
      expect(counters(await stats(server, server.owner))).toEqual(counters(before));
    });

    it('a path through a file is 400 at step 1 and stores nothing', async () => {
      await expectStep1Refused('PUT', `/ipfs/${dirRoot}/x/file.txt/deeper.txt`, 400, /x\/file\.txt/);
    });

    it('remove of a missing path (or one through a file) is 404 and changes nothing', async () => {
      await expectStep1Refused('DELETE', `/ipfs/${dirRoot}/x/missing.txt`, 404, /missing\.txt/);
      await expectStep1Refused('DELETE', `/ipfs/${dirRoot}/nope/file.txt`, 404, /nope/);
      await expectStep1Refused('DELETE', `/ipfs/${dirRoot}/x/file.txt/deeper`, 404, /deeper/);
      await expectFile(dirRoot, 'x/file.txt', text('x\n'));
    });

    it('DAG add and remove need write permission', async () => {
      const reader = (
        await call<{ data: { access_key: string; access_secret: string } }>(server, 'POST', '/api/v0/key', {
          key: server.owner,
          body: { name: 'dag-reader', permissions: ['read'] },
        })
      ).json.data;
      expectError(await step1(server, reader, 'PUT', `/ipfs/${dirRoot}/y.txt`, { size: 1 }), 403, /write/);
      expectError(await step1(server, reader, 'DELETE', `/ipfs/${dirRoot}/x/file.txt`), 403, /write/);
    });
  });
});
