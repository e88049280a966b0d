/**
 * IPNS names typed or pasted by the user, told apart from other text the way the service reads them
 * (main/names/name-parse.ts): the key's CIDv1 with the libp2p-key codec in any multibase (`k51…`,
 * `k2k4…`, `bafz…`), or a peer ID (`12D3KooW…`, `Qm…`: a base58btc identity or sha2-256 multihash).
 * People often copy an address instead (`ipns://k51…`, `/ipns/k51…/path`, a gateway URL): the name is
 * taken out of those. The service still has the last word; this only decides what to ask it.
 */
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import * as Digest from 'multiformats/hashes/digest';

const LIBP2P_KEY_CODEC = 0x72;
const IDENTITY = 0x00;
const SHA2_256 = 0x12;
/** The service refuses longer name text. */
const MAX_NAME_TEXT = 256;

function isPeerId(text: string): boolean {
  if (!text.startsWith('Qm') && !text.startsWith('1')) return false;
  try {
    const multihash = Digest.decode(base58btc.baseDecode(text));
    return multihash.code === IDENTITY || (multihash.code === SHA2_256 && multihash.digest.length === 32);
  } catch {
    return false;
  }
}

function isKeyCid(text: string): boolean {
  try {
    const cid = CID.parse(text);
    return cid.version === 1 && cid.code === LIBP2P_KEY_CODEC;
  } catch {
    return false;
  }
}

/** The IPNS name in the text (trimmed, out of an address), or null when it holds none. */
export function ipnsNameOfText(text: string): string | null {
  const trimmed = text.trim();
  const address = /^ipns:\/\/([^/?#]+)/i.exec(trimmed) ?? /^(?:https?:\/\/[^/]+)?\/ipns\/([^/?#]+)/i.exec(trimmed);
  const name = address ? (address[1] ?? '') : trimmed;
  if (name === '' || name.length > MAX_NAME_TEXT) return null;
  return isPeerId(name) || isKeyCid(name) ? name : null;
}
