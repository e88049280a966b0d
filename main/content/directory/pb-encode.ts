/**
 * A dag-pb encoder for directory nodes that takes names as bytes: @ipld/dag-pb's `encode` UTF-8-encodes
 * every name once to write it and twice more per comparison while validating the order, which made
 * name encoding the largest cost of an edit. Output is byte-identical to `dagPb.encode(prepare(node))`
 * for links already sorted (tests compare the two).
 */
export interface EncodableLink {
  /** Written before `name` (a HAMT slot label such as `3F`), or empty. */
  prefix: Uint8Array;
  name: Uint8Array;
  hash: Uint8Array;
  tsize: number | undefined;
}

function varintLength(value: number): number {
  let length = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

function writeVarint(bytes: Uint8Array, offset: number, value: number): number {
  while (value >= 128) {
    bytes[offset++] = (value % 128) | 0x80;
    value = Math.floor(value / 128);
  }
  bytes[offset++] = value;
  return offset;
}

function linkInnerLength(link: EncodableLink): number {
  const nameLength = link.prefix.length + link.name.length;
  let length = 1 + varintLength(link.hash.length) + link.hash.length + 1 + varintLength(nameLength) + nameLength;
  if (link.tsize !== undefined) length += 1 + varintLength(link.tsize);
  return length;
}

/** Encodes a PBNode: every link (field 2) in the given order, then `data` (field 1), as dag-pb does. */
export function encodePbNode(data: Uint8Array, links: readonly EncodableLink[]): Uint8Array {
  const inner = links.map(linkInnerLength);
  let size = 1 + varintLength(data.length) + data.length;
  for (const length of inner) size += 1 + varintLength(length) + length;
  const bytes = new Uint8Array(size);
  let offset = 0;
  links.forEach((link, i) => {
    if (link.tsize !== undefined && (!Number.isSafeInteger(link.tsize) || link.tsize < 0)) {
      throw new Error(`Tsize ${link.tsize} cannot be encoded`);
    }
    bytes[offset++] = 0x12;
    offset = writeVarint(bytes, offset, inner[i] as number);
    bytes[offset++] = 0x0a;
    offset = writeVarint(bytes, offset, link.hash.length);
    bytes.set(link.hash, offset);
    offset += link.hash.length;
    bytes[offset++] = 0x12;
    offset = writeVarint(bytes, offset, link.prefix.length + link.name.length);
    bytes.set(link.prefix, offset);
    offset += link.prefix.length;
    bytes.set(link.name, offset);
    offset += link.name.length;
    if (link.tsize !== undefined) {
      bytes[offset++] = 0x18;
      offset = writeVarint(bytes, offset, link.tsize);
    }
  });
  bytes[offset++] = 0x0a;
  offset = writeVarint(bytes, offset, data.length);
  bytes.set(data, offset);
  return bytes;
}
