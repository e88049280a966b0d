/** The pure logic of the Names page: what a key file holds, and how a name is called. */
import { describe, expect, it } from 'vitest';
import { describeKeyFormat, MAX_KEY_FILE_BYTES, readKeyFile } from '../../../renderer/pages/names/key-file.js';
import { nameLabel } from '../../../renderer/pages/names/name-label.js';
import { fixture, fixtureKey } from '../../integration/names-helpers.js';

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
