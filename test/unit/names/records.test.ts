import { generateKeyPair } from '@libp2p/crypto/keys';
import { createIPNSRecordWithExpiration, marshalIPNSRecord, unmarshalIPNSRecord } from 'ipns';
import { ipnsValidator } from 'ipns/validator';
import { CID } from 'multiformats/cid';
import { describe, expect, it } from 'vitest';
import { importNameKey, nameOfKey, type NameKey } from '../../../main/names/keys.js';
import { parseIpnsName } from '../../../main/names/name-parse.js';
import { InvalidRecordError, parseRfc3339Ms, RECORD_LIFETIME_MS, signRecord, validateRecord, type RecordFault } from '../../../main/names/records.js';
import { fixture, fixtureJson } from '../../helpers/fixtures.js';

interface Vector {
  file: string;
  bytes: number;
  ipns_name_base36: string;
  ipns_name_b58mh: string;
  value: string;
  sequence: string;
  validity: string;
  ttl_ns: string;
  expected_validation: string;
}

type IpnsKey = Parameters<typeof createIPNSRecordWithExpiration>[0];

const vectors = fixtureJson<Vector[]>('ipns-vectors.json');
const NOW = Date.UTC(2026, 0, 1);
const HELLO = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');

async function faultOf(promise: Promise<unknown>): Promise<RecordFault | 'none'> {
  try {
    await promise;
    return 'none';
  } catch (error) {
    if (error instanceof InvalidRecordError) return error.reason;
    throw error;
  }
}

describe('fixture IPNS record vectors', () => {
  it('accepts every VALID vector with its stated value, sequence, validity and TTL', async () => {
    const valid = vectors.filter((v) => v.expected_validation.startsWith('VALID'));
    expect(valid.length).toBe(7);
    for (const vector of valid) {
      const bytes = fixture(vector.file);
      expect(bytes.length).toBe(vector.bytes);
      // Both name forms validate: the record is bound to the key, not to its spelling.
      for (const name of [vector.ipns_name_base36, vector.ipns_name_b58mh]) {
        const record = await validateRecord(parseIpnsName(name, 'name'), bytes, NOW);
        expect(record.name).toBe(vector.ipns_name_base36);
        expect(record.value).toBe(vector.value);
        expect(record.target.namespace).toBe('ipfs');
        expect(record.sequence).toBe(BigInt(vector.sequence));
        expect(record.ttlSeconds).toBe(Number(BigInt(vector.ttl_ns) / 1_000_000_000n));
        expect(record.validUntilMs).toBe(Date.parse(vector.validity.replace(/(\.\d{3})\d*Z$/, '$1Z')));
      }
    }
  });

  it('rejects the V1-only record (no signatureV2) and the broken V1 value, each for its own reason', async () => {
    const byName = (suffix: string) => {
      const vector = vectors.find((v) => v.file.endsWith(suffix));
      if (vector === undefined) throw new Error(`no vector ${suffix}`);
      return vector;
    };
    const v1 = byName('_v1.ipns-record');
    expect(await faultOf(validateRecord(parseIpnsName(v1.ipns_name_base36, 'n'), fixture(v1.file), NOW))).toBe('v1-only');
    const broken = byName('_v1-v2-broken-v1-value.ipns-record');
    const error = await validateRecord(parseIpnsName(broken.ipns_name_base36, 'n'), fixture(broken.file), NOW).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRecordError);
    expect((error as InvalidRecordError).reason).toBe('v1-v2-mismatch');
    expect((error as InvalidRecordError).message).toContain('Field "value" did not match between protobuf and CBOR');
    // A record that exists but is broken is a 5xx for the gateway, not a 4xx.
    expect((error as InvalidRecordError).code).toBe('internal');
  });

  it('rejects a valid record once its EOL has passed', async () => {
    const vector = vectors.find((v) => v.file.endsWith('_v1-v2.ipns-record'));
    if (vector === undefined) throw new Error('vector missing');
    const name = parseIpnsName(vector.ipns_name_base36, 'n');
    const eol = Date.parse('2123-08-14T12:17:03.694Z');
    expect(await faultOf(validateRecord(name, fixture(vector.file), eol - 1))).toBe('none');
    expect(await faultOf(validateRecord(name, fixture(vector.file), eol + 1))).toBe('expired');
  });

  it('rejects a record under a name that is not its key', async () => {
    const [a, b] = vectors.filter((v) => v.expected_validation.startsWith('VALID') && v.ipns_name_base36.startsWith('k51'));
    if (a === undefined || b === undefined) throw new Error('vectors missing');
    // Ed25519 without an embedded key: the name's key does not verify the signature.
    expect(await faultOf(validateRecord(parseIpnsName(b.ipns_name_base36, 'n'), fixture(a.file), NOW))).toBe('signature');
    // RSA record (key embedded) under an Ed25519 name, and an Ed25519 record under the RSA name.
    const rsa = vectors.find((v) => v.ipns_name_b58mh.startsWith('Qm'));
    if (rsa === undefined) throw new Error('rsa vector missing');
    expect(await faultOf(validateRecord(parseIpnsName(a.ipns_name_base36, 'n'), fixture(rsa.file), NOW))).toBe('name-mismatch');
    expect(await faultOf(validateRecord(parseIpnsName(rsa.ipns_name_base36, 'n'), fixture(a.file), NOW))).toBe('missing-public-key');
  });
});

