import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { formatCents, parseAmount } from '../../../main/accounts/money.js';

describe('money', () => {
  it('formats integer cents as a two-decimal string', () => {
    expect(formatCents(0)).toBe('0.00');
    expect(formatCents(5)).toBe('0.05');
    expect(formatCents(100_000)).toBe('1000.00');
    expect(formatCents(99_501)).toBe('995.01');
    expect(formatCents(-499)).toBe('-4.99');
  });

  it('parses decimal amounts with at most two decimals', () => {
    expect(parseAmount('25', 'amount')).toBe(2500);
    expect(parseAmount('25.5', 'amount')).toBe(2550);
    expect(parseAmount('0.05', 'amount')).toBe(5);
    expect(parseAmount(' 4.99 ', 'amount')).toBe(499);
  });

  it('refuses negative, three-decimal, exponent and junk amounts, naming the parameter', () => {
    for (const bad of ['-1', '1.234', '1e3', 'abc', '', '1,00', '.5', '1.']) {
      expect(() => parseAmount(bad, 'amount')).toThrow(BadInputError);
      expect(() => parseAmount(bad, 'amount')).toThrow(/^amount /);
    }
  });
});
