import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../../main/cli/open.js';

describe('pinfold open: the OS browser opener', () => {
  const url = 'http://127.0.0.1:5080/signin?code=abc';
  it('xdg-open on Linux and the other Unixes, open on macOS, start through cmd on Windows (with an empty title)', () => {
    expect(browserCommand('linux', url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand('freebsd', url)).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand('darwin', url)).toEqual({ command: 'open', args: [url] });
    expect(browserCommand('win32', url)).toEqual({ command: 'cmd', args: ['/c', 'start', '""', url] });
  });
});
