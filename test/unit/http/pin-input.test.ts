import { CID } from 'multiformats/cid';
import { sha256 } from 'multiformats/hashes/sha2';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { encodeCursor, PinAddQuery, PinListQuerySchema, PinPathParams, PinRemoveQuery } from '../../../main/http/input/pin-input.js';
import { requestInput } from '../../../main/http/input/request-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

const parsePinListQuery = (query: Record<string, unknown>) => requestInput(PinListQuerySchema, query);

describe('pin list query', () => {
  it('cursors round-trip and refuse anything else, naming the parameter', () => {
    const cursor = encodeCursor({ createdAt: 1_800_000_000, id: 42 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parsePinListQuery({ after: cursor }).after).toEqual({ createdAt: 1_800_000_000, id: 42 });
    for (const bad of [
      7,
      ['x'],
      '!!',
      'a'.repeat(65),
      Buffer.from('1.x').toString('base64url'),
      Buffer.from('-1.2').toString('base64url'),
      Buffer.from('1.2.3').toString('base64url'),
    ]) {
      expect(() => parsePinListQuery({ before: bad }), String(bad)).toThrow(BadInputError);
      expect(() => parsePinListQuery({ before: bad })).toThrow(/^before is not a cursor/);
      try {
        parsePinListQuery({ before: bad });
      } catch (error) {
        // The field at fault is named beside the message, for a form to show it there.
        expect((error as BadInputError).param).toBe('before');
      }
    }
  });

  it('parses status, name (lower-cased), cid, paging and one cursor; refuses mixtures and bad values', async () => {
    const digest = await sha256.digest(new TextEncoder().encode('q'));
    const v0 = CID.createV0(digest);
    expect(parsePinListQuery({})).toEqual({ filter: { status: null, nameLower: null, cids: null }, limit: 10, start: 0 });
    expect(parsePinListQuery({ status: 'pinned', name: 'ÜNÏ Report', cid: v0.toString(), limit: '50', start: '100' })).toEqual({
      filter: { status: 'pinned', nameLower: 'ünï report', cids: [v0.toString(), v0.toV1().toString()] },
      limit: 50,
      start: 100,
    });
    expect(parsePinListQuery({ name: '', cid: '', after: '' })).toMatchObject({ filter: { nameLower: null, cids: null } });
    const after = encodeCursor({ createdAt: 5, id: 6 });
    expect(parsePinListQuery({ after })).toMatchObject({ after: { createdAt: 5, id: 6 }, start: 0 });
    expect(parsePinListQuery({ before: after })).toMatchObject({ before: { createdAt: 5, id: 6 } });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ name: 'x'.repeat(256) }, /name must be 1 to 255 characters/],
      [{ name: ['a', 'b'] }, /name must be one text/],
      [{ cid: 'nope' }, /cid is not a valid CID/],
      [{ status: 'gone' }, /status must be one of/],
      [{ after, before: after }, /after and before cannot be used together/],
      [{ after, start: '0' }, /start cannot be used with after or before/],
      [{ limit: '0' }, /limit/],
    ];
    for (const [query, msg] of bad) expect(() => parsePinListQuery(query)).toThrow(msg);
  });

  it("a CID parameter that is missing is required in the API's words, not the schema library's", () => {
    expect(refusalOf(() => requestInput(PinAddQuery, {}))).toEqual({ message: 'arg is required (a CID)', param: 'arg' });
    expect(refusalOf(() => requestInput(PinRemoveQuery, {}))).toEqual({ message: 'arg is required (a CID)', param: 'arg' });
    expect(refusalOf(() => requestInput(PinPathParams, {}))).toEqual({ message: 'cid is required (a CID)', param: 'cid' });
  });
});
