import { murmur3128 } from '@multiformats/murmur3';

/**
 * The HAMT slot of a name at each depth, exactly as ipfs-unixfs-importer (hamt-sharding) and Kubo
 * compute it: murmur3-x64-128 of the UTF-8 name, first 64 bits only ("murmur3-x64-64"), read most
 * significant bit first, `bits` bits per level; once 64 bits are used up the name is hashed again
 * with the round number appended as one byte.
 */
export interface NameHash {
  slot(depth: number, bits: number): number;
}

function murmur64(input: Uint8Array): Uint8Array {
  const digest = murmur3128.digest(input);
  if (digest instanceof Promise) throw new Error('murmur3 hasher is expected to be synchronous');
  return digest.digest.subarray(0, 8);
}

export function hashName(nameBytes: Uint8Array): NameHash {
  const rounds: Uint8Array[] = [];
  const round = (index: number): Uint8Array => {
    let bytes = rounds[index];
    if (bytes === undefined) {
      let input = nameBytes;
      if (index > 0) {
        input = new Uint8Array(nameBytes.length + 1);
        input.set(nameBytes);
        input[nameBytes.length] = index;
      }
      bytes = murmur64(input);
      rounds[index] = bytes;
    }
    return bytes;
  };
  return {
    slot(depth, bits) {
      if (bits === 8) return round(depth >> 3)[depth & 7] as number;
      let value = 0;
      for (let i = 0; i < bits; i++) {
        const bit = depth * bits + i;
        const byte = round(Math.floor(bit / 64))[(bit % 64) >> 3] as number;
        value = value * 2 + ((byte >> (7 - (bit & 7))) & 1);
      }
      return value;
    },
  };
}
