import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEgressMeter, type EgressMeter } from '../../../main/accounts/egress-meter.js';
import type { Transaction } from '../../../main/store/repositories/index.js';
import { insertTestAccount } from '../../helpers/account-rows.js';
import { REPOSITORY_ENGINES, type EngineDatabase } from '../../helpers/repository-engines.js';
import { deferred } from '../../helpers/deferred.js';

/**
 * The egress meter over each engine's store: stats add the meter's pending bytes to the usage row, so a
 * byte must be in exactly one of them at any moment a reader can see, also while PostgreSQL takes real
 * time to commit a flush (issue 16: the integration suite counted egress twice or not at all there).
 */
describe.each(REPOSITORY_ENGINES.map((make) => [make().name, make] as const))('the egress meter on %s', (_name, make) => {
  const engine = make();
  let database: EngineDatabase;
  let accountId: number;
  let meter: EgressMeter | undefined;
  /** Opens a held write's gate: a case that failed half-way must not keep its flush (and the close) waiting. */
  let releaseGate = (): void => undefined;
  beforeAll(() => engine.start());
  afterAll(() => engine.stop());
  beforeEach(async () => {
    database = await engine.open();
    accountId = await insertTestAccount(database);
  });
  afterEach(async () => {
    releaseGate();
    await meter?.close();
    meter = undefined;
    await database.close();
  });

  /** A meter whose writes wait at `gate` once they have begun (`entered`); no timer flush in the test's time. */
  function heldMeter(gate: Promise<void>, entered: () => void, fail = false): EgressMeter {
    const write = async (tx: Transaction, id: number, bytes: number): Promise<void> => {
      entered();
      await gate;
      if (fail) throw new Error('injected write failure');
      await tx.usage.addUsage(id, 'egress', bytes);
    };
    return createEgressMeter(database.store, write, () => undefined, 3_600_000);
  }

  const egressWritten = async (): Promise<number> => (await database.store.usage.usageOf(accountId)).egress;

  it('keeps bytes pending until their flush has committed; a read waits for the commit and counts each byte once', async () => {
    const gate = deferred();
    releaseGate = gate.resolve;
    const entered = deferred();
    meter = heldMeter(gate.promise, entered.resolve);
    const held = meter;
    held.add(accountId, 100);
    const flushed = held.flush();
    await entered.promise;
    // Mid-flush, not committed: still pending (SQLite's other calls wait for its open transaction, so no row read here).
    expect(held.pending(accountId)).toBe(100);

    let readStarted = false;
    const read = held.reading(async () => {
      readStarted = true;
      return (await database.store.usage.usageOf(accountId)).egress + held.pending(accountId);
    });
    // A free lock would have started the read at once: it waits for the flush to commit.
    expect(readStarted).toBe(false);
    held.add(accountId, 5);
    gate.resolve();
    await flushed;
    expect(await read).toBe(105);
    expect(held.pending(accountId)).toBe(5);
    expect(await egressWritten()).toBe(100);
  });

  it('a failed flush leaves its bytes pending, counted once, for the next flush', async () => {
    const gate = deferred();
    gate.resolve();
    const failing = heldMeter(gate.promise, () => undefined, true);
    failing.add(accountId, 40);
    await expect(failing.flush()).rejects.toThrow(/injected write failure/);
    expect(failing.pending(accountId)).toBe(40);
    expect(await egressWritten()).toBe(0);
    await failing.close().catch(() => undefined);

    meter = heldMeter(gate.promise, () => undefined);
    meter.add(accountId, 40);
    await meter.flush();
    expect(meter.pending(accountId)).toBe(0);
    expect(await egressWritten()).toBe(40);
  });
});
