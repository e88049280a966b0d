import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAccessKey } from '../../shared/api-types.js';
import { createKey } from '../helpers/account-api.js';
import { nowTs, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, importName, peerIdOf } from './names-helpers.js';
import { fixtureKeys } from '../helpers/fixture-keys.js';
import { getFollowing, goRequest, jsRequest, pythonRequest, send, stepTwoPath, type SdkRequest, type SdkResponse } from './sdk-shapes.js';
import { dagAdd, EMPTY_DIR_V0, uploadCid } from './uploads-helpers.js';

/**
 * Issue 11 section 2: gw3-sdk-js, gw3-sdk-go and gw3-sdk-python, driven unchanged, got 401s from the
 * request signature in three places. Each call below is made in the exact shape of each SDK (sdk-shapes.ts)
 * against a real server; contract section 2 ("Canonical path") is what lets them verify.
 */

const DIR = 'dir with space';
/** Brackets: JS and Python send them as they are, a re-encoding redirect would not. */
const DRAFTS = '[draft] notes';
const FILE = 'ü.txt';
const TEXT = 'gw3 SDKs, unchanged\n';

type Sdk = 'js' | 'go' | 'python';
const SDKS: Sdk[] = ['js', 'go', 'python'];

/** The request each SDK makes for a signed call on `path` (decoded, as a caller writes it) with `query`. */
function sdkRequest(sdk: Sdk, key: CreatedAccessKey, method: string, path: string, query: Record<string, string> = {}): SdkRequest {
  if (sdk === 'go') return goRequest(key, method, path, query);
  const search = new URLSearchParams(query).toString();
  if (sdk === 'python') return pythonRequest(key, method, search === '' ? path : `${path}?${search}`);
  // The JS SDK writes `ts` into the URL it signs, after the call's own parameters.
  return jsRequest(key, method, `${path}?${search === '' ? '' : `${search}&`}ts=${nowTs()}`);
}

