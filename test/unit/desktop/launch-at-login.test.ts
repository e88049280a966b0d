import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  autostartEntry,
  autostartFile,
  execArgument,
  HIDDEN_ARG,
  launchAtLogin,
  linuxLaunchCommand,
  startedAtLogin,
  type LoginItemsApi,
} from '../../../main/desktop/launch-at-login.js';

/** Electron's login items as a record of calls with settings that remember what was set. */
function fakeLoginItems(wasOpenedAtLogin = false) {
  const calls: unknown[] = [];
  let openAtLogin = false;
  const api: LoginItemsApi = {
    getLoginItemSettings: (options) => {
      calls.push(['get', options]);
      return { openAtLogin, wasOpenedAtLogin };
    },
    setLoginItemSettings: (settings) => {
      calls.push(['set', settings]);
      openAtLogin = settings.openAtLogin;
    },
  };
  return { api, calls };
}

describe('launch at login on macOS and Windows', () => {
  it('macOS: the login item, without arguments', async () => {
    const { api, calls } = fakeLoginItems();
    const login = launchAtLogin({
      platform: 'darwin',
      loginItems: api,
      execPath: '/Applications/Pinfold.app/Contents/MacOS/Pinfold',
      env: {},
      homeDir: '/Users/me',
    });
    expect(await login.isEnabled()).toBe(false);
    await login.setEnabled(true);
    expect(await login.isEnabled()).toBe(true);
    expect(calls).toEqual([
      ['get', undefined],
      ['set', { openAtLogin: true }],
      ['get', undefined],
    ]);
  });

  it('Windows: the Run entry with --hidden, asked about with the same arguments', async () => {
    const { api, calls } = fakeLoginItems();
    const login = launchAtLogin({ platform: 'win32', loginItems: api, execPath: 'C:\\Pinfold\\Pinfold.exe', env: {}, homeDir: 'C:\\Users\\me' });
    await login.setEnabled(true);
    await login.setEnabled(false);
    expect(await login.isEnabled()).toBe(false);
    expect(calls).toEqual([
      ['set', { openAtLogin: true, args: [HIDDEN_ARG] }],
      ['set', { openAtLogin: false, args: [HIDDEN_ARG] }],
      ['get', { args: [HIDDEN_ARG] }],
    ]);
  });
});

describe('startedAtLogin', () => {
  it('--hidden on any platform; wasOpenedAtLogin on macOS only', () => {
    expect(startedAtLogin(['/opt/Pinfold/pinfold', '--hidden'], 'linux', fakeLoginItems().api)).toBe(true);
    expect(startedAtLogin(['C:\\Pinfold\\Pinfold.exe', '--hidden'], 'win32', fakeLoginItems().api)).toBe(true);
    expect(startedAtLogin(['/opt/Pinfold/pinfold'], 'linux', fakeLoginItems(true).api)).toBe(false);
    expect(startedAtLogin(['/Applications/Pinfold.app/Contents/MacOS/Pinfold'], 'darwin', fakeLoginItems(true).api)).toBe(true);
    expect(startedAtLogin(['/Applications/Pinfold.app/Contents/MacOS/Pinfold'], 'darwin', fakeLoginItems(false).api)).toBe(false);
  });
});

