/** Issue 22, item 6: the names a restore on Windows refuses, tested on every platform (the check is pure). */
import { describe, expect, it } from 'vitest';
import { windowsNameProblem } from '../../../main/sync/windows-names.js';

describe('windowsNameProblem', () => {
  it('takes ordinary names, device names inside longer ones, and dots and spaces in the middle', () => {
    for (const name of ['notes.txt', 'a b.txt', '.hidden', 'résumé.pdf', 'CONSOLE.txt', 'con-notes.md', 'nul1', 'COM10', 'LPT', 'my.con', 'x.NUL', '…']) {
      expect(windowsNameProblem(name), name).toBeUndefined();
    }
  });

  it('refuses the separators, the stream colon, the other characters Windows forbids and control characters', () => {
    expect(windowsNameProblem('a\\b')).toBe('holds "\\", which Windows does not allow in a name');
    expect(windowsNameProblem('a:b.txt')).toBe('holds ":", which Windows does not allow in a name');
    for (const name of ['C:', 'x/y', 'a<b', 'a>b', 'say "hi"', 'a|b', 'why?', 'all*']) expect(windowsNameProblem(name), name).toMatch(/^holds "/);
    expect(windowsNameProblem('tab\there')).toBe('holds the control character U+0009, which Windows does not allow in a name');
    expect(windowsNameProblem('\u001f')).toMatch(/U\+001F/);
  });

  it('refuses names Windows would store under another name: a trailing dot or space', () => {
    for (const name of ['notes.', 'notes ', 'a..', '. ']) expect(windowsNameProblem(name), name).toBe('ends with a dot or a space, which Windows drops');
  });

  it('refuses device names in any case, with or without extensions, with spaces before the extension', () => {
    const devices = ['CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$', ...[...'0123456789¹²³'].flatMap((digit) => [`COM${digit}`, `LPT${digit}`])];
    for (const device of devices) {
      for (const name of [device, device.toLowerCase(), `${device}.txt`, `${device.toLowerCase()}.tar.gz`, `${device} .txt`, `${device}  .log`]) {
        expect(windowsNameProblem(name), name).toBe(`is the reserved device name ${device.toUpperCase()} on Windows`);
      }
    }
  });
});
