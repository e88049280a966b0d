import { BadInputError } from '../base/errors.js';

/** Balances and prices are kept as integer cents and shown as decimal strings with two decimals. */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export function parseAmount(text: string, what: string): number {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) throw new BadInputError(`${what} must be a non-negative decimal amount with at most two decimals`);
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '0').padEnd(2, '0'));
  return whole * 100 + fraction;
}
