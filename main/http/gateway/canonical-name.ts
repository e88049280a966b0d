import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';

const LIBP2P_KEY = 0x72;

/**
 * The canonical form of an IPNS name written as a base58 peer ID (`12D3KooW…`, `Qm…`): the CIDv1
 * libp2p-key in base36 (`k51…`). Undefined when `name` is not such a peer ID (already canonical, or DNSLink).
 */
export function canonicalIpnsName(name: string): string | undefined {
  if (!name.startsWith('12D3KooW') && !name.startsWith('Qm') && !name.startsWith('16Uiu2')) return undefined;
  try {
    const digest = Digest.decode(base58btc.baseDecode(name));
    if (digest.code !== 0x00 && digest.code !== 0x12) return undefined;
    return CID.createV1(LIBP2P_KEY, digest).toString(base36);
  } catch {
    return undefined;
  }
}
