/** The pure logic of the Names page: what a key file holds, how a name is called, and the search box. */
import { describe, expect, it } from 'vitest';
import { describeKeyFormat, MAX_KEY_FILE_BYTES, readKeyFile } from '../../../renderer/pages/names/key-file.js';
import { nameLabel } from '../../../renderer/pages/names/name-label.js';
import { describeNameView, nameListQuery, nameSearch, nameSearchParams, nameSearchText, searchOfNameQuery } from '../../../renderer/pages/names/name-search.js';
import { matchesNameQuery } from '../../../renderer/data/names.js';
import { ipnsNameOfText } from '../../../renderer/lib/ipns-name-text.js';
import { tryParseIpnsName } from '../../../main/names/name-parse.js';
import { CID } from 'multiformats/cid';
import { base32 } from 'multiformats/bases/base32';
import { fixtureKey, fixtureKeys } from '../../helpers/fixture-keys.js';
import { fixture } from '../../helpers/fixtures.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('readKeyFile', () => {
  it('reads a PEM PKCS#8 file as PEM text, whatever surrounds the block', () => {
    const pem = fixtureKey('kubo-openssl-ed25519').pem ?? '';
    const block = /-----BEGIN PRIVATE KEY-----[\s\S]*?-----END PRIVATE KEY-----/.exec(pem)?.[0] ?? '';
    expect(readKeyFile(text(pem))).toEqual({ format: 'pem-pkcs8-cleartext', secretKey: `${block}\n` });
    expect(readKeyFile(text(`my key, made with openssl\r\n${block}\r\n`))).toEqual({ format: 'pem-pkcs8-cleartext', secretKey: `${block}\n` });
    expect(readKeyFile(text(fixture('kubo/test/cli/testdata/openssl_rsa.pem').toString('utf8')))).toMatchObject({ format: 'pem-pkcs8-cleartext' });
  });

  it('reads a libp2p protobuf as its bytes (ipfs key export) or as base64 text, into standard base64', () => {
    const rsa = fixtureKey('kubo-openssl-rsa').protobuf;
    expect(readKeyFile(new Uint8Array(rsa))).toEqual({ format: 'libp2p-protobuf-cleartext', secretKey: rsa.toString('base64') });
    const ed = fixtureKey('js-libp2p-example-ed25519').protobuf;
    const wrapped = ed
      .toString('base64')
      .replace(/(.{40})/g, '$1\n')
      .trim();
    expect(readKeyFile(text(`${wrapped}\n`))).toEqual({ format: 'libp2p-protobuf-cleartext', secretKey: ed.toString('base64') });
  });

  it('refuses what is plainly not a private key, saying what to do', () => {
    expect(readKeyFile(new Uint8Array())).toEqual({ problem: 'This file is empty.' });
    expect(readKeyFile(new Uint8Array(MAX_KEY_FILE_BYTES + 1).fill(8))).toEqual({ problem: 'This file is too large to be a private key.' });
    expect(readKeyFile(text('-----BEGIN ENCRYPTED PRIVATE KEY-----\nabc\n-----END ENCRYPTED PRIVATE KEY-----\n'))).toMatchObject({
      problem: expect.stringContaining('protected by a passphrase') as string,
    });
    expect(readKeyFile(text('-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----\n'))).toEqual({
      problem: 'This file holds a public key, not a private key.',
    });
    expect(readKeyFile(text('-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n'))).toEqual({
      problem: 'This file holds a certificate, not a private key.',
    });
    expect(readKeyFile(text('-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END RSA PRIVATE KEY-----\n'))).toMatchObject({
      problem: expect.stringContaining('openssl pkcs8 -topk8 -nocrypt') as string,
    });
    expect(readKeyFile(text('-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n'))).toMatchObject({
      problem: expect.stringContaining('"OPENSSH PRIVATE KEY"') as string,
    });
    for (const other of [text('just some notes about my keys\n'), text('aGVsbG8gd29ybGQh'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2])]) {
      expect(readKeyFile(other)).toMatchObject({ problem: expect.stringContaining('not a private key Pinfold can read') as string });
    }
  });

  it('describes the formats in words', () => {
    expect(describeKeyFormat('pem-pkcs8-cleartext')).toBe('PEM (PKCS#8) private key');
    expect(describeKeyFormat('libp2p-protobuf-cleartext')).toBe('libp2p private key (protobuf)');
  });
});

describe('nameLabel', () => {
  it('is the alias, or the shortened name', () => {
    expect(nameLabel({ name: 'k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx', alias: 'blog' })).toBe('blog');
    expect(nameLabel({ name: 'k51qzi5uqu5dgh881t0hm6pfpev7wmidy6m8z3fzl4vxajkfkyd5zfjif5dhkx', alias: '' })).toBe('k51qzi5uqu5d…f5dhkx');
  });
});

