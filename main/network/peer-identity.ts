import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { base58btc } from 'multiformats/bases/base58';
import type { SealedBox } from '../base/sealed-box.js';
import type { MetaRepository } from '../store/repositories/meta.js';

const META_KEY = 'peer-identity';
/** Bound into the seal, so the sealed key cannot be passed off as another sealed value. */
const SEAL_CONTEXT = 'peer-identity';

/** Who this Pinfold is to the IPFS network: the peer ID its served routing answers name as the provider. */
export interface PeerIdentity {
  /** The peer ID as the routing API writes it: the public key's multihash in base58btc (`12D3KooW…`). */
  readonly peerId: string;
}

/**
 * This Pinfold's peer ID (contract section 11, delegated routing served): an Ed25519 key made once and kept,
 * sealed under the master key, in the metadata store, so the ID stays the same across restarts (a client
 * that saw it as a provider knows it again). Only the public half is ever used; the private half is kept for
 * a later signed peer record. Several instances on one database (`--db`) share it: call this under the
 * setup lock there, so two first starts make one key.
 */
export async function loadPeerIdentity(meta: MetaRepository, box: SealedBox): Promise<PeerIdentity> {
  const sealed = await meta.metaValue(META_KEY);
  const publicKey = sealed === null ? await makeKey(meta, box) : openKey(box, sealed);
  return { peerId: base58btc.baseEncode(publicKey.toMultihash().bytes) };
}

type PublicKey = ReturnType<typeof privateKeyFromProtobuf>['publicKey'];

async function makeKey(meta: MetaRepository, box: SealedBox): Promise<PublicKey> {
  const key = await generateKeyPair('Ed25519');
  const plain = privateKeyToProtobuf(key);
  try {
    await meta.setMetaValue(META_KEY, box.seal(plain, SEAL_CONTEXT));
  } finally {
    plain.fill(0);
  }
  return key.publicKey;
}

function openKey(box: SealedBox, sealed: Uint8Array): PublicKey {
  const plain = box.open(sealed, SEAL_CONTEXT);
  try {
    return privateKeyFromProtobuf(plain).publicKey;
  } finally {
    plain.fill(0);
  }
}
