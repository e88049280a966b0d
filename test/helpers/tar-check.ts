export interface TarEntry {
  name: string;
  type: string;
  content: Uint8Array;
  linkName: string;
}

const decoder = new TextDecoder();

function field(block: Uint8Array, offset: number, width: number): string {
  const raw = block.subarray(offset, offset + width);
  const end = raw.indexOf(0);
  return decoder.decode(end === -1 ? raw : raw.subarray(0, end));
}

/** A small independent ustar/PAX reader for tests: checks header checksums and applies PAX path/linkpath. */
export function parseTar(bytes: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let at = 0;
  let pax: Record<string, string> = {};
  while (at + 512 <= bytes.byteLength) {
    const header = bytes.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
    if (sum !== parseInt(field(header, 148, 8).trim(), 8)) throw new Error(`bad checksum at ${at}`);
    const size = parseInt(field(header, 124, 12), 8);
    const type = field(header, 156, 1);
    const content = bytes.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      pax = {};
      for (const line of decoder.decode(content).split('\n').filter(Boolean)) {
        const kv = line.slice(line.indexOf(' ') + 1);
        pax[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
      }
      continue;
    }
    entries.push({
      name: pax.path ?? field(header, 0, 100),
      type,
      content,
      linkName: pax.linkpath ?? field(header, 157, 100),
    });
    pax = {};
  }
  return entries;
}
