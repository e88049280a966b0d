import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDate,
  formatDay,
  formatDuration,
  formatRelative,
  middleEllipsis,
  formatLimit,
  formatPercent,
  isUnlimited,
  usageFraction,
  usageLevel,
  usageRows,
} from '../../../renderer/lib/format.js';
import type { AccountUsage } from '../../../shared/api-types.js';

const GiB = 1024 ** 3;

describe('formatBytes', () => {
  it('uses binary units and drops a trailing .0', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1)).toBe('1 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1 KiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(GiB)).toBe('1 GiB');
    expect(formatBytes(5 * GiB)).toBe('5 GiB');
    expect(formatBytes(1.25 * GiB)).toBe('1.3 GiB');
    expect(formatBytes(123 * 1024 ** 2)).toBe('123 MiB');
  });

  it('carries into the next unit instead of showing 1024', () => {
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MiB');
    expect(formatBytes(GiB - 1)).toBe('1 GiB');
  });

  it('shows a dash for values that are not sizes', () => {
    expect(formatBytes(-1)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('limits', () => {
  it('treats Number.MAX_SAFE_INTEGER as unlimited and nothing below it', () => {
    expect(isUnlimited(Number.MAX_SAFE_INTEGER)).toBe(true);
    expect(isUnlimited(Number.MAX_SAFE_INTEGER - 1)).toBe(false);
    expect(formatLimit(Number.MAX_SAFE_INTEGER, 'bytes')).toBe('Unlimited');
    expect(formatLimit(Number.MAX_SAFE_INTEGER, 'count')).toBe('Unlimited');
    expect(formatLimit(GiB, 'bytes')).toBe('1 GiB');
    expect(formatLimit(1000, 'count')).toBe('1,000');
  });

  it('measures the used share, capped at 1, and none for unlimited', () => {
    expect(usageFraction(50, 100)).toBe(0.5);
    expect(usageFraction(150, 100)).toBe(1);
    expect(usageFraction(5, Number.MAX_SAFE_INTEGER)).toBeNull();
    expect(usageFraction(0, 0)).toBe(0);
    expect(usageFraction(1, 0)).toBe(1);
  });

  it('rates usage as ok, high from 80 %, full at the limit', () => {
    expect(usageLevel(79, 100)).toBe('ok');
    expect(usageLevel(80, 100)).toBe('high');
    expect(usageLevel(100, 100)).toBe('full');
    expect(usageLevel(1, Number.MAX_SAFE_INTEGER)).toBe('none');
  });

  it('formats percents without rounding up to a full bar', () => {
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.001)).toBe('<1%');
    expect(formatPercent(0.999)).toBe('99%');
    expect(formatPercent(1)).toBe('100%');
  });
});

describe('formatCount and formatDate', () => {
  it('groups thousands', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(-3)).toBe('—');
  });

  it('shows the bill date in UTC, where the period starts', () => {
    // 2026-01-01T00:00:00Z: any local time zone west of UTC would show December 31.
    expect(formatDate(1767225600)).toBe('January 1, 2026');
    expect(formatDate(0)).toBe('—');
  });
});

describe('usageRows', () => {
  it('pairs each figure with its own limit in display order', () => {
    const usage: AccountUsage = {
      name: 'a',
      provider: 'local',
      email: '',
      email_verified: false,
      eth_addr: '',
      token_amount: '0.00',
      plan: 'Free',
      next_plan: 'Free',
      next_bill_at: 1767225600,
      pinned_count: 1,
      pinned_count_limit: 2,
      pinned_bytes: 3,
      pinned_bytes_limit: 4,
      ingress: 5,
      ingress_limit: 6,
      egress: 7,
      egress_limit: 8,
      ipns: 9,
      ipns_limit: 10,
    };
    expect(usageRows(usage).map((row) => [row.key, row.used, row.limit, row.unit])).toEqual([
      ['pinned_count', 1, 2, 'count'],
      ['pinned_bytes', 3, 4, 'bytes'],
      ['ingress', 5, 6, 'bytes'],
      ['egress', 7, 8, 'bytes'],
      ['ipns', 9, 10, 'count'],
    ]);
  });
});

describe('time and identifiers', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const at = (offsetSeconds: number) => now / 1000 + offsetSeconds;

  it('says how long ago in words, and the date itself past a month', () => {
    expect(formatRelative(at(-10), now)).toBe('just now');
    expect(formatRelative(at(-90), now)).toBe('2 minutes ago');
    expect(formatRelative(at(-3 * 3600), now)).toBe('3 hours ago');
    expect(formatRelative(at(-86_400), now)).toBe('yesterday');
    expect(formatRelative(at(-5 * 86_400), now)).toBe('5 days ago');
    expect(formatRelative(at(2 * 3600), now)).toBe('in 2 hours');
    expect(formatRelative(Date.parse('2026-07-03T12:00:00Z') / 1000, now)).toBe('Jul 3, 2026');
    expect(formatRelative(0, now)).toBe('—');
  });

  it('shows a UTC day of the usage table as a short date', () => {
    expect(formatDay('2026-11-25')).toBe('Nov 25');
    expect(formatDay('2026-01-01')).toBe('Jan 1');
    expect(formatDay('not a day')).toBe('not a day');
  });

  it('names a duration in its largest whole unit', () => {
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(600)).toBe('10 minutes');
    expect(formatDuration(2 * 86_400)).toBe('2 days');
    expect(formatDuration(90)).toBe('90 seconds');
    expect(formatDuration(1)).toBe('1 second');
    expect(formatDuration(-1)).toBe('—');
  });

  it('keeps both ends of a long identifier', () => {
    const cid = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi';
    expect(middleEllipsis(cid)).toBe('bafybeigdy…5fbzdi');
    expect(middleEllipsis(cid, 4, 4)).toBe('bafy…bzdi');
    expect(middleEllipsis('short')).toBe('short');
    expect(middleEllipsis('a'.repeat(17), 10, 6)).toBe('a'.repeat(17));
  });
});
