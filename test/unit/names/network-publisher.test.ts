import { unmarshalIPNSRecord } from 'ipns';
import { base36 } from 'multiformats/bases/base36';
import type { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../main/base/logger.js';
import type { NamesContext } from '../../../main/names/context.js';
import { createNetworkPublisher, MIN_PUT_INTERVAL_MS, NETWORK_REFRESH_MS, type NetworkPublisher } from '../../../main/names/network-publisher.js';
import { setNamePublic } from '../../../main/names/public-names.js';
import { parseRfc3339Ms } from '../../../main/names/records.js';
import { republishDueNames } from '../../../main/names/republish.js';
import { tryParseIpnsName } from '../../../main/names/name-parse.js';
import { sqliteStore } from '../../../main/store/db/sqlite-store.js';
import type { RoutingClient } from '../../../main/network/routing.js';
import { createName, publishName, removeName } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';
import { manualClock } from '../../helpers/manual-clock.js';
import { deferred } from '../../helpers/deferred.js';

const CID_A = 'bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am';
const CID_B = 'bafybeig6ka5mlwkl4subqhaiatalkcleo4jgnr3hqwvpmsqfca27cijp3i';
const LIFETIME_MS = 60 * 60_000;
const MARGIN_MS = 20 * 60_000;

/** Timers on the test's clock: they run when the test fires them, once their time has come. */
function clockTimers(clock: { nowMs(): number }) {
  const timers = new Set<{ at: number; run: () => void }>();
  return {
    set(run: () => void, ms: number) {
      const timer = { at: clock.nowMs() + ms, run };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    /** Runs every timer that is due now. */
    fire() {
      for (const timer of [...timers]) {
        if (timer.at > clock.nowMs()) continue;
        timers.delete(timer);
        timer.run();
      }
    },
  };
}

/** A routing client whose endpoint answers as the test says, recording each record put. */
function recordingRouting() {
  const puts: { name: string; sequence: bigint; validUntilMs: number }[] = [];
  let failuresLeft = 0;
  const routing: Pick<RoutingClient, 'putRecord'> = {
    async putRecord(name: CID, record: Uint8Array) {
      const parsed = unmarshalIPNSRecord(record);
      puts.push({ name: name.toString(base36), sequence: parsed.sequence, validUntilMs: parseRfc3339Ms(parsed.validity) ?? 0 });
      if (failuresLeft > 0) {
        failuresLeft--;
        return { accepted: [], failed: [{ endpoint: 'http://routing.test', reason: 'status 503' }] };
      }
      return { accepted: ['http://routing.test'], failed: [] };
    },
  };
  return {
    routing,
    puts,
    failNext(times: number) {
      failuresLeft = times;
    },
  };
}

let t: TestDb;
let clock: ReturnType<typeof manualClock>;
let timers: ReturnType<typeof clockTimers>;
let endpoint: ReturnType<typeof recordingRouting>;
let publisher: NetworkPublisher;
let ctx: NamesContext;
let alice: number;

beforeEach(() => {
  t = tempDb();
  // The ipns validator reads the real clock too: start at the real time, on a whole second.
  clock = manualClock(Math.ceil(Date.now() / 1000) * 1000);
  timers = clockTimers(clock);
  endpoint = recordingRouting();
  publisher = createNetworkPublisher({
    names: sqliteStore(t.db).names,
    routing: endpoint.routing,
    clock,
    logger: silentLogger,
    retryFirstMs: 1000,
    retryMaxMs: 4000,
    setTimer: (run, ms) => timers.set(run, ms),
  });
  ctx = namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS, network: publisher });
  alice = addAccount(t.db);
});
afterEach(async () => {
  await publisher.close();
  t.cleanup();
});

async function makePublic(name: string, on = true): Promise<void> {
  const parsed = tryParseIpnsName(name);
  if (parsed === undefined) throw new Error(`bad name ${name}`);
  await setNamePublic(ctx, alice, parsed, on);
  await publisher.idle();
}

/** Moves the clock, runs what fell due, and waits for the puts it started. */
async function advance(ms: number): Promise<void> {
  clock.advance(ms);
  timers.fire();
  await publisher.idle();
}

