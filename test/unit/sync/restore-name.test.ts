import { describe, expect, it } from 'vitest';
import { restoredName, restoreStamp } from '../../../main/sync/restore-name.js';

const none = () => false;

describe('restoreStamp', () => {
  it('writes the version time as YYYY-MM-DD HHMM in the offset it is given', () => {
    const t = Date.UTC(2026, 0, 5, 23, 7) / 1000;
    expect(restoreStamp(t, 0)).toBe('2026-01-05 2307');
    expect(restoreStamp(t, 60)).toBe('2026-01-06 0007');
    expect(restoreStamp(t, -330)).toBe('2026-01-05 1737');
  });
});

describe('restoredName', () => {
  it('puts the suffix before the extension', () => {
    expect(restoredName('report.pdf', '2026-11-20 1430', none)).toBe('report (restored 2026-11-20 1430).pdf');
    expect(restoredName('archive.tar.gz', '2026-11-20 1430', none)).toBe('archive.tar (restored 2026-11-20 1430).gz');
  });

  it('a name without an extension, a dotfile and a trailing dot keep the suffix at the end', () => {
    expect(restoredName('Makefile', 'S', none)).toBe('Makefile (restored S)');
    expect(restoredName('.bashrc', 'S', none)).toBe('.bashrc (restored S)');
    expect(restoredName('notes.', 'S', none)).toBe('notes. (restored S)');
  });

  it('counts up while a name is taken', () => {
    const taken = new Set(['a (restored S).txt', 'a (restored S 2).txt']);
    expect(restoredName('a.txt', 'S', (name) => taken.has(name))).toBe('a (restored S 3).txt');
  });

  it('shortens a long base by whole characters to stay within 255 bytes, keeping suffix and extension', () => {
    const long = `${'é'.repeat(200)}.txt`;
    const name = restoredName(long, '2026-11-20 1430', none);
    expect(new TextEncoder().encode(name).byteLength).toBeLessThanOrEqual(255);
    expect(name.endsWith(' (restored 2026-11-20 1430).txt')).toBe(true);
    expect(name.startsWith('é')).toBe(true);
    expect(name).not.toContain('\uFFFD');
  });

  it('gives up with an error rather than loop forever', () => {
    expect(() => restoredName('a.txt', 'S', () => true)).toThrow(/no free name/);
  });
});
