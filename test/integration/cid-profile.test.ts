import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { MemoryBlockstore } from 'blockstore-core/memory';
import { importer } from 'ipfs-unixfs-importer';
import type { CID } from 'multiformats/cid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/account-api.js';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { bytesOf, KUBO_LEGACY } from './cid-profile-helpers.js';
import { importOk, operateOk, pinAdd, pinnedFile } from './folders-helpers.js';
import { dagAdd, dagRemove, EMPTY_DIR_V0, gatewayGet, uploadCid, uploadFile } from './uploads-helpers.js';

/**
 * `pinfold serve --cid-profile unixfs-v0-2015` (contract section 5): the same bytes get the CID gw3's
 * writable gateway (Kubo's legacy import defaults) gives them, through every HTTP path that makes content.
 */

async function legacyRoot(files: ReadonlyArray<{ path: string; content?: Uint8Array }>, wrap: boolean): Promise<string> {
  let root: CID | undefined;
  const source = files.map((file) => (file.content === undefined ? { path: file.path } : { path: file.path, content: [file.content] }));
  for await (const entry of importer(source, new MemoryBlockstore(), { ...KUBO_LEGACY, wrapWithDirectory: wrap })) root = entry.cid;
  if (root === undefined) throw new Error('importer gave no root');
  return root.toString();
}

const text = (value: string): Uint8Array => new TextEncoder().encode(value);

describe('pinfold serve --cid-profile unixfs-v0-2015', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ cidProfile: 'unixfs-v0-2015' });
  });
  afterAll(async () => {
    await server.stop();
  });

  it("uploads: POST /ipfs/ answers Kubo's CIDv0, small and multi-level files alike", async () => {
    // `echo "hello world" | ipfs add` on Kubo (and on gw3).
    expect(await uploadCid(server, server.owner, text('hello world\n'))).toBe('QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o');
    for (const size of [0, 262_144, 262_145, 175 * 262_144 + 3]) {
      const bytes = bytesOf(size, size);
      const answer = await uploadFile(server, server.owner, bytes, { multipart: size % 2 === 1 });
      expect(answer.status, answer.text).toBe(201);
      const cid = answer.headers.get('ipfs-hash') as string;
      expect(cid).toBe(await legacyRoot([{ path: '', content: bytes }], false));
      expect(cid).toMatch(/^Qm/);
      expect(answer.headers.get('location')).toBe(`/ipfs/${cid}`);
      const back = await gatewayGet(server, server.owner, `/ipfs/${cid}`);
      expect(back.status).toBe(200);
      expect(back.bytes.equals(Buffer.from(bytes))).toBe(true);
    }
  });

  it("DAG add and remove: new directories are CIDv0, Kubo's for the same tree", async () => {
    const mars = await dagAdd(server, server.owner, EMPTY_DIR_V0, 'planets/mars.txt', text('Hello Mars!\n'));
    expect(mars.status, mars.text).toBe(201);
    const both = await dagAdd(server, server.owner, mars.headers.get('ipfs-hash') as string, 'planets/venus.txt', text('Hello Venus!\n'));
    expect(both.status, both.text).toBe(201);
    const root = both.headers.get('ipfs-hash') as string;
    expect(root).toMatch(/^Qm/);
    // `ipfs add -r planets` on Kubo (Kubo's known answer), reached under the new root.
    const planets = await gatewayGet(server, server.owner, `/ipfs/${root}/planets/`, { method: 'HEAD' });
    expect(planets.headers.get('x-ipfs-roots')?.split(',')).toEqual([root, 'QmWSgS32xQEcXMeqd3YPJLrNBLSdsfYCep2U7CFkyrjXwY']);
    expect(root).toBe(
      await legacyRoot(
        [
          { path: 'planets/mars.txt', content: text('Hello Mars!\n') },
          { path: 'planets/venus.txt', content: text('Hello Venus!\n') },
        ],
        true,
      ),
    );

    const removed = await dagRemove(server, server.owner, root, 'planets/venus.txt');
    expect(removed.status, removed.text).toBe(201);
    const after = removed.headers.get('ipfs-hash') as string;
    expect(after).toBe(await legacyRoot([{ path: 'planets/mars.txt', content: text('Hello Mars!\n') }], true));
    expect(removed.headers.get('location')).toBe(`/ipfs/${after}/planets`);
  });

  it('folder operation: the new root is the CIDv0 directory Kubo builds for the entries', async () => {
    const files = { 'a.txt': text('alpha\n'), 'b.bin': bytesOf(300_000, 7) };
    const cids: Record<string, string> = {};
    for (const [name, bytes] of Object.entries(files)) cids[name] = await pinnedFile(server, server.owner, bytes);
    await pinAdd(server, server.owner, EMPTY_DIR_V0);
    await importOk(server, server.owner, EMPTY_DIR_V0);
    const root = await operateOk(server, server.owner, { cid: EMPTY_DIR_V0, add: Object.entries(cids), pin_new: true });
    expect(root).toBe(
      await legacyRoot(
        Object.entries(files).map(([name, content]) => ({ path: name, content })),
        true,
      ),
    );
    expect(root).toMatch(/^Qm/);
    const smaller = await operateOk(server, server.owner, { cid: root, remove: ['a.txt'] });
    expect(smaller).toBe(await legacyRoot([{ path: 'b.bin', content: files['b.bin'] }], true));
  });
  // Sync folders under this profile: sync-cid-profile.test.ts (sync folders are SQLite-only by design).
});

describe('the default profile and the flag', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('without the flag the same bytes keep their CIDv1 raw-leaf CID (unixfs-v1-2025)', async () => {
    expect(await uploadCid(server, server.owner, text('hello world\n'))).toBe('bafkreifjjcie6lypi6ny7amxnfftagclbuxndqonfipmb64f2km2devei4');
  });

  it('a bad profile name on the command line exits 2 with a message naming the flag and the profiles, starting nothing', async () => {
    const dataDir = await makeTempDir();
    try {
      for (const bad of ['unixfs-v2', 'legacy-cid-v0', '']) {
        const result = await runCli(['serve', '--data', dataDir, '--port', '0', `--cid-profile=${bad}`]);
        expect(result.code).toBe(2);
        expect(result.stderr).toContain(`pinfold: --cid-profile must be one of unixfs-v1-2025, unixfs-v0-2015 (got "${bad}")`);
        expect(result.stdout).not.toContain('listening');
      }
      expect(existsSync(path.join(dataDir, 'pinfold.db'))).toBe(false);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
