import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createName, importName, publishName } from './name-requests.js';
import { importNameKey } from '../../../main/names/keys.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { fixture, fixtureJson } from '../../helpers/fixtures.js';
import { SQLITE_QUERIES } from '../../../main/store/db/queries.js';

const { nameByName } = SQLITE_QUERIES.names;

let t: TestDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

/** The database file and its WAL, as bytes on disk right now. */
function bytesOnDisk(): Buffer {
  const parts = [t.path, `${t.path}-wal`, `${t.path}-journal`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
  return Buffer.concat(parts);
}

describe('private keys at rest', () => {
  it('never reach the SQLite file or its WAL in the clear', async () => {
    const ctx = namesContext(t.db);
    const account = addAccount(t.db);
    const keys = fixtureJson<{ id: string; derived_libp2p_private_key_protobuf_hex?: string }[]>('keys.json');
    const edHex = keys.find((k) => k.id === 'kubo-openssl-ed25519')?.derived_libp2p_private_key_protobuf_hex ?? '';
    const rsaHex = keys.find((k) => k.id === 'kubo-openssl-rsa')?.derived_libp2p_private_key_protobuf_hex ?? '';
    const edPem = fixture('kubo/test/cli/testdata/openssl_ed25519.pem').toString('utf8');
    const rsaPem = fixture('kubo/test/cli/testdata/openssl_rsa.pem').toString('utf8');

    await importName(ctx, account, {
      name: '12D3KooWAcekXpuJjXdXUVKvtjYsa2WAY7hF5hX4csqGe4S434R6',
      value: 'bafkqabtimvwgy3yk',
      secret_key: edPem,
      format: 'pem-pkcs8-cleartext',
    });
    await importName(ctx, account, {
      name: 'QmWqgbBdPWDUnqDWey5RoRbg98bEciLkoFwLg76xctpKgJ',
      value: 'bafkqabtimvwgy3yk',
      secret_key: Buffer.from(rsaHex, 'hex').toString('base64'),
      format: 'libp2p-protobuf-cleartext',
    });
    const created = await createName(ctx, account, 'bafkqabtimvwgy3yk');
    await publishName(ctx, account, created.name, 'bafkqaf3imvwgy3zaneqgc3janfxgy2lomvscay3jmqfa');

    // Secrets to look for: raw key material and every text form a client could have sent.
    const ed = Buffer.from(edHex, 'hex');
    const rsa = Buffer.from(rsaHex, 'hex');
    const rsaKey = await importNameKey({ text: rsaPem, format: 'pem-pkcs8-cleartext' });
    const createdRow = nameByName(t.db, created.name);
    if (createdRow === null) throw new Error('row missing');
    const createdSeed = Buffer.from(
      (await import('../../../main/names/keys.js')).openNameKey(ctx.sealedBox, created.name, createdRow.keySealed).raw.subarray(0, 32),
    );
    const needles: [string, Buffer][] = [
      ['ed25519 seed', ed.subarray(4, 36)],
      ['ed25519 protobuf', ed],
      ['ed25519 pem body', Buffer.from(edPem.split('\n')[1] ?? '', 'utf8')],
      ['rsa pkcs1', rsa.subarray(4)],
      ['rsa private exponent chunk', Buffer.from(rsaKey.raw).subarray(300, 364)],
      ['rsa protobuf base64', Buffer.from(rsa.toString('base64').slice(0, 64), 'utf8')],
      ['rsa pem line', Buffer.from(rsaPem.split('\n')[5] ?? '', 'utf8')],
      ['created seed', createdSeed],
    ];
    expect(existsSync(`${t.path}-wal`)).toBe(true);
    for (const state of ['before checkpoint', 'after checkpoint']) {
      const disk = bytesOnDisk();
      expect(disk.length).toBeGreaterThan(4096);
      for (const [label, needle] of needles) {
        expect(needle.length, label).toBeGreaterThanOrEqual(32);
        expect(disk.includes(needle), `${label} ${state}`).toBe(false);
      }
      // The public parts are there: proves the search looks at the right bytes.
      expect(disk.includes(Buffer.from(created.name, 'utf8')), state).toBe(true);
      t.db.pragma('wal_checkpoint(TRUNCATE)');
    }
  });
});
