/**
 * A lean dag-pb decoder for directory nodes. @ipld/dag-pb's `decode` builds a CID object and a name
 * string for every link, which made decoding the largest cost of reading a shard (~4.5 ms for a
 * 1,000-link node) although an edit needs the CID of only the one or two links on its path. This one
 * returns views into the block: the hash bytes (checked to be a well-formed CID, so a bad block fails
 * here as it does in dag-pb), the name bytes and Tsize. It accepts exactly what dag-pb's `decode`
 * accepts (same field order and wire type rules; tests compare the two).
 */
export interface RawLink {
  /** The link's CID bytes (a view into the block). */
  hash: Uint8Array;
  /** The link's name bytes (a view into the block); undefined when the field is absent. */
  name: Uint8Array | undefined;
  tsize: number | undefined;
}

export interface RawNode {
  data: Uint8Array | undefined;
  links: RawLink[];
}

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  varint(): number {
    const bytes = this.bytes;
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      if (shift >= 64) throw new Error('protobuf: varint overflow');
      if (this.offset >= bytes.length) throw new Error('protobuf: unexpected end of data');
      const byte = bytes[this.offset++] as number;
      value += shift < 28 ? (byte & 0x7f) << shift : (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  }

  chunk(end: number): Uint8Array {
    const length = this.varint();
    const stop = this.offset + length;
    if (stop > end) throw new Error('protobuf: unexpected end of data');
    const view = this.bytes.subarray(this.offset, stop);
    this.offset = stop;
    return view;
  }
}

function decodeLink(reader: Reader, end: number): RawLink {
  let hash: Uint8Array | undefined;
  let name: Uint8Array | undefined;
  let tsize: number | undefined;
  while (reader.offset < end) {
    const key = reader.varint();
    const wire = key & 0x7;
    const field = Math.floor(key / 8);
    if (field === 1) {
      if (hash !== undefined) throw new Error('protobuf: (PBLink) duplicate Hash section');
      if (wire !== 2) throw new Error(`protobuf: (PBLink) wrong wireType (${wire}) for Hash`);
      if (name !== undefined || tsize !== undefined) throw new Error('protobuf: (PBLink) invalid order, found Name or Tsize before Hash');
      hash = reader.chunk(end);
    } else if (field === 2) {
      if (name !== undefined) throw new Error('protobuf: (PBLink) duplicate Name section');
      if (wire !== 2) throw new Error(`protobuf: (PBLink) wrong wireType (${wire}) for Name`);
      if (tsize !== undefined) throw new Error('protobuf: (PBLink) invalid order, found Tsize before Name');
      name = reader.chunk(end);
    } else if (field === 3) {
      if (tsize !== undefined) throw new Error('protobuf: (PBLink) duplicate Tsize section');
      if (wire !== 0) throw new Error(`protobuf: (PBLink) wrong wireType (${wire}) for Tsize`);
      tsize = reader.varint();
    } else {
      throw new Error(`protobuf: (PBLink) invalid fieldNumber, expected 1, 2 or 3, got ${field}`);
    }
  }
  if (reader.offset > end) throw new Error('protobuf: (PBLink) unexpected end of data');
  if (hash === undefined || !isCidBytes(hash)) throw new Error('Invalid Hash field found in link, expected CID');
  return { hash, name, tsize };
}

/** Decodes a dag-pb block into its Data and raw links; throws on anything dag-pb's decode rejects. */
export function decodePbNode(bytes: Uint8Array): RawNode {
  const reader = new Reader(bytes);
  const links: RawLink[] = [];
  let data: Uint8Array | undefined;
  let sawLinks = false;
  let linksBeforeData = false;
  while (reader.offset < bytes.length) {
    const key = reader.varint();
    const wire = key & 0x7;
    const field = Math.floor(key / 8);
    if (wire !== 2) throw new Error(`protobuf: (PBNode) invalid wireType, expected 2, got ${wire}`);
    if (field === 1) {
      if (data !== undefined) throw new Error('protobuf: (PBNode) duplicate Data section');
      data = reader.chunk(bytes.length);
      if (sawLinks) linksBeforeData = true;
    } else if (field === 2) {
      if (linksBeforeData) throw new Error('protobuf: (PBNode) duplicate Links section');
      sawLinks = true;
      const length = reader.varint();
      const end = reader.offset + length;
      if (end > bytes.length) throw new Error('protobuf: unexpected end of data');
      links.push(decodeLink(reader, end));
      reader.offset = end;
    } else {
      throw new Error(`protobuf: (PBNode) invalid fieldNumber, expected 1 or 2, got ${field}`);
    }
  }
  return { data, links };
}

function readVarint(bytes: Uint8Array, at: { offset: number }): number | undefined {
  let value = 0;
  for (let shift = 0; shift < 63; shift += 7) {
    if (at.offset >= bytes.length) return undefined;
    const byte = bytes[at.offset++] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return Number.isSafeInteger(value) ? value : undefined;
  }
  return undefined;
}

/**
 * What `CID.decode` accepts, checked without building the CID (multiformats' `inspectBytes` rules): a
 * CIDv0 (a bare sha2-256 multihash) or a CID of version 0 (dag-pb, sha2-256) or 1 with a codec, then
 * a multihash whose digest length matches the remaining bytes exactly.
 */
export function isCidBytes(bytes: Uint8Array): boolean {
  const at = { offset: 0 };
  let multihashCode: number | undefined;
  if (bytes[0] === 0x12) {
    multihashCode = readVarint(bytes, at);
  } else {
    const version = readVarint(bytes, at);
    const codec = readVarint(bytes, at);
    multihashCode = readVarint(bytes, at);
    if (version === 0 ? codec !== 0x70 || multihashCode !== 0x12 : version !== 1 || codec === undefined) return false;
  }
  if (multihashCode === undefined) return false;
  const digestLength = readVarint(bytes, at);
  return digestLength !== undefined && at.offset + digestLength === bytes.length;
}
