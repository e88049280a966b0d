/**
 * A minimal reader of the UnixFS `Data` protobuf: the fields directory editing needs. ipfs-unixfs's
 * `UnixFS.unmarshal` drops `hashType`, which a HAMT shard must be checked for.
 */
export interface UnixfsFields {
  type: number | undefined;
  data: Uint8Array | undefined;
  hashType: number | undefined;
  fanout: number | undefined;
}

export const UNIXFS_DIRECTORY = 1;
export const UNIXFS_HAMT_SHARD = 5;

export function readUnixfsFields(bytes: Uint8Array): UnixfsFields | undefined {
  const fields: UnixfsFields = { type: undefined, data: undefined, hashType: undefined, fanout: undefined };
  let offset = 0;
  const varint = (): number | undefined => {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (offset >= bytes.length) return undefined;
      const byte = bytes[offset++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    return undefined;
  };
  while (offset < bytes.length) {
    const key = varint();
    if (key === undefined) return undefined;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const value = varint();
      if (value === undefined) return undefined;
      if (field === 1) fields.type = value;
      else if (field === 5) fields.hashType = value;
      else if (field === 6) fields.fanout = value;
    } else if (wire === 2) {
      const length = varint();
      if (length === undefined || offset + length > bytes.length) return undefined;
      if (field === 2) fields.data = bytes.subarray(offset, offset + length);
      offset += length;
    } else if (wire === 5) {
      offset += 4;
    } else if (wire === 1) {
      offset += 8;
    } else {
      return undefined;
    }
  }
  return offset === bytes.length ? fields : undefined;
}
