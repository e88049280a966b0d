/**
 * The libp2p PrivateKey protobuf (`message PrivateKey { KeyType Type = 1; bytes Data = 2; }`), read and
 * written by hand so that the key type is known before any key parser runs: a secp256k1 or ECDSA key
 * must be refused as such, not as "malformed".
 */
export const KeyTypeCode = { RSA: 0, Ed25519: 1, secp256k1: 2, ECDSA: 3 } as const;

export interface KeyProtobuf {
  type: number;
  data: Uint8Array;
}

export function decodeKeyProtobuf(bytes: Uint8Array): KeyProtobuf | undefined {
  let offset = 0;
  let type: number | undefined;
  let data: Uint8Array | undefined;
  const readVarint = (): number | undefined => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[offset++];
      if (byte === undefined) return undefined;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    return undefined;
  };
  while (offset < bytes.length) {
    const tag = readVarint();
    if (tag === undefined) return undefined;
    if (tag === 0x08) {
      type = readVarint();
      if (type === undefined) return undefined;
    } else if (tag === 0x12) {
      const length = readVarint();
      if (length === undefined || offset + length > bytes.length) return undefined;
      data = bytes.subarray(offset, offset + length);
      offset += length;
    } else {
      return undefined;
    }
  }
  if (type === undefined || data === undefined) return undefined;
  return { type, data };
}

export function encodeKeyProtobuf(type: number, data: Uint8Array): Uint8Array {
  return Uint8Array.from([0x08, type, 0x12, ...encodeVarint(data.length), ...data]);
}

function encodeVarint(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
  return out;
}
