import { CID } from 'multiformats/cid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NamesContext } from '../../../main/names/context.js';
import { resolveName } from '../../../main/names/resolver.js';
import { createName, publishName, removeName } from './name-requests.js';
import { addAccount, namesContext, tempDb, type TestDb } from './helpers.js';

const CID_A = CID.parse('bafkreicysg23kiwv34eg2d7qweipxwosdo2py4ldv42nbauguluen5v6am');
const CID_B = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy');

let t: TestDb;
let ctx: NamesContext;
let account: number;
beforeEach(() => {
  t = tempDb();
  ctx = namesContext(t.db);
  account = addAccount(t.db);
});
afterEach(() => t.cleanup());

/** Whether `promise` has settled by the time every queued job has run. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe("the resolver's nextChange (the served long-poll, issue 24)", () => {
  it('settles at the next publish or removal of that name only, and carries the sequence in the resolution', async () => {
    const one = await createName(ctx, account, CID_A.toString());
    const other = await createName(ctx, account, CID_A.toString());
    expect((await resolveName(ctx, one.name)).sequence).toBe(0n);
    const signal = new AbortController().signal;
    const waiting = ctx.resolver.nextChange(one.name, signal);
    const otherWaiting = ctx.resolver.nextChange(other.name, signal);
    expect(await settled(waiting)).toBe(false);
    await publishName(ctx, account, one.name, CID_B.toString());
    expect(await settled(waiting)).toBe(true);
    expect(await settled(otherWaiting)).toBe(false);
    expect((await resolveName(ctx, one.name)).sequence).toBe(1n);
    await removeName(ctx, account, other.name);
    expect(await settled(otherWaiting)).toBe(true);
  });

  it('settles when its signal ends, and then no longer listens', async () => {
    const one = await createName(ctx, account, CID_A.toString());
    const controller = new AbortController();
    const waiting = ctx.resolver.nextChange(one.name, controller.signal);
    expect(await settled(waiting)).toBe(false);
    controller.abort();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(ctx.resolver.nextChange(one.name, controller.signal))).toBe(true);
  });
});