describe("the hosted service's SDKs, their request shapes unchanged", () => {
  let server: TestServer;
  let key: CreatedAccessKey;
  let root: string;
  let rootWithDrafts: string;
  let fileCid: string;
  let fileName: string;
  let dirName: string;
  let rsaPeerId: string;

  beforeAll(async () => {
    server = await startTestServer();
    key = await createKey(server, server.owner, 'sdk-user', ['read', 'write', 'pin']);
    const added = await dagAdd(server, key, EMPTY_DIR_V0, `${encodeURIComponent(DIR)}/${encodeURIComponent(FILE)}`, new TextEncoder().encode(TEXT));
    expect(added.status, added.text).toBe(201);
    root = added.headers.get('ipfs-hash') as string;
    const drafts = await dagAdd(server, key, root, `${encodeURIComponent(DRAFTS)}/a.txt`, new TextEncoder().encode(TEXT));
    expect(drafts.status, drafts.text).toBe(201);
    rootWithDrafts = drafts.headers.get('ipfs-hash') as string;
    fileCid = await uploadCid(server, key, new TextEncoder().encode(TEXT));
    fileName = await createdName(server, key, fileCid);
    dirName = await createdName(server, key, root);
    const rsa = fixtureKeys().find((candidate) => candidate.type === 'RSA') as NonNullable<ReturnType<typeof fixtureKeys>[number]>;
    const imported = await importName(server, server.owner, {
      name: rsa.name,
      value: root,
      secret_key: rsa.protobuf.toString('base64'),
      format: 'libp2p-protobuf-cleartext',
    });
    expect(imported.status, imported.text).toBe(200);
    rsaPeerId = rsa.peerId;
  });

  afterAll(async () => {
    await server.stop();
  });

  describe.each(SDKS)('%s SDK', (sdk) => {
    it('a directory CID fetched without its slash: 301 to …/, followed with the same signature, served', async () => {
      const top = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipfs/${root}`));
      expect(top.redirects).toHaveLength(1);
      expect(top.redirects[0]).toMatch(new RegExp(`^/ipfs/${root}/\\?`));
      expect(top.status, top.text).toBe(200);
      expect(top.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(top.text).toContain(DIR);

      const sub = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipfs/${root}/${DIR}`));
      expect(sub.redirects[0]).toMatch(new RegExp(`^/ipfs/${root}/dir%20with%20space/\\?`));
      expect(sub.status, sub.text).toBe(200);
      expect(sub.text).toContain(FILE);

      // The redirect keeps the path as the client sent it, so its signature still covers the new one.
      const draftsRequest = sdkRequest(sdk, key, 'GET', `/ipfs/${rootWithDrafts}/${DRAFTS}`);
      const drafts = await getFollowing(server.url, draftsRequest);
      expect(drafts.status, drafts.text).toBe(200);
      expect(drafts.text).toContain('a.txt');
      expect(drafts.redirects).toEqual([draftsRequest.path.replace('?', '/?')]);
    });

    it('/ipns/<12D3KooW…> and /ipns/<Qm…> are served in place', async () => {
      const file = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipns/${peerIdOf(fileName)}`));
      expect(file.redirects).toEqual([]);
      expect(file.status, file.text).toBe(200);
      expect(file.text).toBe(TEXT);

      // A directory behind the name: only the trailing-slash redirect, on the peer-ID form signed.
      const dir = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipns/${peerIdOf(dirName)}`));
      expect(dir.redirects).toHaveLength(1);
      expect(dir.redirects[0]).toMatch(new RegExp(`^/ipns/${peerIdOf(dirName)}/\\?`));
      expect(dir.status, dir.text).toBe(200);
      expect(dir.text).toContain(DIR);

      const rsa = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipns/${rsaPeerId}/${DIR}/${FILE}`));
      expect(rsaPeerId).toMatch(/^Qm/);
      expect(rsa.redirects).toEqual([]);
      expect(rsa.status, rsa.text).toBe(200);
      expect(rsa.text).toBe(TEXT);
    });

    it(`a DAG add to "${DIR}/${FILE}" from the empty directory verifies, and gives the same root as any client`, async () => {
      const bytes = new TextEncoder().encode(TEXT);
      const stepOne = await send(server.url, sdkRequest(sdk, key, 'PUT', `/ipfs/${EMPTY_DIR_V0}/${DIR}/${FILE}`, { size: String(bytes.byteLength) }));
      expect(stepOne.status, stepOne.text).toBe(200);
      // Step 2 as each SDK sends it: Go and Python bare; JS through its signing client, signed over that URL.
      const address = stepTwoPath(stepOne);
      const stepTwo = await send(server.url, sdk === 'js' ? jsRequest(key, 'PUT', address) : { method: 'PUT', path: address, headers: {} }, bytes);
      expect(stepTwo.status, stepTwo.text).toBe(201);
      expect(stepTwo.headers['ipfs-hash']).toBe(root);

      const back = await getFollowing(server.url, sdkRequest(sdk, key, 'GET', `/ipfs/${root}/${DIR}/${FILE}`));
      expect(back.status, back.text).toBe(200);
      expect(back.text).toBe(TEXT);
    });
  });

  describe('no form of a signature stands for another request', () => {
    /** The headers of `signed` on a request changed by `changes`. */
    const replay = (signed: SdkRequest, changes: Partial<SdkRequest>): Promise<SdkResponse> => send(server.url, { ...signed, ...changes });
    const swapPath = (request: SdkRequest, from: string, to: string): string => request.path.replace(from, to);

    it('another path: a sibling, the parent, a name with "%2F" for "/", dot segments', async () => {
      for (const sdk of SDKS) {
        const signed = sdkRequest(sdk, key, 'GET', `/ipfs/${root}/${DIR}/${FILE}`);
        // Every SDK puts the name on the wire percent-encoded as UTF-8.
        const encodedFile = '%C3%BC.txt';
        expect(signed.path).toContain(`/dir%20with%20space/${encodedFile}?`);
        for (const path of [
          swapPath(signed, `/${encodedFile}`, ''),
          swapPath(signed, encodedFile, 'other.txt'),
          swapPath(signed, `dir%20with%20space/${encodedFile}`, `dir%20with%20space%2F${encodedFile}`),
          swapPath(signed, `dir%20with%20space/${encodedFile}`, `x/../dir%20with%20space/${encodedFile}`),
          swapPath(signed, `/ipfs/${root}/`, `/ipfs/${fileCid}/`),
        ]) {
          expect(path).not.toBe(signed.path);
          const response = await replay(signed, { path });
          expect(response.status, `${sdk} ${path}`).toBe(401);
        }
      }
    });

    it('another method: a signed GET is not a DAG remove, a signed DAG add step 1 not a GET or a DAG remove', async () => {
      for (const sdk of SDKS) {
        const get = sdkRequest(sdk, key, 'GET', `/ipfs/${root}/${DIR}/${FILE}`);
        expect((await replay(get, { method: 'DELETE' })).status).toBe(401);
        const put = sdkRequest(sdk, key, 'PUT', `/ipfs/${root}/${DIR}/x.txt`, { size: '1' });
        expect((await replay(put, { method: 'GET' })).status).toBe(401);
        expect((await replay(put, { method: 'DELETE' })).status).toBe(401);
        // No route takes a POST there: 404, and nothing is reached whatever the signature says.
        expect((await replay(put, { method: 'POST' })).status).toBe(404);
      }
    });

    it('another query: a changed size, an added format, a dropped parameter', async () => {
      for (const sdk of SDKS) {
        const put = sdkRequest(sdk, key, 'PUT', `/ipfs/${root}/${DIR}/x.txt`, { size: '1' });
        expect((await replay(put, { path: put.path.replace('size=1', 'size=100') })).status).toBe(401);
        expect((await replay(put, { path: put.path.replace('size=1&', '').replace('&size=1', '') })).status).toBe(401);
        const get = sdkRequest(sdk, key, 'GET', `/ipfs/${root}`);
        expect((await replay(get, { path: `${get.path}&format=car` })).status).toBe(401);
        expect((await replay(get, { path: get.path.replace(`/ipfs/${root}?`, `/ipfs/${root}/?format=car&`) })).status).toBe(401);
      }
    });

    it('another name: a peer ID signed for one name does not open another', async () => {
      const signed = sdkRequest('go', key, 'GET', `/ipns/${peerIdOf(fileName)}`);
      expect((await replay(signed, { path: signed.path.replace(peerIdOf(fileName), peerIdOf(dirName)) })).status).toBe(401);
      expect((await replay(signed, { path: signed.path.replace(peerIdOf(fileName), rsaPeerId) })).status).toBe(401);
    });
  });
});
