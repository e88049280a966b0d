import { generateKeyPairSync } from 'node:crypto';
import { generateKeyPair, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/account-api.js';
import { call, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, createName, importName, namesTotal, publishName, removeName } from './names-helpers.js';
import { fixtureKey } from '../helpers/fixture-keys.js';
import { counters, gatewayGet, stats, uploadCid } from './uploads-helpers.js';

function nameOfPublicKeyMultihash(bytes: Uint8Array): string {
  return CID.createV1(0x72, Digest.decode(Uint8Array.from(bytes))).toString(base36);
}

const MALFORMED_NAMES = [
  'not-a-name',
  'k51qzi5uqu5dnotreally',
  '12D3KooWthisisnotapeerid',
  // A CID, but of content, not of a key.
  'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am',
  // `0` is not base58; (a well-formed Qm... is an RSA peer ID, a name, so it is not malformed)
  'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXE0',
  // An Ed25519 peer ID one character short.
  '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2',
  `k51${'a'.repeat(300)}`,
];
const BAD_CIDS = ['notacid', 'Qm123', 'bafy', 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6a!', ' '];

describe('IPNS bad input: 400 (404 for unknown names), and nothing stored', () => {
  let server: TestServer;
  let content: string;
  let existing: string;
  let unknown: string;
  let total: number;
  let usage: ReturnType<typeof counters>;

  beforeAll(async () => {
    server = await startTestServer();
    content = await uploadCid(server, server.owner, new TextEncoder().encode('bad input content\n'));
    existing = await createdName(server, server.owner, content, { alias: 'existing' });
    const stranger = await generateKeyPair('Ed25519');
    unknown = nameOfPublicKeyMultihash(stranger.publicKey.toMultihash().bytes);
  });
  afterAll(async () => {
    await server.stop();
  });

  beforeEach(async () => {
    total = await namesTotal(server, server.owner);
    usage = counters(await stats(server, server.owner));
  });
  afterEach(async () => {
    // Whatever a test sent, the account is as it was, and the existing name still points where it did.
    expect(await namesTotal(server, server.owner)).toBe(total);
    expect(counters(await stats(server, server.owner))).toEqual(usage);
    const view = await call<{ data: { value: string; alias: string } }>(server, 'GET', `/api/v0/ipns/${existing}`, { key: server.owner });
    expect(view.json.data).toMatchObject({ value: content, alias: 'existing' });
  });

  it('malformed names are 400 wherever a name is taken', async () => {
    for (const bad of MALFORMED_NAMES) {
      expectError(await publishName(server, server.owner, bad, content), 400, /key/);
      expectError(await removeName(server, server.owner, bad), 400, /key/);
      expectError(await call(server, 'GET', `/api/v0/ipns/${encodeURIComponent(bad)}`, { key: server.owner }), 400, /name/);
      expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: { name: bad, alias: 'x' } }), 400, /name/);
      const key = fixtureKey('kubo-openssl-ed25519');
      expectError(await importName(server, server.owner, { name: bad, value: content, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }), 400, /name/);
    }
    expectError(await publishName(server, server.owner, '', content), 400, /key/);
    expectError(await call(server, 'POST', '/api/v0/name/publish', { key: server.owner, query: { arg: content } }), 400, /key/);
    expectError(await call(server, 'POST', '/api/v0/name/rm', { key: server.owner }), 400, /key/);
  });

  it('unknown names are 404 for publish, rm, get and alias', async () => {
    expectError(await publishName(server, server.owner, unknown, content), 404, /not found/);
    expectError(await removeName(server, server.owner, unknown), 404, /not found/);
    expectError(await call(server, 'GET', `/api/v0/ipns/${unknown}`, { key: server.owner }), 404, /not found/);
    expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: { name: unknown, alias: 'x' } }), 404, /not found/);
    expect((await gatewayGet(server, server.owner, `/ipns/${unknown}`)).status).toBe(404);
    // A well-formed Qm... multihash is an RSA key's peer ID: a name nobody has here.
    expectError(await publishName(server, server.owner, 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN', content), 404, /not found/);
  });

  it('a CID that is not valid is 400 for create, publish and import', async () => {
    const key = fixtureKey('kubo-openssl-ed25519');
    for (const bad of BAD_CIDS) {
      expectError(await createName(server, server.owner, bad), 400, /arg/);
      expectError(await publishName(server, server.owner, existing, bad), 400, /arg/);
      expectError(await importName(server, server.owner, { name: key.name, value: bad, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }), 400, /value/);
    }
    expectError(await call(server, 'POST', '/api/v0/name/create', { key: server.owner }), 400, /arg/);
    expectError(await importName(server, server.owner, { name: key.name, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }), 400, /value/);
    expectError(await importName(server, server.owner, { name: key.name, value: 42, secret_key: key.pem, format: 'pem-pkcs8-cleartext' }), 400, /value/);
  });

  it('a key text that does not parse is 400', async () => {
    const ed = fixtureKey('kubo-openssl-ed25519');
    const pem = ed.pem as string;
    const pemCases = [
      'not a key at all',
      '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
      pem.replace(/[A-Za-z0-9]{8}\n-----END/, 'AAAAAAAA\n-----END'),
      pem.replace('PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'),
      ed.protobuf.toString('base64'),
    ];
    for (const secret of pemCases) {
      expectError(
        await importName(server, server.owner, { name: ed.name, value: content, secret_key: secret, format: 'pem-pkcs8-cleartext' }),
        400,
        /secret_key/,
      );
    }
    const protobufCases = [
      'not base64 !!!',
      Buffer.from('just some bytes that are no protobuf').toString('base64'),
      // Ed25519 protobuf cut short: 40 bytes of key data instead of 64.
      Buffer.concat([Buffer.from([0x08, 0x01, 0x12, 40]), ed.protobuf.subarray(4, 44)]).toString('base64'),
      // The public half does not belong to the seed.
      Buffer.concat([ed.protobuf.subarray(0, 36), Buffer.alloc(32, 1)]).toString('base64'),
      pem,
    ];
    for (const secret of protobufCases) {
      expectError(
        await importName(server, server.owner, { name: ed.name, value: content, secret_key: secret, format: 'libp2p-protobuf-cleartext' }),
        400,
        /secret_key/,
      );
    }
    expectError(await importName(server, server.owner, { name: ed.name, value: content, format: 'pem-pkcs8-cleartext' }), 400, /secret_key/);
    expectError(await importName(server, server.owner, { name: ed.name, value: content, secret_key: pem, format: 'pem' }), 400, /format/);
    expectError(await importName(server, server.owner, { name: ed.name, value: content, secret_key: pem }), 400, /format/);
    expect((await gatewayGet(server, server.owner, `/ipns/${ed.name}`)).status).toBe(404);
  });

  it('a key of an unsupported type (secp256k1, ECDSA P-256) is 400 naming the type', async () => {
    const secp = await generateKeyPair('secp256k1');
    const secpName = nameOfPublicKeyMultihash(secp.publicKey.toMultihash().bytes);
    const protobuf = Buffer.from(privateKeyToProtobuf(secp)).toString('base64');
    expectError(
      await importName(server, server.owner, { name: secpName, value: content, secret_key: protobuf, format: 'libp2p-protobuf-cleartext' }),
      400,
      /unsupported key type secp256k1/,
    );
    const fixtureSecp = Buffer.from('0802122053DADF1D5A164D6B4ACDB15E24AA4C5B1D3461BDBD42ABEDB0A4404D56CED8FB', 'hex').toString('base64');
    expectError(
      await importName(server, server.owner, {
        name: 'kzwfwjn5ji4put13uvtwtc7azzwk42cq2o8ctfnxa6q8n90e72o3pjqbrp3lpcp',
        value: content,
        secret_key: fixtureSecp,
        format: 'libp2p-protobuf-cleartext',
      }),
      400,
      /unsupported key type secp256k1/,
    );
    const secpPem = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expectError(
      await importName(server, server.owner, { name: secpName, value: content, secret_key: secpPem, format: 'pem-pkcs8-cleartext' }),
      400,
      /unsupported key type secp256k1/,
    );
    const p256Pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expectError(
      await importName(server, server.owner, { name: secpName, value: content, secret_key: p256Pem, format: 'pem-pkcs8-cleartext' }),
      400,
      /unsupported key type ECDSA/,
    );
    expect((await gatewayGet(server, server.owner, `/ipns/${secpName}`)).status).toBe(404);
  });

  it('a seq that is negative or not an integer is 400', async () => {
    const ed = fixtureKey('kubo-openssl-ed25519');
    for (const seq of [-1, 1.5, '5', 'one', true, [], {}, 2 ** 53, Number.MAX_SAFE_INTEGER]) {
      expectError(
        await importName(server, server.owner, { name: ed.name, value: content, secret_key: ed.pem, format: 'pem-pkcs8-cleartext', seq }),
        400,
        /seq/,
      );
    }
    // 1e400 parses to Infinity; a JSON number too large for an integer is refused too.
    expectError(
      await call(server, 'POST', '/api/v0/name/import', {
        key: server.owner,
        body: `{"name":"${ed.name}","value":"${content}","secret_key":${JSON.stringify(ed.pem)},"format":"pem-pkcs8-cleartext","seq":1e400}`,
      }),
      400,
      /seq/,
    );
    expect((await gatewayGet(server, server.owner, `/ipns/${ed.name}`)).status).toBe(404);
  });

  it('bodies that are not a JSON object, and fields of the wrong type, are 400', async () => {
    for (const body of ['not json', '[1,2]', '"text"', '{"name": 5}']) {
      expect((await call(server, 'POST', '/api/v0/name/import', { key: server.owner, body })).status).toBe(400);
    }
    expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: 'nope' }), 400, /JSON|body/i);
    expectError(await call(server, 'POST', '/api/v0/ipns/alias', { key: server.owner, body: { name: existing, alias: 7 } }), 400, /alias/);
    expectError(await createName(server, server.owner, content, { alias: 'a'.repeat(257) }), 400, /alias/);
  });
});
