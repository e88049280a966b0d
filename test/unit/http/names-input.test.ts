import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import {
  AliasBody,
  AliasSearchQuery,
  NameCreateQuery,
  NameImportBody,
  NamePageQuery,
  NamePathParams,
  NamePublicQuery,
  NamePublishQuery,
  NameRemoveQuery,
} from '../../../main/http/input/names-input.js';
import { refusalOf, type Refusal } from '../../helpers/request-refusal.js';

const NAME = 'k51qzi5uqu5dk3v4rmjber23h16xnr23bsggmqqil9z2gduiis5se8dht36dam';
const PEER_ID = '12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d';
const CID = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';
const NOT_A_NAME = 'is not a valid IPNS name (expected k51... or a peer ID)';

describe('names request schemas', () => {
  it('name/create: pin flag, the CID in any multibase (trimmed), an optional alias', () => {
    const query = requestInput(NameCreateQuery, { arg: ` ${CID} `, alias: 'home' });
    expect({ ...query, arg: query.arg.toString() }).toEqual({ pin: false, arg: CID, alias: 'home' });
    expect(requestInput(NameCreateQuery, { arg: CID, pin: 'true', alias: '' })).toMatchObject({ pin: true, alias: null });
    expect(requestInput(NameCreateQuery, { arg: CID, pin: 'false' }).pin).toBe(false);
    expect(requestInput(NameCreateQuery, { arg: CID, pin: '' }).pin).toBe(false);
    const refusals: [Record<string, unknown>, Refusal][] = [
      [
        { arg: CID, pin: 'yes' },
        { msg: 'pin must be true or false', param: 'pin' },
      ],
      [
        { arg: CID, pin: ['true', 'true'] },
        { msg: 'pin must be true or false', param: 'pin' },
      ],
      [{}, { msg: 'arg is required and must be a CID', param: 'arg' }],
      [{ arg: '' }, { msg: 'arg is required and must be a CID', param: 'arg' }],
      [{ arg: 'nope' }, { msg: 'arg is not a valid CID', param: 'arg' }],
      [
        { arg: CID, alias: ['a', 'b'] },
        { msg: 'alias must be a string', param: 'alias' },
      ],
      [
        { arg: CID, alias: 'x'.repeat(257) },
        { msg: 'alias is longer than 256 characters', param: 'alias' },
      ],
      // Several faults: the first in the route's order (pin, arg, alias) is answered.
      [
        { pin: 'yes', arg: 'nope', alias: ['a'] },
        { msg: 'pin must be true or false', param: 'pin' },
      ],
      [
        { arg: 'nope', alias: ['a'] },
        { msg: 'arg is not a valid CID', param: 'arg' },
      ],
    ];
    for (const [query, refusal] of refusals) expect(refusalOf(NameCreateQuery, query), JSON.stringify(query)).toEqual(refusal);
  });

  it('name/publish and name/rm: the key in any form, canonical out; then the CID', () => {
    const query = requestInput(NamePublishQuery, { key: PEER_ID, arg: CID, pin: 'true' });
    expect(query.key.name).toBe(NAME);
    expect(query.pin).toBe(true);
    expect(requestInput(NameRemoveQuery, { key: ` ${NAME}` }).key.name).toBe(NAME);
    expect(refusalOf(NamePublishQuery, { arg: CID })).toEqual({ msg: 'key is required and must be an IPNS name', param: 'key' });
    expect(refusalOf(NamePublishQuery, { key: '', arg: CID })).toEqual({ msg: 'key is required and must be an IPNS name', param: 'key' });
    expect(refusalOf(NamePublishQuery, { key: [NAME, NAME], arg: CID })).toEqual({ msg: 'key is required and must be an IPNS name', param: 'key' });
    expect(refusalOf(NamePublishQuery, { key: 'QmInvalidCID', arg: CID })).toEqual({ msg: `key ${NOT_A_NAME}`, param: 'key' });
    expect(refusalOf(NamePublishQuery, { key: NAME })).toEqual({ msg: 'arg is required and must be a CID', param: 'arg' });
    expect(refusalOf(NamePublishQuery, { key: 'nope', arg: 'nope' })).toEqual({ msg: `key ${NOT_A_NAME}`, param: 'key' });
    expect(refusalOf(NameRemoveQuery, {})).toEqual({ msg: 'key is required and must be an IPNS name', param: 'key' });
    expect(refusalOf(NameRemoveQuery, { key: 'example.org' })).toEqual({ msg: `key ${NOT_A_NAME}`, param: 'key' });
  });

  it('name/public: the name, then on=true or on=false', () => {
    expect(requestInput(NamePublicQuery, { arg: NAME, on: 'true' })).toMatchObject({ arg: { name: NAME }, on: true });
    expect(requestInput(NamePublicQuery, { arg: NAME, on: 'false' }).on).toBe(false);
    expect(refusalOf(NamePublicQuery, { on: 'true' })).toEqual({ msg: 'arg is required and must be an IPNS name', param: 'arg' });
    for (const on of [undefined, '', 'yes', 'TRUE', ['true']]) {
      expect(refusalOf(NamePublicQuery, { arg: NAME, on }), String(on)).toEqual({ msg: 'on is required: true or false', param: 'on' });
    }
  });

  it('the IPNS list page: limit 1..1000 (10), start >= 0 (0), as digits; limit checked first', () => {
    expect(requestInput(NamePageQuery, {})).toEqual({ limit: 10, start: 0 });
    expect(requestInput(NamePageQuery, { limit: '', start: '' })).toEqual({ limit: 10, start: 0 });
    expect(requestInput(NamePageQuery, { limit: '1000', start: '999999999999999' })).toEqual({ limit: 1000, start: 999_999_999_999_999 });
    expect(requestInput(NamePageQuery, { limit: '007' }).limit).toBe(7);
    for (const limit of ['0', '1001', '2.5', '-1', 'ten', '1e2', ['5', '6'], '0000000000000010']) {
      expect(refusalOf(NamePageQuery, { limit }), String(limit)).toEqual({ msg: 'limit must be an integer from 1 to 1000', param: 'limit' });
    }
    for (const start of ['-1', '1.5', 'x', '1234567890123456', ['1']]) {
      expect(refusalOf(NamePageQuery, { start }), String(start)).toEqual({ msg: 'start must be a non-negative integer', param: 'start' });
    }
    expect(refusalOf(NamePageQuery, { limit: '0', start: 'x' }).param).toBe('limit');
  });

  it('alias search, the name of a path and the alias body', () => {
    expect(requestInput(AliasSearchQuery, { alias: 'Home' }).alias).toBe('Home');
    expect(refusalOf(AliasSearchQuery, {})).toEqual({ msg: 'alias is required', param: 'alias' });
    expect(refusalOf(AliasSearchQuery, { alias: '' })).toEqual({ msg: 'alias is required', param: 'alias' });
    expect(refusalOf(AliasSearchQuery, { alias: ['a', 'b'] })).toEqual({ msg: 'alias must be a string', param: 'alias' });
    expect(refusalOf(AliasSearchQuery, { alias: 'x'.repeat(257) })).toEqual({ msg: 'alias is longer than 256 characters', param: 'alias' });
    expect(requestInput(NamePathParams, { name: PEER_ID }).name.name).toBe(NAME);
    expect(refusalOf(NamePathParams, { name: 'bad name' })).toEqual({ msg: `name ${NOT_A_NAME}`, param: 'name' });
    expect(requestInput(AliasBody, { name: NAME, alias: 'Work' })).toMatchObject({ name: { name: NAME }, alias: 'Work' });
    expect(requestInput(AliasBody, { name: NAME, alias: null }).alias).toBeNull();
    expect(requestInput(AliasBody, { name: NAME }).alias).toBeNull();
    expect(refusalOf(AliasBody, { alias: 'x' })).toEqual({ msg: 'name is required and must be an IPNS name', param: 'name' });
    expect(refusalOf(AliasBody, { name: 7, alias: 'x' })).toEqual({ msg: 'name is required and must be an IPNS name', param: 'name' });
    expect(refusalOf(AliasBody, { name: NAME, alias: 5 })).toEqual({ msg: 'alias must be a string', param: 'alias' });
  });

  it('name/import: the stated name (absent or empty: the key’s own), value, seq, alias, format, secret_key', () => {
    const base = { name: PEER_ID, value: CID, secret_key: 'PEM', format: 'pem-pkcs8-cleartext' };
    const input = requestInput(NameImportBody, { ...base, seq: 4, alias: 'a' });
    expect({ ...input, value: input.value.toString(), stated: input.stated?.name }).toEqual({
      stated: NAME,
      value: CID,
      seq: 4,
      alias: 'a',
      secretKey: { text: 'PEM', format: 'pem-pkcs8-cleartext' },
    });
    const { name: _name, ...unnamed } = base;
    expect(requestInput(NameImportBody, unnamed)).toMatchObject({ stated: null, seq: 0, alias: null });
    expect(requestInput(NameImportBody, { ...base, name: '' }).stated).toBeNull();
    expect(requestInput(NameImportBody, { ...base, seq: null, format: 'libp2p-protobuf-cleartext' })).toMatchObject({
      seq: 0,
      secretKey: { format: 'libp2p-protobuf-cleartext' },
    });
    expect(requestInput(NameImportBody, { ...base, seq: Number.MAX_SAFE_INTEGER - 1 }).seq).toBe(Number.MAX_SAFE_INTEGER - 1);
    const refusals: [Record<string, unknown>, Refusal][] = [
      [{ name: null }, { msg: 'name is required and must be an IPNS name', param: 'name' }],
      [{ name: 7 }, { msg: 'name is required and must be an IPNS name', param: 'name' }],
      [{ name: 'k51-not-a-name' }, { msg: `name ${NOT_A_NAME}`, param: 'name' }],
      [{ value: undefined }, { msg: 'value is required and must be a CID', param: 'value' }],
      [{ value: 'nope' }, { msg: 'value is not a valid CID', param: 'value' }],
      [{ seq: -1 }, { msg: 'seq must be a non-negative integer', param: 'seq' }],
      [{ seq: 1.5 }, { msg: 'seq must be a non-negative integer', param: 'seq' }],
      [{ seq: '3' }, { msg: 'seq must be a non-negative integer', param: 'seq' }],
      [{ seq: Number.MAX_SAFE_INTEGER }, { msg: 'seq must be a non-negative integer', param: 'seq' }],
      [{ alias: ['x'] }, { msg: 'alias must be a string', param: 'alias' }],
      [{ alias: 'x'.repeat(257) }, { msg: 'alias is longer than 256 characters', param: 'alias' }],
      [{ format: 'pem' }, { msg: 'format must be one of pem-pkcs8-cleartext, libp2p-protobuf-cleartext', param: 'format' }],
      [{ format: undefined }, { msg: 'format must be one of pem-pkcs8-cleartext, libp2p-protobuf-cleartext', param: 'format' }],
      [{ secret_key: '' }, { msg: 'secret_key is required', param: 'secret_key' }],
      [{ secret_key: ' \n' }, { msg: 'secret_key is required', param: 'secret_key' }],
      [{ secret_key: 42 }, { msg: 'secret_key is required', param: 'secret_key' }],
      [{ secret_key: 'A'.repeat(16 * 1024 + 1) }, { msg: 'secret_key is too long', param: 'secret_key' }],
      // Several faults: the stated name, value, seq and alias before the key's format and text.
      [
        { value: 'nope', seq: -1, format: 'pem' },
        { msg: 'value is not a valid CID', param: 'value' },
      ],
      [
        { seq: -1, alias: 5, secret_key: '' },
        { msg: 'seq must be a non-negative integer', param: 'seq' },
      ],
      [
        { format: 'pem', secret_key: '' },
        { msg: 'format must be one of pem-pkcs8-cleartext, libp2p-protobuf-cleartext', param: 'format' },
      ],
    ];
    for (const [patch, refusal] of refusals) expect(refusalOf(NameImportBody, { ...base, ...patch }), JSON.stringify(patch).slice(0, 80)).toEqual(refusal);
  });
});
