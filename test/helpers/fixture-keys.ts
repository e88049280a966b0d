import { fixture } from './fixtures.js';

/** The importable keys of test/fixtures/keys.json (sources in test/fixtures/README.md), with the names they give. */

interface KeyFixture {
  id: string;
  key_type: string;
  file?: string;
  private_key_protobuf_base64?: string;
  derived_libp2p_private_key_protobuf_hex?: string;
  private_key_protobuf_hex?: string;
  expected_peer_id_b58mh?: string;
  derived_ipns_name_base36?: string;
}

/** One importable fixture key: its PEM text (when the fixture has one), its protobuf bytes, and its names. */
export interface FixtureKey {
  id: string;
  type: 'Ed25519' | 'RSA';
  pem: string | undefined;
  protobuf: Buffer;
  /** The stated peer ID (`12D3KooW...` or `Qm...`). */
  peerId: string;
  /** The same key as base36 CIDv1 libp2p-key (`k51...`, `k2k4...`). */
  name: string;
}

export function fixtureKeys(): FixtureKey[] {
  const all = JSON.parse(fixture('keys.json').toString('utf8')) as KeyFixture[];
  const out: FixtureKey[] = [];
  for (const entry of all) {
    const type = entry.key_type.startsWith('RSA') ? 'RSA' : entry.key_type === 'Ed25519' ? 'Ed25519' : undefined;
    if (type === undefined || entry.expected_peer_id_b58mh === undefined || entry.derived_ipns_name_base36 === undefined) continue;
    const protobufText = entry.derived_libp2p_private_key_protobuf_hex ?? entry.private_key_protobuf_hex;
    const protobuf =
      entry.private_key_protobuf_base64 !== undefined
        ? Buffer.from(entry.private_key_protobuf_base64, 'base64')
        : protobufText !== undefined
          ? Buffer.from(protobufText, 'hex')
          : undefined;
    if (protobuf === undefined) continue;
    out.push({
      id: entry.id,
      type,
      pem: entry.file !== undefined ? fixture(entry.file).toString('utf8') : undefined,
      protobuf,
      peerId: entry.expected_peer_id_b58mh,
      name: entry.derived_ipns_name_base36,
    });
  }
  return out;
}

export function fixtureKey(id: string): FixtureKey {
  const key = fixtureKeys().find((candidate) => candidate.id === id);
  if (key === undefined) throw new Error(`no fixture key ${id}`);
  return key;
}
