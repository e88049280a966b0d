import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { createSealedBox } from '../../../main/base/sealed-box.js';
import { generateNameKey, importNameKey, nameOfKey, openNameKey, sealNameKey, type KeyFormat } from '../../../main/names/keys.js';
import { parseIpnsName, peerIdText } from '../../../main/names/name-parse.js';
import { MASTER_KEY } from './helpers.js';
import { fixture, fixtureJson } from '../../helpers/fixtures.js';

interface KeyFixture {
  id: string;
  key_type: string;
  file?: string;
  expected_peer_id_b58mh?: string;
  derived_peer_id_b58mh?: string;
  derived_ipns_name_base36?: string;
  derived_libp2p_private_key_protobuf_hex?: string;
  private_key_protobuf_hex?: string;
  private_key_protobuf_base64?: string;
  public_key_protobuf_hex?: string;
  message_utf8?: string;
  signature_hex?: string;
}

const keys = fixtureJson<KeyFixture[]>('keys.json');
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');

/** Every (text, format) a fixture key can be given in. */
function encodings(key: KeyFixture): [string, KeyFormat][] {
  const out: [string, KeyFormat][] = [];
  if (key.file !== undefined) out.push([fixture(key.file).toString('utf8'), 'pem-pkcs8-cleartext']);
  const hex = key.derived_libp2p_private_key_protobuf_hex ?? key.private_key_protobuf_hex;
  if (hex !== undefined) out.push([b64(hex), 'libp2p-protobuf-cleartext']);
  if (key.private_key_protobuf_base64 !== undefined) out.push([key.private_key_protobuf_base64, 'libp2p-protobuf-cleartext']);
  return out;
}