describe('the XDG autostart entry', () => {
  it('lives in $XDG_CONFIG_HOME/autostart, or ~/.config/autostart; a relative XDG_CONFIG_HOME is ignored', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/home/me/.cfg' }, '/home/me')).toBe('/home/me/.cfg/autostart/pinfold.desktop');
    expect(autostartFile({}, '/home/me')).toBe('/home/me/.config/autostart/pinfold.desktop');
    expect(autostartFile({ XDG_CONFIG_HOME: 'relative/cfg' }, '/home/me')).toBe('/home/me/.config/autostart/pinfold.desktop');
  });

  it('starts the app hidden, the AppImage file itself when run from one', () => {
    expect(linuxLaunchCommand('/opt/Pinfold/pinfold', {})).toEqual(['/opt/Pinfold/pinfold', '--hidden']);
    expect(linuxLaunchCommand('/tmp/.mount_PinfoXYZ/pinfold', { APPIMAGE: '/home/me/Apps/Pinfold-1.0.0.AppImage' })).toEqual([
      '/home/me/Apps/Pinfold-1.0.0.AppImage',
      '--hidden',
    ]);
  });

  it('is a valid desktop entry', () => {
    expect(autostartEntry(['/opt/Pinfold/pinfold', '--hidden'])).toBe(
      [
        '[Desktop Entry]',
        'Type=Application',
        'Version=1.5',
        'Name=Pinfold',
        'Comment=Keeps your folders synced to IPFS, from the tray',
        'Exec=/opt/Pinfold/pinfold --hidden',
        'Icon=pinfold',
        'Terminal=false',
        'X-GNOME-Autostart-enabled=true',
        '',
      ].join('\n'),
    );
  });

  it('quotes and escapes the Exec arguments as the specification says', () => {
    expect(execArgument('/home/me/My Apps/Pinfold.AppImage')).toBe('"/home/me/My Apps/Pinfold.AppImage"');
    // Inside quotes: \" \` \$ \\ ; then the file's string escape doubles each backslash.
    expect(execArgument('/a/$HOME"x`y\\z')).toBe('"/a/\\\\$HOME\\\\"x\\\\`y\\\\\\\\z"');
    expect(execArgument('/opt/100%/pinfold')).toBe('/opt/100%%/pinfold');
    expect(() => execArgument('/opt/a\nExec=evil')).toThrow(/autostart entry/);
    expect(() => execArgument('')).toThrow(/autostart entry/);
  });
});

describe('launch at login on Linux, on a real file', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'pinfold-autostart-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  const linux = (env: NodeJS.ProcessEnv = {}) =>
    launchAtLogin({ platform: 'linux', loginItems: fakeLoginItems().api, execPath: '/opt/Pinfold/pinfold', env, homeDir: home });

  it('writes the entry on, removes it off, and reads the file to answer', async () => {
    const login = linux();
    const file = join(home, '.config', 'autostart', 'pinfold.desktop');
    expect(await login.isEnabled()).toBe(false);
    await login.setEnabled(true);
    expect(await readFile(file, 'utf8')).toBe(autostartEntry(['/opt/Pinfold/pinfold', '--hidden']));
    expect(await login.isEnabled()).toBe(true);
    await login.setEnabled(true);
    expect(await login.isEnabled()).toBe(true);
    await login.setEnabled(false);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await login.isEnabled()).toBe(false);
    // Turning off what is off is no error.
    await login.setEnabled(false);
  });

  it('honours XDG_CONFIG_HOME', async () => {
    const config = join(home, 'cfg');
    await linux({ XDG_CONFIG_HOME: config }).setEnabled(true);
    expect((await stat(join(config, 'autostart', 'pinfold.desktop'))).isFile()).toBe(true);
  });

  it('reads an entry the desktop settings disabled (Hidden=true) as off', async () => {
    const dir = join(home, '.config', 'autostart');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'pinfold.desktop'), `${autostartEntry(['/opt/Pinfold/pinfold', '--hidden'])}Hidden=true\n`);
    expect(await linux().isEnabled()).toBe(false);
  });

  it('fails with the reason when the folder cannot be written, and leaves nothing', async () => {
    // A file where the autostart folder should be.
    await mkdir(join(home, '.config'), { recursive: true });
    await writeFile(join(home, '.config', 'autostart'), 'not a folder');
    await expect(linux().setEnabled(true)).rejects.toMatchObject({ code: expect.stringMatching(/EEXIST|ENOTDIR/) });
    expect(await readFile(join(home, '.config', 'autostart'), 'utf8')).toBe('not a folder');
  });
});
