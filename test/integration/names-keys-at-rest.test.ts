import { createPrivateKey } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { base36 } from 'multiformats/bases/base36';
import { CID } from 'multiformats/cid';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/test-server.js';
import { createdName, decodeValidRecord, fetchRecord, importName, publishName } from './names-helpers.js';
import { fixtureKeys } from '../helpers/fixture-keys.js';
import { uploadCid } from './uploads-helpers.js';
import { filesUnder } from '../helpers/files-under.js';

interface Needle {
  what: string;
  bytes: Buffer;
}

/** Every form a private key could be written in, as bytes to look for. */
function secretForms(id: string, protobuf: Buffer, pem: string | undefined): Needle[] {
  const needles: Needle[] = [];
  const add = (what: string, bytes: Buffer) => needles.push({ what: `${id} ${what}`, bytes });
  add('protobuf', protobuf);
  add('protobuf base64', Buffer.from(protobuf.toString('base64')));
  add('protobuf hex', Buffer.from(protobuf.toString('hex')));
  // Protobuf header: type (2 bytes), then field 2's tag and varint length (1 byte under 128, else 2).
  const data = protobuf.subarray(protobuf[3] !== undefined && protobuf[3] >= 0x80 ? 5 : 4);
  add('key data', data);
  if (protobuf[1] === 1) {
    add('Ed25519 seed', data.subarray(0, 32));
    add('Ed25519 seed hex', Buffer.from(data.subarray(0, 32).toString('hex')));
  }
  if (pem !== undefined) {
    add('PEM text', Buffer.from(pem.trim()));
    const body = pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    add('PEM base64 body (first line)', Buffer.from(body.slice(0, 64)));
    add('PKCS#8 DER', Buffer.from(body, 'base64'));
    const key = createPrivateKey({ key: pem, format: 'pem' });
    if (key.asymmetricKeyType === 'rsa') {
      const jwk = key.export({ format: 'jwk' });
      for (const part of ['d', 'p', 'q'] as const) add(`RSA ${part}`, Buffer.from(jwk[part] as string, 'base64url'));
    }
  }
  return needles;
}

async function expectNoSecrets(dataDir: string, needles: Needle[]): Promise<number> {
  const files = await filesUnder(dataDir);
  let bytesRead = 0;
  for (const file of files) {
    const content = await readFile(file);
    bytesRead += content.byteLength;
    for (const needle of needles) {
      expect(content.indexOf(needle.bytes), `${needle.what} found in ${file}`).toBe(-1);
    }
  }
  return bytesRead;
}

describe('private keys of names are encrypted at rest (contract section 7)', () => {
  let dataDir: string | undefined;
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
    if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
  });

  it('after creates and imports no file of the data folder holds key bytes in any form; the sealed keys still sign after a restart', async () => {
    dataDir = await makeTempDir('pinfold-names-at-rest-');
    server = await startTestServer({ dataDir });
    const content = await uploadCid(server, server.owner, new TextEncoder().encode('keys at rest\n'));
    const later = await uploadCid(server, server.owner, new TextEncoder().encode('published after restart\n'));
    const created: string[] = [];
    for (let i = 0; i < 3; i++) created.push(await createdName(server, server.owner, content));

    const keys = fixtureKeys();
    const needles: Needle[] = [];
    for (const key of keys) {
      const format = key.pem !== undefined ? 'pem-pkcs8-cleartext' : 'libp2p-protobuf-cleartext';
      const secret = key.pem ?? key.protobuf.toString('base64');
      const response = await importName(server, server.owner, { name: key.name, value: content, secret_key: secret, format });
      expect(response.status, response.text).toBe(200);
      needles.push(...secretForms(key.id, key.protobuf, key.pem));
    }
    expect(needles.length).toBeGreaterThan(20);
    // Created keys are never seen outside; a plaintext libp2p form (seed ‖ public key) would show the public half.
    for (const name of created) {
      const publicKey = CID.parse(name, base36).multihash.digest.subarray(-32);
      needles.push({ what: `created ${name} public half`, bytes: Buffer.from(publicKey) });
    }

    // While the server runs (database, WAL, blocks) and after it stops (checkpointed).
    expect(await expectNoSecrets(dataDir, needles)).toBeGreaterThan(0);
    await server.stop();
    expect(await expectNoSecrets(dataDir, needles)).toBeGreaterThan(0);

    server = await startTestServer({ dataDir });
    for (const name of [...created, ...keys.map((key) => key.name)]) {
      const published = await publishName(server, server.owner, name, later);
      expect(published.status, published.text).toBe(200);
      const record = await decodeValidRecord(name, await fetchRecord(server, server.owner, name));
      expect(record.sequence).toBe(1n);
    }
    await expectNoSecrets(dataDir, needles);
  });
});
