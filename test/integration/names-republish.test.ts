import { rm } from 'node:fs/promises';
import { unmarshalIPNSRecord } from 'ipns';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, type PinfoldApp } from '../../main/app/create-app.js';
import { unixSeconds, type Clock } from '../../main/base/clock.js';
import { testConfig } from '../helpers/test-network.js';
import { parseRfc3339Ms, RECORD_LIFETIME_MS } from '../../main/names/records.js';
import { makeTempDir } from '../helpers/test-server.js';
import { suiteDatabase } from '../helpers/suite-database.js';
import { until } from '../helpers/until.js';
import { ownerKeyOf } from '../helpers/owner-key.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const CID = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';

/** A clock the test moves; it starts at the real time, since the ipns validator also reads the real clock. */
function movableClock(): Clock & { set(ms: number): void } {
  let now = Math.ceil(Date.now() / 1000) * 1000;
  return { nowMs: () => now, set: (ms) => void (now = ms) };
}

/** A signed request at the app's own clock (its `ts` window follows that clock, not the machine's). */
async function request(app: PinfoldApp, url: string, method: string, path: string, query: Record<string, string>): Promise<Response> {
  const params = new URLSearchParams({ ...query, ts: String(app.nowSeconds()) });
  return fetch(`${url}${path}?${params.toString()}`, {
    method,
    headers: { 'X-Access-Key': ownerKeyOf(app).access_key, 'X-Access-Secret': ownerKeyOf(app).access_secret },
  });
}

async function servedRecord(app: PinfoldApp, url: string, name: string): Promise<{ value: string; sequence: bigint; validUntilMs: number }> {
  const response = await request(app, url, 'GET', `/ipns/${name}`, { format: 'ipns-record' });
  expect(response.status).toBe(200);
  const record = unmarshalIPNSRecord(new Uint8Array(await response.arrayBuffer()));
  return { value: record.value, sequence: record.sequence, validUntilMs: parseRfc3339Ms(record.validity) ?? 0 };
}

describe('IPNS records are republished ahead of expiry (contract section 7)', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('a server started when a record has less than half its year left republishes it at once: same value and sequence, a fresh year', async () => {
    const dataDir = await makeTempDir();
    dirs.push(dataDir);
    const clock = movableClock();
    const start = clock.nowMs();
    const config = testConfig({ port: 0, dataDir, ...(await suiteDatabase(dataDir)) });

    const first = await createApp({ config, clock, env: {} });
    let name: string;
    try {
      const url = await first.listen();
      const created = await request(first, url, 'POST', '/api/v0/name/create', { arg: CID });
      expect(created.status).toBe(200);
      name = ((await created.json()) as { data: { name: string } }).data.name;
      expect((await servedRecord(first, url, name)).validUntilMs).toBe(start + RECORD_LIFETIME_MS);
    } finally {
      await first.close();
    }

    // Seven months later (unixSeconds of the clock moves with it, so requests stay within the ts window).
    clock.set(start + 210 * DAY_MS);
    const second = await createApp({ config, clock, env: {} });
    try {
      const url = await second.listen();
      expect(unixSeconds(clock)).toBe(second.nowSeconds());
      const fresh = await until('the record to be republished', async () => {
        const record = await servedRecord(second, url, name);
        return record.validUntilMs > start + RECORD_LIFETIME_MS ? record : undefined;
      });
      expect(fresh).toEqual({ value: `/ipfs/${CID}`, sequence: 0n, validUntilMs: clock.nowMs() + RECORD_LIFETIME_MS });
    } finally {
      await second.close();
    }
  });
});