describe('ipnsNameOfText', () => {
  const keys = fixtureKeys();
  const ed = fixtureKey('js-libp2p-example-ed25519');
  const rsa = fixtureKey('kubo-openssl-rsa');

  it('takes what the service takes as an IPNS name: k51…/k2k4…, another multibase, a peer ID', () => {
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) {
      const base32Name = CID.parse(key.name).toString(base32);
      for (const spelling of [key.name, key.peerId, base32Name]) {
        expect(ipnsNameOfText(spelling), spelling).toBe(spelling);
        expect(tryParseIpnsName(spelling), spelling).toBeDefined();
      }
    }
  });

  it('takes the name out of the addresses people copy', () => {
    for (const address of [`ipns://${ed.name}`, `/ipns/${ed.name}/blog/`, `http://127.0.0.1:5080/ipns/${ed.name}?x=1`, `  ${ed.name}\n`]) {
      expect(ipnsNameOfText(address), address).toBe(ed.name);
    }
    expect(ipnsNameOfText(`ipns://${rsa.peerId}`)).toBe(rsa.peerId);
  });

  it('says no where the service would, to aliases, content CIDs and DNS names', () => {
    for (const text of [
      '',
      'blog',
      'my site',
      'example.com',
      'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
      `${ed.name}x`,
      '12D3KooWnotapeerid',
      'k51'.repeat(90),
    ]) {
      expect(ipnsNameOfText(text), text).toBeNull();
      expect(tryParseIpnsName(text.trim()), text).toBeUndefined();
    }
  });
});

describe('nameSearch', () => {
  const ed = fixtureKey('js-libp2p-example-ed25519');

  it('searches an IPNS name by name and anything else as an alias, trimmed', () => {
    expect(nameSearch('  ')).toEqual({ kind: 'none' });
    expect(nameSearch(` ${ed.name} `)).toEqual({ kind: 'name', name: ed.name });
    expect(nameSearch(`ipns://${ed.peerId}`)).toEqual({ kind: 'name', name: ed.peerId });
    expect(nameSearch(' my blog ')).toEqual({ kind: 'alias', alias: 'my blog' });
    expect(nameSearch('x'.repeat(300))).toEqual({ kind: 'alias', alias: 'x'.repeat(256) });
  });

  it('keeps the search in the URL as ?name= (the ipfs:// deep link) or ?alias=', () => {
    expect(nameSearchParams(ed.name)).toEqual({ name: ed.name, alias: null });
    expect(nameSearchParams('blog')).toEqual({ name: null, alias: 'blog' });
    expect(nameSearchParams('')).toEqual({ name: null, alias: null });
    expect(nameSearchText(new URLSearchParams({ name: ed.name }))).toBe(ed.name);
    expect(nameSearchText(new URLSearchParams({ alias: 'blog' }))).toBe('blog');
    expect(nameSearchText(new URLSearchParams({ page: '2' }))).toBe('');
  });

  it('tells whether a name changed elsewhere still belongs in the list', () => {
    const record = { name: ed.name, alias: 'blog' };
    expect(matchesNameQuery(record, { kind: 'page', start: 0, limit: 25 })).toBe(true);
    expect(matchesNameQuery(record, { kind: 'alias', alias: 'blog' })).toBe(true);
    expect(matchesNameQuery(record, { kind: 'alias', alias: 'Blog' })).toBe(false);
    expect(matchesNameQuery(record, { kind: 'name', name: ed.name })).toBe(true);
  });

  it('asks for the page shown, or for the one name searched for, and reads the search back', () => {
    const position = { start: 50, limit: 25 } as const;
    expect(nameListQuery({ kind: 'none' }, position)).toEqual({ kind: 'page', start: 50, limit: 25 });
    expect(nameListQuery({ kind: 'alias', alias: 'blog' }, position)).toEqual({ kind: 'alias', alias: 'blog' });
    expect(nameListQuery({ kind: 'name', name: ed.name }, position)).toEqual({ kind: 'name', name: ed.name });
    expect(searchOfNameQuery({ kind: 'page', start: 50, limit: 25 })).toEqual({ kind: 'none' });
    expect(searchOfNameQuery({ kind: 'alias', alias: 'blog' })).toEqual({ kind: 'alias', alias: 'blog' });
  });

  it('says what the table shows in words', () => {
    expect(describeNameView({ kind: 'none' }, 1000)).toBe('1,000 names.');
    expect(describeNameView({ kind: 'none' }, 1)).toBe('1 name.');
    expect(describeNameView({ kind: 'name', name: ed.name }, 1)).toBe(`The name ${ed.name.slice(0, 12)}…${ed.name.slice(-6)}.`);
    expect(describeNameView({ kind: 'name', name: ed.name }, 0)).toBe(`No name ${ed.name.slice(0, 12)}…${ed.name.slice(-6)} on this account.`);
    expect(describeNameView({ kind: 'alias', alias: 'blo' }, 0)).toBe(
      'No name has the alias “blo”. An alias matches in full, capitals included; or search by the whole IPNS name.',
    );
    expect(describeNameView({ kind: 'alias', alias: 'blog' }, 1)).toBe('The name with the alias “blog”.');
  });
});
