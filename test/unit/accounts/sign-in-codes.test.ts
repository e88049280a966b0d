import { describe, expect, it } from 'vitest';
import { createSignInCodes, MAX_OUTSTANDING, SIGN_IN_CODE_LIFETIME_SECONDS } from '../../../main/accounts/sign-in-codes.js';
import { manualClock } from '../../helpers/manual-clock.js';

const START_MS = Date.UTC(2027, 0, 1);

describe('sign-in codes', () => {
  it('a code is 43 base64url characters (32 random bytes), expires 5 minutes after issue, and is different each time', () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const first = codes.issue();
    const second = codes.issue();
    expect(first.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(first.code, 'base64url')).toHaveLength(32);
    expect(first.expiresAt).toBe(START_MS / 1000 + SIGN_IN_CODE_LIFETIME_SECONDS);
    expect(SIGN_IN_CODE_LIFETIME_SECONDS).toBe(300);
    expect(second.code).not.toBe(first.code);
  });

  it('redeems once: a second use of the same code is refused', () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const { code } = codes.issue();
    expect(codes.redeem(code)).toBe('new');
    expect(codes.redeem(code)).toBeNull();
  });

  it('refuses a code from its expiry second on, and the expired code stays refused', () => {
    const clock = manualClock(START_MS);
    const codes = createSignInCodes(clock);
    const early = codes.issue();
    const late = codes.issue();
    clock.set(START_MS + (SIGN_IN_CODE_LIFETIME_SECONDS - 1) * 1000);
    expect(codes.redeem(early.code)).toBe('new');
    clock.set(START_MS + SIGN_IN_CODE_LIFETIME_SECONDS * 1000);
    expect(codes.redeem(late.code)).toBeNull();
    clock.set(START_MS);
    expect(codes.redeem(late.code)).toBeNull();
  });

  it('an unknown code is refused, of the right form or not (the route refuses a malformed one first: session-input)', () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const { code } = codes.issue();
    expect(codes.redeem('A'.repeat(43))).toBeNull();
    expect(codes.redeem(`${code}A`)).toBeNull();
    expect(codes.redeem(code)).toBe('new');
  });

  it(`keeps at most ${MAX_OUTSTANDING} outstanding codes: the oldest is dropped`, () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const issued = Array.from({ length: MAX_OUTSTANDING + 1 }, () => codes.issue().code);
    const [oldest = '', ...rest] = issued;
    expect(codes.redeem(oldest)).toBeNull();
    for (const code of rest) expect(codes.redeem(code)).toBe('new');
  });

  it('says which session a code was issued for: new by default, shared when asked', () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const plain = codes.issue();
    const shared = codes.issue({ session: 'shared' });
    expect(codes.redeem(shared.code)).toBe('shared');
    expect(codes.redeem(plain.code)).toBe('new');
  });

  it('tells a code retired exactly once: when redeemed, when found expired, when dropped for a newer one; never for another code', () => {
    const clock = manualClock(START_MS);
    const codes = createSignInCodes(clock);
    const retired: string[] = [];
    const issue = (name: string) => codes.issue({ onRetired: () => retired.push(name) }).code;

    const redeemed = issue('redeemed');
    issue('waiting');
    expect(codes.redeem(redeemed)).toBe('new');
    expect(codes.redeem(redeemed)).toBeNull();
    expect(retired).toEqual(['redeemed']);

    // Expired: retired when the next code is asked for, or a redemption is tried, whichever comes first.
    clock.set(START_MS + SIGN_IN_CODE_LIFETIME_SECONDS * 1000);
    expect(retired).toEqual(['redeemed']);
    codes.issue();
    expect(retired).toEqual(['redeemed', 'waiting']);
    const stale = issue('stale');
    clock.set(START_MS + 2 * SIGN_IN_CODE_LIFETIME_SECONDS * 1000);
    expect(codes.redeem('A'.repeat(43))).toBeNull();
    expect(retired).toEqual(['redeemed', 'waiting', 'stale']);
    expect(codes.redeem(stale)).toBeNull();

    // Dropped: the oldest, once MAX_OUTSTANDING newer ones wait.
    retired.length = 0;
    issue('oldest');
    for (let i = 0; i < MAX_OUTSTANDING; i += 1) codes.issue();
    expect(retired).toEqual(['oldest']);
  });

  it('lives as long as it is told to (a shorter lifetime for tests of what hangs on a code)', () => {
    const codes = createSignInCodes(manualClock(START_MS), { lifetimeSeconds: 2 });
    expect(codes.issue().expiresAt).toBe(START_MS / 1000 + 2);
  });
});
