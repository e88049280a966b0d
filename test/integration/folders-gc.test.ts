import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { withServerStore } from '../helpers/suite-metadata.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { folderOperation, importOk, operateOk, pinAdd, pinnedFile, text } from './folders-helpers.js';
import { EMPTY_DIR_V1, gatewayGet } from './uploads-helpers.js';

/**
 * folder_members (and folder_roots) get a row per operation; a GC cycle forgets the roots whose blocks
 * it deleted, so the tables stay as large as what is still held, and operations behave as before.
 */
describe('folder index after garbage collection (--gc-grace 0)', () => {
  let server: TestServer;
  const files: string[] = [];

  function memberRows(): Promise<number> {
    return withServerStore(server, (store) => store.folders.countFolderMembers());
  }

  async function gc(): Promise<void> {
    const response = await call(server, 'POST', '/api/v0/repo/gc', { key: server.owner });
    expect(response.status, response.text).toBe(200);
  }

  /** `steps` operations moving the pin along a chain from `root`, each with an unpinned side branch. */
  async function chain(root: string, steps: number, offset: number): Promise<{ latest: string; old: string[] }> {
    const old: string[] = [];
    let current = root;
    for (let i = 0; i < steps; i++) {
      const name = `f${offset + i}.txt`;
      const file = files[(offset + i) % files.length] as string;
      old.push(await operateOk(server, server.owner, { cid: current, add: [[`side-${name}`, file]] }));
      const next = await operateOk(server, server.owner, { cid: current, add: [[name, file]], pin_new: true, unpin_old: current !== EMPTY_DIR_V1 });
      if (current !== EMPTY_DIR_V1) old.push(current);
      current = next;
    }
    return { latest: current, old };
  }

  beforeAll(async () => {
    server = await startTestServer({ gcGraceSeconds: 0 });
    for (const word of ['alpha', 'bravo', 'charlie']) files.push(await pinnedFile(server, server.owner, text(`${word}\n`)));
    await pinAdd(server, server.owner, EMPTY_DIR_V1);
    await importOk(server, server.owner, EMPTY_DIR_V1);
  });
  afterAll(async () => {
    await server.stop();
  });

  it('keeps the member rows bounded by the roots still held, over any number of operations', async () => {
    const first = await chain(EMPTY_DIR_V1, 10, 0);
    // One row per root made so far: the empty directory, 10 chain roots, 10 side branches (and one more below).
    expect(await memberRows()).toBe(21);
    // An unpinned old root is still held until GC: operations on it work as before.
    const firstRoot = first.old[2] as string;
    const branch = await operateOk(server, server.owner, { cid: firstRoot, add: [['x.txt', files[1] as string]] });
    expect((await gatewayGet(server, server.owner, `/ipfs/${branch}/f0.txt`)).status).toBe(200);

    await gc();
    // The empty directory (imported, pinned) and the latest chain root (pinned) are what is left.
    expect(await memberRows()).toBe(2);
    expect((await gatewayGet(server, server.owner, `/ipfs/${firstRoot}`, { query: { format: 'raw' } })).status).toBe(404);
    const second = await chain(first.latest, 10, 10);
    expect(await memberRows()).toBe(2 + 20);
    expect(first.old).toHaveLength(19);
    await gc();
    expect(await memberRows()).toBe(2);

    // Behaviour is unchanged: the latest root and the imported one are operable, collected roots are not (404).
    await operateOk(server, server.owner, { cid: second.latest, remove: ['f0.txt'] });
    await operateOk(server, server.owner, { cid: EMPTY_DIR_V1, add: [['again.txt', files[0] as string]] });
    for (const gone of [...first.old, ...second.old, branch]) {
      expectError(await folderOperation(server, server.owner, { cid: gone, remove: ['f1.txt'] }), 404, /has not been imported to the folder/);
    }
  });
});
