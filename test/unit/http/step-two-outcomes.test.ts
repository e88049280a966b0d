/**
 * main/http/step-two-outcomes.ts: each step 2 is cancelled or stored, decided once at its commit point, in
 * every order of a cancel, the address's claim, the client going away and the commit (issue 22, item 9).
 */
import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { stepTwoOutcomes, UploadCancelledError } from '../../../main/http/step-two-outcomes.js';
import { deferred } from '../../helpers/deferred.js';

const clock = { nowMs: () => 1_700_000_000_000 };
const EXPIRES = 1_700_000_600;
const CANCELLED = { outcome: 'cancelled', roots: [] };

/** The part of a reply the registry watches: its response, which closes when the connection does. */
function reply(): { reply: FastifyReply; close(): void } {
  const raw = Object.assign(new EventEmitter(), { writableFinished: false });
  return { reply: { raw } as unknown as FastifyReply, close: () => raw.emit('close') };
}

describe('step 2 outcomes', () => {
  it('a cancel before the commit point: the commit point refuses, the outcome is cancelled', async () => {
    const outcomes = stepTwoOutcomes(clock);
    const run = await outcomes.begin('n1', EXPIRES, reply().reply, async () => true);
    expect(await outcomes.cancel('n1', EXPIRES, async () => true)).toEqual(CANCELLED);
    expect(run.signal.aborted).toBe(true);
    expect(() => run.commitPoint()).toThrow(UploadCancelledError);
    outcomes.end('n1');
    expect(await outcomes.cancel('n1', EXPIRES, async () => true)).toEqual(CANCELLED);
  });

  it('a cancel after the commit point waits for the commit, and answers what it stored; a failed commit stored nothing', async () => {
    const outcomes = stepTwoOutcomes(clock);
    const run = await outcomes.begin('n2', EXPIRES, reply().reply, async () => true);
    run.commitPoint();
    const asked = outcomes.cancel('n2', EXPIRES, async () => true);
    run.stored(['bafy-root']);
    outcomes.end('n2');
    expect(await asked).toEqual({ outcome: 'stored', roots: ['bafy-root'] });
    expect(run.signal.aborted).toBe(false);

    const failing = await outcomes.begin('n3', EXPIRES, reply().reply, async () => true);
    failing.commitPoint();
    const waiting = outcomes.cancel('n3', EXPIRES, async () => true);
    failing.rolledBack();
    outcomes.end('n3');
    expect(await waiting).toEqual(CANCELLED);
  });

  it('a client gone before the commit point cancels it; gone after, it does not', async () => {
    const outcomes = stepTwoOutcomes(clock);
    const early = reply();
    const run = await outcomes.begin('n4', EXPIRES, early.reply, async () => true);
    early.close();
    expect(run.signal.aborted).toBe(true);
    expect(() => run.commitPoint()).toThrow(/client went away/);
    outcomes.end('n4');
    expect(await outcomes.cancel('n4', EXPIRES, async () => true)).toEqual(CANCELLED);

    const late = reply();
    const committed = await outcomes.begin('n5', EXPIRES, late.reply, async () => true);
    committed.commitPoint();
    late.close();
    committed.stored(['bafy-kept']);
    outcomes.end('n5');
    expect(await outcomes.cancel('n5', EXPIRES, async () => true)).toEqual({ outcome: 'stored', roots: ['bafy-kept'] });
  });

  it('a cancel racing the claim waits for it: claimed here, the step 2 is refused as cancelled; claimed elsewhere, unknown', async () => {
    const outcomes = stepTwoOutcomes(clock);
    const claim = deferred<boolean>();
    const starting = outcomes.begin('n6', EXPIRES, reply().reply, () => claim.promise);
    const asked = outcomes.cancel('n6', EXPIRES, async () => {
      throw new Error('the address is this step 2’s to claim');
    });
    claim.resolve(true);
    await expect(starting).rejects.toThrow('upload address was cancelled');
    expect(await asked).toEqual(CANCELLED);

    const elsewhere = deferred<boolean>();
    const replay = outcomes.begin('n7', EXPIRES, reply().reply, () => elsewhere.promise);
    const unknown = outcomes.cancel('n7', EXPIRES, async () => false);
    elsewhere.resolve(false);
    await expect(replay).rejects.toThrow('upload address was already used');
    expect(await unknown).toEqual({ outcome: 'unknown', roots: [] });
  });

  it('a cancel before the step 2 came claims the address: the step 2 is refused; an address used elsewhere is unknown', async () => {
    const outcomes = stepTwoOutcomes(clock);
    expect(await outcomes.cancel('n8', EXPIRES, async () => true)).toEqual(CANCELLED);
    await expect(outcomes.begin('n8', EXPIRES, reply().reply, async () => true)).rejects.toThrow('upload address was cancelled');
    expect(await outcomes.cancel('n9', EXPIRES, async () => false)).toEqual({ outcome: 'unknown', roots: [] });
    // A replay of an address in use here is refused before its claim.
    await outcomes.begin('n10', EXPIRES, reply().reply, async () => true);
    await expect(outcomes.begin('n10', EXPIRES, reply().reply, async () => true)).rejects.toThrow('upload address was already used');
  });
});
