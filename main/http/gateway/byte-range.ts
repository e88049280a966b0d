/** An inclusive byte range [start, end] of a body. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeResult = ByteRange | 'unsatisfiable' | undefined;

/** One range-spec of the set: a range, one that selects nothing of this body, or text that is not a range-spec. */
type SpecResult = ByteRange | 'unsatisfiable' | 'invalid';

/**
 * The part of a `size`-byte body a `Range` header asks for (RFC 9110 section 14):
 * - undefined, serve the whole body (200): no header; a unit other than `bytes` (a server must ignore those);
 *   a `bytes` set that does not parse, such as `bytes=5-2` or `bytes=x` (a server may ignore those, and the
 *   contract keeps 416 for ranges past the end);
 * - 'unsatisfiable' (416): no range of the set selects a byte: each starts at or past the end, or is an empty
 *   suffix (`bytes=-0`), or the body is empty;
 * - otherwise the first range of the set that selects bytes, a last byte past the end clipped to the end and
 *   a suffix longer than the body taking all of it. Several ranges are answered with that one only (206 with
 *   one Content-Range), as Kubo does; the gateway spec accepts that in place of multipart/byteranges.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined) return undefined;
  const equals = header.indexOf('=');
  if (equals === -1 || header.slice(0, equals).trim().toLowerCase() !== 'bytes') return undefined;
  // HTTP list syntax: empty elements ("0-1,,5-6") are allowed and mean nothing.
  const specs = header
    .slice(equals + 1)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length === 0) return undefined;
  let chosen: ByteRange | undefined;
  for (const spec of specs) {
    const result = parseSpec(spec, size);
    if (result === 'invalid') return undefined;
    if (result !== 'unsatisfiable') chosen ??= result;
  }
  return chosen ?? 'unsatisfiable';
}

function parseSpec(spec: string, size: number): SpecResult {
  const match = /^(\d*)\s*-\s*(\d*)$/.exec(spec);
  const first = match?.[1] ?? '';
  const last = match?.[2] ?? '';
  if (match === null || (first === '' && last === '')) return 'invalid';
  // Digits only, so Number() gives a non-negative value; one beyond 2^53 is imprecise but still compares
  // as larger than any body, which is all that matters here.
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? undefined : Number(last);
  if (end !== undefined && end < start) return 'invalid';
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end ?? size - 1, size - 1) };
}
