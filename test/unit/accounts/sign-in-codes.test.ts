import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { createSignInCodes, MAX_OUTSTANDING, parseSignInCode, SIGN_IN_CODE_LIFETIME_SECONDS } from '../../../main/accounts/sign-in-codes.js';
import { manualClock } from './accounts-fixture.js';

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
    expect(codes.redeem(code)).toBe(true);
    expect(codes.redeem(code)).toBe(false);
  });

  it('refuses a code from its expiry second on, and the expired code stays refused', () => {
    const clock = manualClock(START_MS);
    const codes = createSignInCodes(clock);
    const early = codes.issue();
    const late = codes.issue();
    clock.set(START_MS + (SIGN_IN_CODE_LIFETIME_SECONDS - 1) * 1000);
    expect(codes.redeem(early.code)).toBe(true);
    clock.set(START_MS + SIGN_IN_CODE_LIFETIME_SECONDS * 1000);
    expect(codes.redeem(late.code)).toBe(false);
    clock.set(START_MS);
    expect(codes.redeem(late.code)).toBe(false);
  });

  it('an unknown code of the right form is refused; a malformed one is BadInputError', () => {
    const codes = createSignInCodes(manualClock(START_MS));
    codes.issue();
    expect(codes.redeem('A'.repeat(43))).toBe(false);
    for (const bad of [undefined, '', 'short', 'A'.repeat(44), `${'A'.repeat(42)}=`, `${'A'.repeat(42)}+`, ['A'.repeat(43)], 7]) {
      expect(() => codes.redeem(bad)).toThrow(BadInputError);
    }
    expect(() => parseSignInCode(undefined)).toThrow(/code is required/);
    expect(() => parseSignInCode('x')).toThrow(/code is malformed/);
  });

  it(`keeps at most ${MAX_OUTSTANDING} outstanding codes: the oldest is dropped`, () => {
    const codes = createSignInCodes(manualClock(START_MS));
    const issued = Array.from({ length: MAX_OUTSTANDING + 1 }, () => codes.issue().code);
    expect(codes.redeem(issued[0])).toBe(false);
    for (const code of issued.slice(1)) expect(codes.redeem(code)).toBe(true);
  });
});
