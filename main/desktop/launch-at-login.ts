import { mkdir, readFile, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { writeFileAtomic } from '../base/atomic-write.js';

/**
 * Launch at login: macOS and Windows through Electron's login items, Linux through an XDG autostart
 * entry (`$XDG_CONFIG_HOME/autostart/pinfold.desktop`, which GNOME, KDE, Xfce and the others read).
 * A launch at login starts hidden, in the tray: `--hidden` on the command line (Windows, Linux), or
 * the login item's `wasOpenedAtLogin` (macOS, where the system starts the app without arguments).
 */
export const HIDDEN_ARG = '--hidden';

/** The part of Electron's `app` used for login items (macOS and Windows). */
export interface LoginItemsApi {
  getLoginItemSettings(options?: { args?: string[] }): { openAtLogin: boolean; wasOpenedAtLogin?: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
}

export interface LaunchAtLogin {
  isEnabled(): Promise<boolean>;
  setEnabled(on: boolean): Promise<void>;
}

export interface LaunchAtLoginInit {
  platform: NodeJS.Platform;
  loginItems: LoginItemsApi;
  /** The program to start: process.execPath (an AppImage's own path comes from env.APPIMAGE). */
  execPath: string;
  env: NodeJS.ProcessEnv;
  homeDir: string;
}

export function launchAtLogin(init: LaunchAtLoginInit): LaunchAtLogin {
  if (init.platform === 'linux') return xdgAutostart(autostartFile(init.env, init.homeDir), linuxLaunchCommand(init.execPath, init.env));
  // Windows keys the registry entry by program and arguments: ask with the same arguments as set.
  const args = init.platform === 'win32' ? [HIDDEN_ARG] : undefined;
  return {
    async isEnabled() {
      return init.loginItems.getLoginItemSettings(args ? { args } : undefined).openAtLogin;
    },
    async setEnabled(on) {
      init.loginItems.setLoginItemSettings(args ? { openAtLogin: on, args } : { openAtLogin: on });
    },
  };
}

/** Whether this launch came from the login item, so the window stays hidden. */
export function startedAtLogin(argv: readonly string[], platform: NodeJS.Platform, loginItems: Pick<LoginItemsApi, 'getLoginItemSettings'>): boolean {
  if (argv.includes(HIDDEN_ARG)) return true;
  return platform === 'darwin' && loginItems.getLoginItemSettings().wasOpenedAtLogin === true;
}

/** `$XDG_CONFIG_HOME/autostart/pinfold.desktop`; XDG_CONFIG_HOME counts only as an absolute path (the spec says to ignore others). */
export function autostartFile(env: NodeJS.ProcessEnv, homeDir: string): string {
  const configHome = env.XDG_CONFIG_HOME !== undefined && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : join(homeDir, '.config');
  return join(configHome, 'autostart', 'pinfold.desktop');
}

/** An AppImage runs from a new mount point each time; what stays is the file itself, in APPIMAGE. */
export function linuxLaunchCommand(execPath: string, env: NodeJS.ProcessEnv): string[] {
  const program = env.APPIMAGE !== undefined && isAbsolute(env.APPIMAGE) ? env.APPIMAGE : execPath;
  return [program, HIDDEN_ARG];
}

/** The autostart entry (Desktop Entry Specification 1.5). */
export function autostartEntry(command: readonly string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.5',
    'Name=Pinfold',
    'Comment=Keeps your folders synced to IPFS, from the tray',
    `Exec=${command.map(execArgument).join(' ')}`,
    'Icon=pinfold',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

const RESERVED = /[\s"'\\><~|&;$*?#()`]/;

/**
 * One argument of the Exec key: quoted when it holds a reserved character, with `"`, `` ` ``, `$` and `\`
 * escaped inside the quotes; then the string escape of the file format doubles every backslash, and `%`
 * (a field code) is written `%%`.
 */
export function execArgument(arg: string): string {
  if (arg === '' || /[\n\r\0]/.test(arg)) throw new Error(`cannot write ${JSON.stringify(arg)} into an autostart entry`);
  const quoted = RESERVED.test(arg) ? `"${arg.replace(/["`$\\]/g, (char) => `\\${char}`)}"` : arg;
  return quoted.replace(/\\/g, '\\\\').replace(/%/g, '%%');
}

function xdgAutostart(file: string, command: readonly string[]): LaunchAtLogin {
  return {
    async isEnabled() {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      // A user who turned it off in the desktop's own settings leaves the file with Hidden=true.
      return text !== null && !/^Hidden\s*=\s*true\s*$/m.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false\s*$/m.test(text);
    },
    async setEnabled(on) {
      if (!on) {
        await unlink(file).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        });
        return;
      }
      await mkdir(dirname(file), { recursive: true });
      await writeFileAtomic(file, autostartEntry(command));
    },
  };
}