describe('key import', () => {
  it('imports every Ed25519 and RSA fixture key, in both formats, to its stated peer ID and name', async () => {
    let imported = 0;
    for (const entry of keys.filter((k) => k.key_type.startsWith('Ed25519') || k.key_type.startsWith('RSA'))) {
      const peerId = entry.expected_peer_id_b58mh ?? entry.derived_peer_id_b58mh;
      for (const [text, format] of encodings(entry)) {
        const key = await importNameKey({ text, format });
        const name = nameOfKey(key);
        expect(peerIdText(parseIpnsName(name, 'name')), `${entry.id} ${format}`).toBe(peerId);
        if (entry.derived_ipns_name_base36 !== undefined) expect(name).toBe(entry.derived_ipns_name_base36);
        imported += 1;
      }
    }
    // kubo ed25519 (pem + protobuf), kubo rsa (pem + protobuf), js-libp2p example, specs ed25519, go-libp2p key
    expect(imported).toBe(7);
  });

  it('derives the stated public key and signs what go-libp2p verifies', async () => {
    const goKey = keys.find((k) => k.id === 'go-libp2p-ed25519-signature-verify');
    const specs = keys.find((k) => k.id === 'libp2p-specs-ed25519');
    if (goKey?.private_key_protobuf_hex === undefined || specs?.private_key_protobuf_hex === undefined) throw new Error('fixture missing');
    const key = await importNameKey({ text: b64(goKey.private_key_protobuf_hex), format: 'libp2p-protobuf-cleartext' });
    const signature = await key.sign(Buffer.from(goKey.message_utf8 ?? '', 'utf8'));
    expect(Buffer.from(signature).toString('hex')).toBe(goKey.signature_hex);
    const specsKey = await importNameKey({ text: b64(specs.private_key_protobuf_hex), format: 'libp2p-protobuf-cleartext' });
    expect(Buffer.from(specsKey.publicKey.raw).toString('hex')).toBe(specs.public_key_protobuf_hex?.slice(8));
  });

  it("accepts the legacy 96-byte Ed25519 form and refuses a public half that is not the seed's", async () => {
    const hex = keys.find((k) => k.id === 'kubo-openssl-ed25519')?.derived_libp2p_private_key_protobuf_hex ?? '';
    const data = Buffer.from(hex, 'hex').subarray(4); // seed ‖ public
    const legacy = Buffer.concat([Buffer.from([0x08, 0x01, 0x12, 96]), data, data.subarray(32)]);
    const key = await importNameKey({ text: legacy.toString('base64'), format: 'libp2p-protobuf-cleartext' });
    expect(nameOfKey(key)).toBe('k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx');

    const forged = Buffer.from(hex, 'hex');
    forged[forged.length - 1] = (forged[forged.length - 1] ?? 0) ^ 0xff;
    await expect(importNameKey({ text: forged.toString('base64'), format: 'libp2p-protobuf-cleartext' })).rejects.toThrow(/public half/);
    const badLegacy = Buffer.concat([Buffer.from([0x08, 0x01, 0x12, 96]), data, Buffer.alloc(32)]);
    await expect(importNameKey({ text: badLegacy.toString('base64'), format: 'libp2p-protobuf-cleartext' })).rejects.toThrow(BadInputError);
  });

  it('refuses secp256k1 and ECDSA keys as unsupported key types (400)', async () => {
    const secpPem = fixture('kubo/test/cli/testdata/openssl_secp256k1.pem').toString('utf8');
    await expect(importNameKey({ text: secpPem, format: 'pem-pkcs8-cleartext' })).rejects.toThrow(/unsupported key type secp256k1/);
    for (const id of ['kubo-openssl-secp256k1', 'libp2p-specs-secp256k1']) {
      const entry = keys.find((k) => k.id === id);
      const hex = entry?.derived_libp2p_private_key_protobuf_hex ?? entry?.private_key_protobuf_hex ?? '';
      await expect(importNameKey({ text: b64(hex), format: 'libp2p-protobuf-cleartext' })).rejects.toThrow(/unsupported key type secp256k1/);
    }
    const p256 = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(importNameKey({ text: p256, format: 'pem-pkcs8-cleartext' })).rejects.toThrow(/unsupported key type ECDSA/);
    const ecdsaProto = Buffer.from([0x08, 0x03, 0x12, 0x02, 0x01, 0x02]);
    await expect(importNameKey({ text: ecdsaProto.toString('base64'), format: 'libp2p-protobuf-cleartext' })).rejects.toThrow(/unsupported key type ECDSA/);
    const x25519 = generateKeyPairSync('x25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(importNameKey({ text: x25519, format: 'pem-pkcs8-cleartext' })).rejects.toThrow(/unsupported key type x25519/);
  });

  it('refuses text that does not parse, naming secret_key or format', async () => {
    const rsaPem = fixture('kubo/test/cli/testdata/openssl_rsa.pem').toString('utf8');
    const cases: [string, KeyFormat, RegExp][] = [
      ['not a key', 'pem-pkcs8-cleartext', /^secret_key /],
      ['-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'pem-pkcs8-cleartext', /^secret_key does not parse/],
      [rsaPem.replace(/[A-Za-z]{10}\n/, 'xxxxxxxxxx\n'), 'pem-pkcs8-cleartext', /^secret_key /],
      ['-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n', 'pem-pkcs8-cleartext', /encrypted/],
      ['!!!not base64!!!', 'libp2p-protobuf-cleartext', /^secret_key is not standard base64/],
      ['AAAA', 'libp2p-protobuf-cleartext', /^secret_key does not parse/],
      [Buffer.from([0x08, 0x01, 0x12, 0x05, 1, 2, 3, 4, 5]).toString('base64'), 'libp2p-protobuf-cleartext', /Ed25519 key of 5 bytes/],
      [Buffer.from([0x08, 0x00, 0x12, 0x03, 1, 2, 3]).toString('base64'), 'libp2p-protobuf-cleartext', /RSA key/],
    ];
    for (const [text, format, message] of cases) {
      const attempt = importNameKey({ text, format });
      await expect(attempt, format).rejects.toThrow(BadInputError);
      await expect(importNameKey({ text, format })).rejects.toThrow(message);
    }
  });

  it('refuses RSA keys below 2048 bits', async () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(importNameKey({ text: small, format: 'pem-pkcs8-cleartext' })).rejects.toThrow(/1024 bits/);
  });
});

describe('sealed keys', () => {
  it('round-trips through the sealed box bound to the name, and cannot be opened under another name', async () => {
    const box = createSealedBox(MASTER_KEY);
    const key = await generateNameKey();
    const name = nameOfKey(key);
    expect(name).toMatch(/^k51/);
    const sealed = sealNameKey(box, name, key);
    expect(sealed.includes(Buffer.from(key.raw.subarray(0, 32)))).toBe(false);
    const opened = openNameKey(box, name, sealed);
    expect(nameOfKey(opened)).toBe(name);
    expect(Buffer.from(opened.raw).equals(Buffer.from(key.raw))).toBe(true);
    expect(() => openNameKey(box, 'k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx', sealed)).toThrow();
    expect(() => openNameKey(createSealedBox(Buffer.alloc(32, 9)), name, sealed)).toThrow();
  });
});
