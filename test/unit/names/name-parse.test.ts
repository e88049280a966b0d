import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { parseIpnsName, peerIdText, tryParseIpnsName } from '../../../main/names/name-parse.js';
import { fixtureJson } from '../../helpers/fixtures.js';

interface KeyFixture {
  id: string;
  expected_peer_id_b58mh?: string;
  derived_peer_id_b58mh?: string;
  derived_ipns_name_base36?: string;
  derived_libp2p_key_cid_base32?: string;
}

describe('IPNS name parsing', () => {
  it('maps every form of one key to the same canonical base36 CIDv1 (MANIFEST subdomain + canonical redirect)', () => {
    const cases: [string, string][] = [
      ['12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d', 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam'],
      ['k50rm9yjlt0jey4fqg6wafvqprktgbkpgkqdg27tpqje6iimzxewnhvtin9hhq', 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam'],
      ['QmVujd5Vb7moysJj8itnGufN7MEtPRCNHkKpNuA4onsRa3', 'k2k4r8m7xvggw5pxxk3abrkwyer625hg01hfyggrai7lk1m63fuihi7w'],
      ['k2jmtxu61bnhrtj301lw7zizknztocdbeqhxgv76l2q9t36fn9jbzipo', 'k2k4r8m7xvggw5pxxk3abrkwyer625hg01hfyggrai7lk1m63fuihi7w'],
      ['12D3KooWRBy97UB99e3J6hiPesre1MZeuNQvfan4gBziswrRJsNK', 'k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8'],
      ['QmcJM7PRfkSbcM5cf1QugM5R37TLRKyJGgBEhXjLTB8uA2', 'k2k4r8ol4m8kkcqz509c1rcjwunebj02gcnm5excpx842u736nja8ger'],
    ];
    for (const [input, canonical] of cases) {
      const parsed = tryParseIpnsName(input);
      expect(parsed?.name, input).toBe(canonical);
      expect(parsed?.canonical).toBe(false);
      expect(tryParseIpnsName(canonical)?.canonical).toBe(true);
    }
  });

  it('agrees with keys.json on peer IDs, base36 names and base32 CIDs', () => {
    const keys = fixtureJson<KeyFixture[]>('keys.json');
    let checked = 0;
    for (const key of keys) {
      const peerId = key.expected_peer_id_b58mh ?? key.derived_peer_id_b58mh;
      if (peerId === undefined || key.derived_ipns_name_base36 === undefined) continue;
      const parsed = parseIpnsName(peerId, 'key');
      expect(parsed.name, key.id).toBe(key.derived_ipns_name_base36);
      expect(peerIdText(parsed)).toBe(peerId);
      if (key.derived_libp2p_key_cid_base32 !== undefined) {
        expect(parseIpnsName(key.derived_libp2p_key_cid_base32, 'key').name).toBe(key.derived_ipns_name_base36);
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('rejects malformed names with a 400 naming the parameter', () => {
    const bad = [
      'QmInvalidCID',
      'example.org',
      'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am', // raw-codec content CID, not a key
      'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht3', // truncated: digest shorter than declared
      '12D3KooW',
      'k51',
      'x'.repeat(300),
      '',
    ];
    for (const text of bad) {
      expect(tryParseIpnsName(text), text).toBeUndefined();
      expect(() => parseIpnsName(text, 'key')).toThrow(BadInputError);
    }
    expect(() => parseIpnsName('nope', 'key')).toThrow(/^key is not a valid IPNS name/);
    // A request's text is trimmed before it is read.
    const canonical = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
    expect(parseIpnsName(` ${canonical}\n`, 'name').name).toBe(canonical);
  });
});
