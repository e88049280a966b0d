/**
 * Balances and plan prices as the service writes them: decimal strings with two decimals ("1000.00",
 * "4.99"; contract section 8), no currency. Worked in whole cents, so 10.00 − 9.99 is 0.01 and not
 * 0.009999…; the Partners page shows a plan change's fee and the balance it leaves before confirming.
 */

const AMOUNT = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/** "4.99" → 499; "12" → 1200; null for anything that is not a plain non-negative amount. */
export function parseMoney(text: string): number | null {
  const match = AMOUNT.exec(text.trim());
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(2, '0'));
  return whole * 100 + fraction;
}

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 100000 → "1,000.00"; a negative amount gets a real minus sign. */
export function formatMoney(cents: number): string {
  const text = MONEY.format(Math.abs(cents) / 100);
  return cents < 0 ? `−${text}` : text;
}

export interface PlanChangeQuote {
  feeCents: number;
  balanceCents: number;
  /** The balance once the fee is charged (negative when it does not cover it). */
  afterCents: number;
  /** Whether the balance covers the fee; when not, the service refuses the change (402) and charges nothing. */
  covered: boolean;
}

/** The fee of moving a user to a plan priced `price`, against the partner's `balance`; null if either is unreadable. */
export function quotePlanChange(balance: string, price: string): PlanChangeQuote | null {
  const balanceCents = parseMoney(balance);
  const feeCents = parseMoney(price);
  if (balanceCents === null || feeCents === null) return null;
  const afterCents = balanceCents - feeCents;
  return { feeCents, balanceCents, afterCents, covered: afterCents >= 0 };
}