describe('public names reach the routing endpoints (contract section 11)', () => {
  it('puts nothing for a private name; a name made public has its record put at once, and every new record after', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await publishName(ctx, alice, name, CID_B);
    await publisher.idle();
    expect(endpoint.puts).toEqual([]);

    await makePublic(name);
    expect(endpoint.puts.map((put) => [put.name, put.sequence])).toEqual([[name, 1n]]);
    await advance(MIN_PUT_INTERVAL_MS);
    await publishName(ctx, alice, name, CID_A);
    await publisher.idle();
    expect(endpoint.puts.map((put) => put.sequence)).toEqual([1n, 2n]);
  });

  it('puts only the latest of a burst of publishes, once the interval since the last put has passed', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    await makePublic(name);
    for (const cid of [CID_B, CID_A, CID_B]) await publishName(ctx, alice, name, cid);
    await publisher.idle();
    expect(endpoint.puts.map((put) => put.sequence)).toEqual([0n]);
    await advance(MIN_PUT_INTERVAL_MS - 1000);
    expect(endpoint.puts).toHaveLength(1);
    await advance(1000);
    expect(endpoint.puts.map((put) => put.sequence)).toEqual([0n, 3n]);
  });

  it('retries a refused put with growing backoff until it is accepted, then waits for the refresh', async () => {
    const { name } = await createName(ctx, alice, CID_A);
    endpoint.failNext(3);
    await makePublic(name);
    expect(endpoint.puts).toHaveLength(1);
    // Backoff 1 s, 2 s, 4 s (with up to a quarter less of jitter): nothing before its time.
    await advance(500);
    expect(endpoint.puts).toHaveLength(1);
    await advance(500);
    expect(endpoint.puts).toHaveLength(2);
    await advance(2000);
    expect(endpoint.puts).toHaveLength(3);
    await advance(4000);
    expect(endpoint.puts).toHaveLength(4);
    // Accepted: the next put is the refresh, hours away.
    await advance(60_000);
    expect(endpoint.puts).toHaveLength(4);
  });

  it('puts a re-signed record when its validity runs low, and the same record again before the network forgets it', async () => {
    const start = clock.nowMs();
    const { name } = await createName(ctx, alice, CID_A);
    await makePublic(name);
    expect(endpoint.puts).toHaveLength(1);

    // The record (valid an hour here) comes within the republish margin: re-signed, and the new one put at once.
    clock.set(start + LIFETIME_MS - MARGIN_MS + 1000);
    const pass = await republishDueNames(ctx, silentLogger);
    expect(pass.republished).toBe(1);
    await publisher.idle();
    expect(endpoint.puts).toHaveLength(2);
    expect(endpoint.puts[1]?.sequence).toBe(0n);
    expect(endpoint.puts[1]?.validUntilMs).toBe(clock.nowMs() + LIFETIME_MS);

    // Unchanged, it is put again every refresh period all the same.
    await advance(NETWORK_REFRESH_MS - 1000);
    expect(endpoint.puts).toHaveLength(2);
    await advance(1000);
    expect(endpoint.puts).toHaveLength(3);
    expect(endpoint.puts[2]).toEqual(endpoint.puts[1]);
  });

  it('stops putting a name made private or removed', async () => {
    const kept = (await createName(ctx, alice, CID_A)).name;
    const privateAgain = (await createName(ctx, alice, CID_A)).name;
    const removed = (await createName(ctx, alice, CID_A)).name;
    for (const name of [kept, privateAgain, removed]) await makePublic(name);
    expect(endpoint.puts).toHaveLength(3);
    await makePublic(privateAgain, false);
    await removeName(ctx, alice, removed);
    await publishName(ctx, alice, privateAgain, CID_B);
    await advance(NETWORK_REFRESH_MS);
    expect(endpoint.puts.slice(3).map((put) => put.name)).toEqual([kept]);
  });

  it('puts every public name at start (publishAll)', async () => {
    const first = (await createName(ctx, alice, CID_A)).name;
    const second = (await createName(ctx, alice, CID_A)).name;
    await createName(ctx, alice, CID_A);
    await makePublic(first);
    await makePublic(second);
    endpoint.puts.length = 0;

    // A fresh publisher, as after a restart: it knows nothing due until publishAll reads the public names.
    await publisher.close();
    publisher = createNetworkPublisher({
      names: sqliteStore(t.db).names,
      routing: endpoint.routing,
      clock,
      logger: silentLogger,
      setTimer: (run, ms) => timers.set(run, ms),
    });
    ctx = namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS, network: publisher });
    await publisher.publishAll();
    await publisher.idle();
    expect(endpoint.puts.map((put) => put.name).sort()).toEqual([first, second].sort());
  });

  it('puts a record that came while the put of the one before was under way, after it', async () => {
    const gate = deferred();
    const sequences: bigint[] = [];
    await publisher.close();
    publisher = createNetworkPublisher({
      names: sqliteStore(t.db).names,
      routing: {
        async putRecord(_name, record) {
          sequences.push(unmarshalIPNSRecord(record).sequence);
          if (sequences.length === 1) await gate.promise;
          return { accepted: ['http://routing.test'], failed: [] };
        },
      },
      clock,
      logger: silentLogger,
      setTimer: (run, ms) => timers.set(run, ms),
    });
    ctx = namesContext(t.db, { clock, recordLifetimeMs: LIFETIME_MS, republishMarginMs: MARGIN_MS, network: publisher });
    const { name } = await createName(ctx, alice, CID_A);
    const parsed = tryParseIpnsName(name);
    if (parsed === undefined) throw new Error('bad name');
    await setNamePublic(ctx, alice, parsed, true);
    expect(sequences).toEqual([0n]);
    await publishName(ctx, alice, name, CID_B);
    gate.resolve();
    await publisher.idle();
    // Its put counted for sequence 0 only: sequence 1 is still due, at the interval.
    await advance(MIN_PUT_INTERVAL_MS);
    expect(sequences).toEqual([0n, 1n]);
    await advance(NETWORK_REFRESH_MS - 1000);
    expect(sequences).toEqual([0n, 1n]);
  });
});
