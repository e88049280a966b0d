import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BadInputError, PayloadTooLargeError } from '../../../main/base/errors.js';
import { MAX_JSON_DEPTH, readJsonObject } from '../../../main/http/json-body.js';

/** A request body as the server reads it: a stream of byte chunks. */
function body(...chunks: Array<string | number[]>): Readable {
  return Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk))));
}

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

async function refusal(...chunks: Array<string | number[]>): Promise<unknown> {
  return readJsonObject(body(...chunks)).then(
    () => undefined,
    (error: unknown) => error,
  );
}

async function expectBadInput(msg: RegExp, ...chunks: Array<string | number[]>): Promise<void> {
  const error = await refusal(...chunks);
  expect(error, String(chunks[0]).slice(0, 40)).toBeInstanceOf(BadInputError);
  expect((error as Error).message).toMatch(msg);
}

describe('readJsonObject: every malformed body is a 400 (or 413), never an exception of another kind', () => {
  it('reads a JSON object in any number of chunks, a character split between two of them, a leading BOM', async () => {
    expect(await readJsonObject(body('{"name":"k', 'ey","n":[1,', '2]}'))).toEqual({ name: 'key', n: [1, 2] });
    const e = [...Buffer.from('é')];
    expect(await readJsonObject(body('{"name":"', [e[0] ?? 0], [e[1] ?? 0], '"}'))).toEqual({ name: 'é' });
    expect(await readJsonObject(body([0xef, 0xbb, 0xbf], '{"a":1}'))).toEqual({ a: 1 });
    expect(await readJsonObject(body('{"emoji":"\\ud83d\\ude00"}'))).toEqual({ emoji: '😀' });
    expect(await readJsonObject(body('{"a":1,"a":2}'))).toEqual({ a: 2 });
  });

  it('bytes that are not UTF-8 are refused, not turned into U+FFFD', async () => {
    for (const bad of [[0xff], [0xc3], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      await expectBadInput(/^body is not valid UTF-8$/, '{"name":"', bad, '"}');
    }
  });

  it('an empty body, text that is not JSON, and JSON that is not an object', async () => {
    await expectBadInput(/JSON body is required/, '');
    await expectBadInput(/JSON body is required/, ' \n\t ');
    for (const text of ['[', '['.repeat(100_000), '{', '{"a":1} x', 'x', "{'a':1}", '{"a":NaN}', '{"a":01}', '\u0000']) {
      await expectBadInput(/^body is not valid JSON$/, text);
    }
    for (const text of ['null', '[]', '1', '"x"', 'true', '1e999', nested(100_000)]) {
      await expectBadInput(/^body must be a JSON object$/, text);
    }
  });

  it(`nesting deeper than ${MAX_JSON_DEPTH} levels is refused, however deep (no stack overflow)`, async () => {
    const within = `{"a":${nested(MAX_JSON_DEPTH - 1)}}`;
    expect(await readJsonObject(body(within))).toHaveProperty('a');
    await expectBadInput(/^a(\[0\]){31}: JSON nested deeper than 32 levels$/, `{"a":${nested(MAX_JSON_DEPTH)}}`);
    await expectBadInput(/^x(\[0\]){31}: JSON nested deeper than 32 levels$/, `{"name":"k","permissions":["read"],"x":${nested(100_000)}}`);
    await expectBadInput(/^a(\.a){31}: JSON nested deeper than 32 levels$/, `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
  });

  it('a __proto__ key, at any depth or escaped, is refused, naming where', async () => {
    await expectBadInput(/^__proto__: the key "__proto__" is not accepted$/, '{"__proto__":{"admin":true}}');
    await expectBadInput(/^a\[0\]\.__proto__: the key "__proto__" is not accepted$/, '{"a":[{"__proto__":1}]}');
    await expectBadInput(/^__proto__: the key "__proto__" is not accepted$/, '{"\\u005f_proto__":null}');
    expect(await readJsonObject(body('{"constructor":{"prototype":1},"prototype":2}'))).toEqual({ constructor: { prototype: 1 }, prototype: 2 });
  });

  it('a lone surrogate escape, in a value or a key, is refused, naming where', async () => {
    await expectBadInput(/^name: is not valid UTF-8 \(a lone surrogate escape/, '{"name":"a\\ud800b"}');
    await expectBadInput(/^add\[1\]\[0\]: is not valid UTF-8 \(a lone surrogate escape/, '{"add":[["a","b"],["\\udfff","c"]]}');
    await expectBadInput(/^x: a key is not valid UTF-8/, '{"x":{"\\ud83d":1}}');
    await expectBadInput(/^body: a key is not valid UTF-8/, '{"\\ud83d":1}');
  });

  it('a body over the limit is 413 before it is parsed', async () => {
    const error = await readJsonObject(body('{"a":"', 'x'.repeat(100), '"}'), 64).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
  });
});
