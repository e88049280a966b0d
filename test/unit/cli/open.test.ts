import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../main/cli/open.js';

describe('pinfold open: the OS browser opener', () => {
  it('opens a sign-in page by its path: xdg-open on Linux and the other Unixes, open on macOS, start through cmd on Windows (an empty title, the path quoted)', () => {
    const page = '/run/user/1000/pinfold-sign-in-Ab12Cd/sign-in-0f.html';
    expect(browserCommand('linux', page)).toEqual({ command: 'xdg-open', args: [page] });
    expect(browserCommand('freebsd', page)).toEqual({ command: 'xdg-open', args: [page] });
    expect(browserCommand('darwin', page)).toEqual({ command: 'open', args: [page] });
    const windows = 'C:\\Users\\Ada Lovelace\\AppData\\Local\\Temp\\pinfold-sign-in-Ab12Cd\\sign-in-0f.html';
    expect(browserCommand('win32', windows)).toEqual({ command: 'cmd', args: ['/c', 'start', '""', `"${windows}"`] });
  });
});