describe('records we sign', () => {
  async function ownKey(): Promise<NameKey> {
    return generateKeyPair('Ed25519');
  }

  it('are V1+V2 records for /ipfs/<cidv1>, valid one year, TTL 5 minutes, and pass the ipns validator', async () => {
    const key = await ownKey();
    const name = parseIpnsName(nameOfKey(key), 'n');
    const v0 = CID.parse('QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN');
    const bytes = await signRecord(key, v0, 7, NOW);
    const raw = unmarshalIPNSRecord(bytes);
    expect('signatureV1' in raw && raw.signatureV1.length).toBe(64);
    expect(raw.signatureV2.length).toBe(64);
    expect(raw.value).toBe(`/ipfs/${v0.toV1().toString()}`);
    expect(raw.sequence).toBe(7n);
    expect(raw.ttl).toBe(300_000_000_000n);
    expect(parseRfc3339Ms(raw.validity)).toBe(NOW + RECORD_LIFETIME_MS);
    await ipnsValidator(new Uint8Array([...new TextEncoder().encode('/ipns/'), ...name.multihash.bytes]), bytes);
    const record = await validateRecord(name, bytes, NOW);
    expect(record.ttlSeconds).toBe(300);
    expect(record.sequence).toBe(7n);
    expect(await faultOf(validateRecord(name, bytes, NOW + RECORD_LIFETIME_MS))).toBe('expired');
  });

  it('signs with imported RSA keys and embeds the public key (the name is only a hash of it)', async () => {
    const pem = fixture('kubo/test/cli/testdata/openssl_rsa.pem').toString('utf8');
    const key = await importNameKey({ text: pem, format: 'pem-pkcs8-cleartext' });
    const name = parseIpnsName(nameOfKey(key), 'n');
    expect(name.name).toBe('k2k4r8mkca4941pr2i9ge0gyd4v3ntklvk83thdr1uo191jvjjffh05z');
    const bytes = await signRecord(key, HELLO, 0, NOW);
    expect(unmarshalIPNSRecord(bytes).pubKey).toBeDefined();
    expect((await validateRecord(name, bytes, NOW)).value).toBe(`/ipfs/${HELLO.toString()}`);
  });

  it('rejects a record signed with an expiry in the past, a tampered signature, garbage and oversize input', async () => {
    const key = await ownKey();
    const name = parseIpnsName(nameOfKey(key), 'n');
    const past = await createIPNSRecordWithExpiration(key as unknown as IpnsKey, HELLO, 0, new Date(Date.now() - 60_000).toISOString());
    expect(await faultOf(validateRecord(name, marshalIPNSRecord(past), Date.now()))).toBe('expired');

    const good = unmarshalIPNSRecord(await signRecord(key, HELLO, 1, NOW));
    const tampered = { ...good, signatureV2: Uint8Array.from(good.signatureV2, (byte, i) => (i === 0 ? byte ^ 1 : byte)) };
    expect(await faultOf(validateRecord(name, marshalIPNSRecord(tampered), NOW))).toBe('signature');

    const other = await ownKey();
    const embedded = { ...good, pubKey: (await import('@libp2p/crypto/keys')).publicKeyToProtobuf(other.publicKey) };
    expect(await faultOf(validateRecord(name, marshalIPNSRecord(embedded), NOW))).toBe('name-mismatch');

    expect(await faultOf(validateRecord(name, Uint8Array.from([1, 2, 3, 4]), NOW))).toBe('malformed');
    expect(await faultOf(validateRecord(name, new Uint8Array(10 * 1024 + 1), NOW))).toBe('too-large');
  });

  it('parses RFC 3339 with nanoseconds and offsets, and refuses other text', () => {
    expect(parseRfc3339Ms('2123-08-14T12:17:03.694052Z')).toBe(Date.parse('2123-08-14T12:17:03.694Z'));
    expect(parseRfc3339Ms('2026-01-01T01:00:00+01:00')).toBe(Date.UTC(2026, 0, 1));
    expect(parseRfc3339Ms('yesterday')).toBeUndefined();
    expect(parseRfc3339Ms('2026-13-45T00:00:00Z')).toBeUndefined();
  });
});
