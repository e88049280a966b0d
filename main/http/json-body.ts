import { BadInputError, PayloadTooLargeError } from '../base/errors.js';

/** Enough for a folder operation with 10,000 adds of long names. */
export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;

/** Deeper than any request body of the API nests (a folder operation: 3 levels); deeper is refused. */
export const MAX_JSON_DEPTH = 32;

/** A lone UTF-16 surrogate: a `\ud800`-style escape that names no character and cannot be stored as UTF-8. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Reads a JSON object body whatever its Content-Type says (gw3's JS SDK sends JSON as
 * application/x-www-form-urlencoded); anything that is not a JSON object is 400: bytes that are not
 * UTF-8, text that is not JSON, nesting deeper than MAX_JSON_DEPTH, a `__proto__` key, a string holding a
 * lone surrogate.
 */
export async function readJsonObject(raw: AsyncIterable<Uint8Array>, limit = MAX_JSON_BODY_BYTES): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of raw) {
    total += chunk.byteLength;
    if (total > limit) throw new PayloadTooLargeError(`JSON body larger than ${limit} bytes`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  let text: string;
  try {
    // fatal: bytes that are not UTF-8 are an error, not U+FFFD quietly put in a name or an alias.
    text = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new BadInputError('body is not valid UTF-8');
  }
  if (text.trim() === '') throw new BadInputError('a JSON body is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BadInputError('body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadInputError('body must be a JSON object');
  checkJsonValue(parsed);
  return parsed as Record<string, unknown>;
}

/** A value met while walking a body: where it sits (its key or index, and its parent), to name it in a 400. */
interface Place {
  value: unknown;
  depth: number;
  at: string | number | undefined;
  parent: Place | undefined;
}

/** `add[1][0]`, `name`, `a.b`: the place as a client wrote it, built only when a message needs it. */
function pathOf(place: Place): string {
  let path = '';
  for (let p: Place | undefined = place; p?.at !== undefined; p = p.parent) {
    path = typeof p.at === 'number' ? `[${p.at}]${path}` : `${p.parent?.at === undefined ? '' : '.'}${p.at}${path}`;
  }
  return path === '' ? 'body' : path;
}

/**
 * Walks a parsed body without recursion (JSON.parse itself does not recurse, but a reviver, String() of an
 * array or any recursive walk downstream would overflow the stack on a deep one, a 500) and refuses what no
 * request needs and some code could trip on, naming where it is.
 */
function checkJsonValue(root: object): void {
  const stack: Place[] = [{ value: root, depth: 1, at: undefined, parent: undefined }];
  for (let place = stack.pop(); place !== undefined; place = stack.pop()) {
    const { value, depth } = place;
    if (typeof value === 'string') {
      // Stored as UTF-8, such a string would silently become U+FFFD: another name than the one sent.
      if (LONE_SURROGATE.test(value)) throw new BadInputError(`${pathOf(place)}: is not valid UTF-8 (a lone surrogate escape, \\ud800-\\udfff)`);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) throw new BadInputError(`${pathOf(place)}: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) {
      (value as unknown[]).forEach((child, index) => stack.push({ value: child, depth: depth + 1, at: index, parent: place }));
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      const here: Place = { value: child, depth: depth + 1, at: key, parent: place };
      // JSON.parse makes it an own property, harmless itself, but copying the body with `target[key] = value`
      // (or Object.assign) would set the target's prototype: no request has a reason to send it.
      if (key === '__proto__') throw new BadInputError(`${pathOf(here)}: the key "__proto__" is not accepted`);
      if (LONE_SURROGATE.test(key)) throw new BadInputError(`${pathOf(place)}: a key is not valid UTF-8 (a lone surrogate escape)`);
      stack.push(here);
    }
  }
}
