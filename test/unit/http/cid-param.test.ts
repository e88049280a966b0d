import { describe, expect, it } from 'vitest';
import { tryParseCid } from '../../../main/base/cid-text.js';
import { parseCidParam } from '../../../main/http/cid-param.js';

const V1 = 'bafybeiczsscdsbs7ffqz55asqdf3smv6klcw3gofszvwlyarci47bgf354';
const V0 = 'QmZULkCELmmk5XNfCgTnCyFgAVxBRBXyDHGGMVoLFLiXEN';
const BASE16 = `f${Buffer.from(parseCidParam(V1, 'x').bytes).toString('hex')}`;
const LONG = `b${'a'.repeat(600)}`;

describe('one CID parser, each API with its own rule and words', () => {
  it('standard (gateway, pins, DAG): CID.parse spellings, no trimming, at most 512 characters', () => {
    expect(parseCidParam(V1, 'arg').toString()).toBe(V1);
    expect(parseCidParam(V0, 'arg').toString()).toBe(V0);
    expect(() => parseCidParam(BASE16, 'arg')).toThrow(`arg is not a valid CID: ${BASE16.slice(0, 100)}`);
    expect(() => parseCidParam(` ${V1}`, 'arg')).toThrow(/^arg is not a valid CID: /);
    expect(() => parseCidParam('', 'arg')).toThrow('arg is required (a CID)');
    expect(() => parseCidParam(7, 'cid')).toThrow('cid is required (a CID)');
    expect(() => parseCidParam(LONG, 'cid')).toThrow(/^cid is not a valid CID$/);
  });

  it('ipns (the IPNS API): any multibase, white space trimmed', () => {
    expect(parseCidParam(BASE16, 'arg', 'ipns').toString()).toBe(V1);
    expect(parseCidParam(` ${V1}\n`, 'arg', 'ipns').toString()).toBe(V1);
    expect(() => parseCidParam('  ', 'arg', 'ipns')).toThrow('arg is required and must be a CID');
    expect(() => parseCidParam('nope', 'value', 'ipns')).toThrow(/^value is not a valid CID$/);
    expect(() => parseCidParam(LONG, 'value', 'ipns')).toThrow(/^value is not a valid CID$/);
  });

  it('folder-body (a folder operation): CID.parse spellings, the field named with a colon', () => {
    expect(parseCidParam(V1, 'cid', 'folder-body').toString()).toBe(V1);
    expect(() => parseCidParam(null, 'cid', 'folder-body')).toThrow('cid: must be a CID string');
    expect(() => parseCidParam('zzz', 'add[0] cid', 'folder-body')).toThrow('add[0] cid: "zzz" is not a valid CID');
    expect(() => parseCidParam(BASE16, 'cid', 'folder-body')).toThrow(/is not a valid CID/);
  });

  it('tryParseCid (record and DNSLink values) reads any multibase and nothing over 512 characters', () => {
    expect(tryParseCid(BASE16)?.toString()).toBe(V1);
    expect(tryParseCid(V0)?.toString()).toBe(V0);
    expect(tryParseCid('')).toBeUndefined();
    expect(tryParseCid(LONG)).toBeUndefined();
  });
});
