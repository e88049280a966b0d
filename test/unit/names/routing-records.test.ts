import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BadInputError, ConflictError, NotFoundError } from '../../../main/base/errors.js';
import { InvalidRecordError } from '../../../main/names/records.js';
import { resolveName } from '../../../main/names/resolver.js';
import { nameOfRecordFile } from '../../../main/names/routing-records.js';
import { createName, putRoutingRecord, removeRoutingRecord } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb, CLOCK_START_MS } from './helpers.js';
import { fixture, fixtureJson, fixturesDir } from '../../helpers/fixtures.js';
import { manualClock } from '../../helpers/manual-clock.js';

interface Vector {
  file: string;
  ipns_name_base36: string;
  value: string;
  ttl_ns: string;
  expected_validation: string;
}

const vectors = fixtureJson<Vector[]>('ipns-vectors.json');

let t: TestDb;
beforeEach(() => {
  t = tempDb();
});
afterEach(() => t.cleanup());

function recordFiles(): string[] {
  const root = join(fixturesDir, 'gateway-conformance', 'fixtures');
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ipns-record'))
    .map((path) => join('gateway-conformance', 'fixtures', path));
}

describe('third-party records (offline routing)', () => {
  it('serves every fixture record: valid ones resolve to their value, broken ones fail as 5xx with the reason', async () => {
    const ctx = namesContext(t.db);
    const files = recordFiles();
    expect(files.length).toBe(vectors.length);
    for (const file of files) {
      const vector = vectors.find((v) => file.endsWith(v.file.split('/').pop() ?? '?'));
      if (vector === undefined) throw new Error(`no vector for ${file}`);
      const name = nameOfRecordFile(file);
      const bytes = fixture(file);
      const check = await putRoutingRecord(ctx, name, bytes);
      expect(check.name).toBe(vector.ipns_name_base36);
      if (vector.expected_validation.startsWith('VALID')) {
        expect(check.ok, file).toBe(true);
        const resolution = await resolveName(ctx, name);
        expect(`/ipfs/${resolution.cid.toString()}`).toBe(vector.value);
        expect(resolution.ttlSeconds).toBe(Number(BigInt(vector.ttl_ns) / 1_000_000_000n));
        expect(Buffer.from(resolution.record ?? []).equals(bytes)).toBe(true);
        expect(await resolveName(ctx, vector.ipns_name_base36)).toBe(await resolveName(ctx, vector.ipns_name_base36));
      } else {
        expect(check.ok, file).toBe(false);
        const expected = file.includes('broken') ? 'v1-v2-mismatch' : 'v1-only';
        expect(check.ok === false && check.reason).toBe(expected);
        const error = await resolveName(ctx, name).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidRecordError);
        expect((error as InvalidRecordError).reason).toBe(expected);
        expect((error as InvalidRecordError).code).toBe('internal');
      }
    }
  });

  it('names record files by their prefix up to the first underscore', () => {
    expect(nameOfRecordFile('a/b/k51abc_v1-v2.ipns-record')).toBe('k51abc');
    expect(nameOfRecordFile('12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d.ipns-record')).toBe('12D3KooWLQzUv2FHWGVPXTXSZpdHs7oHbXub2G5WC8Tx4NQhyd2d');
  });

  it('persists records across restarts and expires them on the clock', async () => {
    const clock = manualClock(CLOCK_START_MS);
    const vector = vectors.find((v) => v.file.endsWith('_v2.ipns-record'));
    if (vector === undefined) throw new Error('vector missing');
    await putRoutingRecord(namesContext(t.db, { clock }), vector.ipns_name_base36, fixture(vector.file));
    const restarted = namesContext(t.db, { clock });
    expect((await resolveName(restarted, vector.ipns_name_base36)).value).toBe(vector.value);
    clock.set(Date.parse('2123-08-14T12:17:04Z'));
    const error = await resolveName(restarted, vector.ipns_name_base36).catch((e: unknown) => e);
    expect((error as InvalidRecordError).reason).toBe('expired');
    expect(await removeRoutingRecord(restarted, vector.ipns_name_base36)).toBe(true);
    await expect(resolveName(restarted, vector.ipns_name_base36)).rejects.toThrow(NotFoundError);
  });

  it('refuses bad names, empty or oversize records, and names an account holds', async () => {
    const ctx = namesContext(t.db);
    const bytes = fixture(vectors[1]?.file ?? '');
    await expect(putRoutingRecord(ctx, 'nope', bytes)).rejects.toThrow(BadInputError);
    await expect(putRoutingRecord(ctx, vectors[1]?.ipns_name_base36, new Uint8Array())).rejects.toThrow(BadInputError);
    await expect(putRoutingRecord(ctx, vectors[1]?.ipns_name_base36, new Uint8Array(10 * 1024 + 1))).rejects.toThrow(BadInputError);
    const { name } = await createName(ctx, addAccount(t.db), 'bafkqabtimvwgy3yk');
    await expect(putRoutingRecord(ctx, name, bytes)).rejects.toThrow(ConflictError);
    await expect(resolveName(ctx, vectors[1]?.ipns_name_base36 ?? '')).rejects.toThrow(NotFoundError);
  });
});
