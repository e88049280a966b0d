import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * What the tests need from the machine besides node_modules, and what to do when a piece is
 * missing: install it (as root on Debian/Ubuntu, the way CI runs) or stop at once with one line
 * naming the piece and the command that provides it. Deciding is pure (`planPreflight`); looking at
 * the machine (`probeMachine`) and installing (`aptInstall`) stay apart, so a test can feed it any
 * machine.
 */

/** The vitest projects (vitest.config.ts). */
export type TestProject = 'unit' | 'integration' | 'integration-scale-out' | 'e2e';
export const TEST_PROJECTS: readonly TestProject[] = ['unit', 'integration', 'integration-scale-out', 'e2e'];

export interface Piece {
  /** What is missing, as the one-line message names it. */
  readonly name: string;
  readonly neededBy: { readonly projects: readonly TestProject[]; readonly tests: string };
  /** The Debian/Ubuntu package that provides it. */
  readonly debianPackage: string;
  /** How to find it: an absolute path the tests use as it is, or a command looked up on PATH. */
  readonly probe: { readonly path: string } | { readonly command: string };
}

/** The e2e tests launch this exact path (test/e2e/overview.test.ts). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const CHROMIUM: Piece = {
  name: `Chromium at ${CHROMIUM_PATH}`,
  neededBy: { projects: ['e2e'], tests: 'e2e tests' },
  debianPackage: 'chromium',
  probe: { path: CHROMIUM_PATH },
};

/** The private keyring session (scripts/with-keyring.sh); macOS and Windows have their own keychain. */
const KEYRING_PIECES: readonly Piece[] = [
  { name: 'dbus-run-session', neededBy: { projects: ['integration'], tests: 'keychain tests' }, debianPackage: 'dbus', probe: { command: 'dbus-run-session' } },
  {
    name: 'gnome-keyring-daemon',
    neededBy: { projects: ['integration'], tests: 'keychain tests' },
    debianPackage: 'gnome-keyring',
    probe: { command: 'gnome-keyring-daemon' },
  },
];

/**
 * The real engines of the scale-out tests (test/helpers/engines/): PostgreSQL, and Ceph's RADOS Gateway
 * over a one-node cluster. Debian keeps PostgreSQL's server programs off PATH; postgresql-common's
 * pg_ctlcluster comes with them.
 */
const ENGINE_PIECES: readonly Piece[] = [
  {
    name: 'PostgreSQL (pg_ctlcluster)',
    // integration-scale-out: the shared integration suite on PostgreSQL and Ceph RGW.
    neededBy: { projects: ['integration', 'integration-scale-out'], tests: 'scale-out tests' },
    debianPackage: 'postgresql',
    probe: { command: 'pg_ctlcluster' },
  },
  ...(['ceph-mon', 'ceph-osd', 'ceph-mgr', 'radosgw'] as const).map((command): Piece => ({
    name: command,
    neededBy: { projects: ['integration', 'integration-scale-out'], tests: 'scale-out tests' },
    debianPackage: command,
    probe: { command },
  })),
];

export interface Machine {
  readonly platform: NodeJS.Platform;
  readonly isRoot: boolean;
  readonly hasAptGet: boolean;
  readonly hasSudo: boolean;
  /** Whether a piece is there: an executable file at its path, or its command on PATH. */
  readonly has: (piece: Piece) => boolean;
}

export type PreflightPlan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'install'; readonly packages: readonly string[]; readonly missing: string }
  | { readonly kind: 'stop'; readonly message: string };

const APT_INSTALL = 'apt-get install -y --no-install-recommends';

export function piecesFor(platform: NodeJS.Platform, projects: readonly TestProject[]): Piece[] {
  const pieces = platform === 'linux' ? [CHROMIUM, ...KEYRING_PIECES, ...ENGINE_PIECES] : [CHROMIUM];
  return pieces.filter((piece) => piece.neededBy.projects.some((project) => projects.includes(project)));
}

export function planPreflight(machine: Machine, projects: readonly TestProject[] = TEST_PROJECTS): PreflightPlan {
  const missing = piecesFor(machine.platform, projects).filter((piece) => !machine.has(piece));
  if (missing.length === 0) return { kind: 'ready' };
  const what = missing.map((piece) => `${piece.name} (${piece.neededBy.tests})`).join(', ');
  if (machine.platform !== 'linux') {
    // Nothing here installs a browser on macOS or Windows, and the e2e test launches a Linux path.
    const rest = 'npm run typecheck && npm run build && npm run test:unit && npm run test:integration';
    return { kind: 'stop', message: `tests: missing ${what}, a Linux path; on ${machine.platform} run \`${rest}\`, and \`npm test\` on Debian/Ubuntu` };
  }
  const packages = [...new Set(missing.map((piece) => piece.debianPackage))];
  if (machine.isRoot && machine.hasAptGet) return { kind: 'install', packages, missing: what };
  const install = `${APT_INSTALL} ${packages.join(' ')}`;
  const how = machine.hasAptGet
    ? `\`${machine.hasSudo ? 'sudo ' : ''}${install}\`${machine.hasSudo ? '' : ' as root'}`
    : `your package manager (Debian/Ubuntu: \`${install}\`)`;
  return { kind: 'stop', message: `tests: missing ${what}; install with ${how}, then run the tests again` };
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '')
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => isExecutable(join(dir, command)));
}

export function probeMachine(): Machine {
  return {
    platform: process.platform,
    isRoot: process.getuid?.() === 0,
    hasAptGet: process.platform === 'linux' && onPath('apt-get'),
    hasSudo: onPath('sudo'),
    has: (piece) => ('path' in piece.probe ? isExecutable(piece.probe.path) : onPath(piece.probe.command)),
  };
}

/** As CI has always installed them: one update, then only what is missing, nothing recommended. */
export function aptInstall(packages: readonly string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args: readonly string[]) => spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env }).status === 0;
  return apt(['update', '-qq']) && apt(['install', '-y', '-qq', '--no-install-recommends', ...packages]);
}
