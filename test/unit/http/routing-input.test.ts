import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { IpnsNameParams, PeersParams, ProvidersParams, RecordFiltersQuery } from '../../../main/http/input/routing-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

const CID_TEXT = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy';
const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const PEER_ID = '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d';

describe('routing request schemas (http/input/routing-input.ts)', () => {
  it("reads a provider's CID, a peer ID and an IPNS name from the path, in any spelling the spec's servers take", () => {
    expect(requestInput(ProvidersParams, { cid: CID_TEXT }).cid.toString()).toBe(CID_TEXT);
    expect(requestInput(PeersParams, { peerId: PEER_ID }).peerId.name).toBe(NAME);
    expect(requestInput(PeersParams, { peerId: NAME }).peerId.name).toBe(NAME);
    expect(requestInput(IpnsNameParams, { name: PEER_ID }).name.name).toBe(NAME);
  });

  it('refuses what is none, in the words the API always answered with, naming the parameter', () => {
    expect(refusalOf(() => requestInput(ProvidersParams, { cid: 'nope' }))).toEqual({ message: 'cid: "nope" is not a valid CID', param: 'cid' });
    expect(refusalOf(() => requestInput(ProvidersParams, {}))).toEqual({ message: 'cid: "" is not a valid CID', param: 'cid' });
    expect(refusalOf(() => requestInput(PeersParams, { peerId: CID_TEXT }))).toEqual({ message: `peer-id: "${CID_TEXT}" is not a peer ID`, param: 'peerId' });
    expect(refusalOf(() => requestInput(IpnsNameParams, { name: 'example.com' }))).toEqual({
      message: 'name: "example.com" is not an IPNS name (a libp2p-key CID)',
      param: 'name',
    });
  });

  it('reads the IPIP-484 filters: trimmed, lower-cased names; absent or repeated filters nothing; never refuses', () => {
    expect(requestInput(RecordFiltersQuery, {})).toEqual({ addrs: [], protocols: [] });
    expect(requestInput(RecordFiltersQuery, { 'filter-addrs': ' HTTP, !tcp,,', 'filter-protocols': 'transport-ipfs-gateway-http' })).toEqual({
      addrs: ['http', '!tcp'],
      protocols: ['transport-ipfs-gateway-http'],
    });
    expect(requestInput(RecordFiltersQuery, { 'filter-addrs': ['http', 'tcp'], 'filter-protocols': '' })).toEqual({ addrs: [], protocols: [] });
  });
});
