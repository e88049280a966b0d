import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, piecesFor, planPreflight, probeMachine, type Machine, type Piece } from '../../../scripts/preflight.js';

/** A Linux machine without the named pieces. */
function linux(missing: readonly string[], overrides: Partial<Machine> = {}): Machine {
  return {
    platform: 'linux',
    isRoot: false,
    hasAptGet: true,
    hasSudo: true,
    has: (piece: Piece) => !missing.some((name) => piece.name.includes(name)),
    ...overrides,
  };
}

function stopMessage(machine: Machine, projects?: Parameters<typeof planPreflight>[1]): string {
  const plan = planPreflight(machine, projects);
  if (plan.kind !== 'stop') throw new Error(`expected a stop, got ${JSON.stringify(plan)}`);
  expect(plan.message).not.toContain('\n');
  return plan.message;
}

describe('npm test preflight', () => {
  it('runs at once when everything is there', () => {
    expect(planPreflight(linux([]))).toEqual({ kind: 'ready' });
  });

  it('installs only what is missing when root on Debian/Ubuntu, as CI does', () => {
    expect(planPreflight(linux(['Chromium'], { isRoot: true }))).toEqual({
      kind: 'install',
      packages: ['chromium'],
      missing: `Chromium at ${CHROMIUM_PATH} (e2e tests)`,
    });
    const both = planPreflight(linux(['dbus-run-session', 'gnome-keyring-daemon'], { isRoot: true }));
    expect(both).toMatchObject({ kind: 'install', packages: ['dbus', 'gnome-keyring'] });
  });

  it('stops with one line naming the piece and the command when not root', () => {
    expect(stopMessage(linux(['Chromium']))).toBe(
      `tests: missing Chromium at ${CHROMIUM_PATH} (e2e tests); install with ` +
        '`sudo apt-get install -y --no-install-recommends chromium`, then run the tests again',
    );
    expect(stopMessage(linux(['gnome-keyring-daemon'], { hasSudo: false }))).toBe(
      'tests: missing gnome-keyring-daemon (keychain tests); install with ' +
        '`apt-get install -y --no-install-recommends gnome-keyring` as root, then run the tests again',
    );
  });

  it('names every missing piece in the one line, each package once', () => {
    const message = stopMessage(linux(['Chromium', 'dbus-run-session', 'gnome-keyring-daemon']));
    expect(message).toContain(`Chromium at ${CHROMIUM_PATH} (e2e tests), dbus-run-session (keychain tests), gnome-keyring-daemon (keychain tests)`);
    expect(message).toContain('--no-install-recommends chromium dbus gnome-keyring`');
  });

  it('installs the real engines of the scale-out tests (PostgreSQL, Ceph RGW) for the integration tests only', () => {
    const missing = ['PostgreSQL', 'ceph-mon', 'ceph-osd', 'ceph-mgr', 'radosgw'];
    expect(planPreflight(linux(missing, { isRoot: true }), ['integration'])).toMatchObject({
      kind: 'install',
      packages: ['postgresql', 'ceph-mon', 'ceph-osd', 'ceph-mgr', 'radosgw'],
    });
    expect(planPreflight(linux(missing), ['unit', 'e2e'])).toEqual({ kind: 'ready' });
    expect(stopMessage(linux(['radosgw']), ['integration'])).toContain('missing radosgw (scale-out tests);');
  });

  it('installs PostgreSQL and Ceph, and nothing of the keychain, for the integration suite on the scale-out engines', () => {
    const missing = ['PostgreSQL', 'ceph-mon', 'radosgw', 'dbus-run-session', 'Chromium'];
    expect(planPreflight(linux(missing, { isRoot: true }), ['integration-scale-out'])).toMatchObject({
      kind: 'install',
      packages: ['postgresql', 'ceph-mon', 'radosgw'],
    });
    expect(planPreflight(linux(['dbus-run-session', 'Chromium']), ['integration-scale-out'])).toEqual({ kind: 'ready' });
  });

  it('stops rather than installing without apt-get, even as root', () => {
    const message = stopMessage(linux(['dbus-run-session'], { isRoot: true, hasAptGet: false }));
    expect(message).toContain('missing dbus-run-session (keychain tests); install with your package manager');
    expect(message).toContain('apt-get install -y --no-install-recommends dbus');
  });

  it('asks only for what the chosen tests need', () => {
    expect(planPreflight(linux(['Chromium']), ['unit', 'integration'])).toEqual({ kind: 'ready' });
    expect(planPreflight(linux(['dbus-run-session', 'gnome-keyring-daemon']), ['e2e'])).toEqual({ kind: 'ready' });
    expect(planPreflight(linux(['Chromium', 'dbus-run-session']), ['unit'])).toEqual({ kind: 'ready' });
    expect(stopMessage(linux(['Chromium', 'dbus-run-session']), ['integration'])).toContain('missing dbus-run-session (keychain tests);');
  });

  it('says on macOS and Windows what runs there instead of installing anything', () => {
    const mac: Machine = { ...linux(['Chromium']), platform: 'darwin', isRoot: true };
    const message = stopMessage(mac);
    expect(message).toContain(`missing Chromium at ${CHROMIUM_PATH} (e2e tests), a Linux path; on darwin run`);
    expect(message).toContain('npm run test:unit && npm run test:integration');
    // Their own keychain serves the keychain tests: no D-Bus or gnome-keyring asked for.
    expect(piecesFor('win32', ['integration'])).toEqual([]);
    expect(planPreflight({ ...mac, platform: 'win32' }, ['unit', 'integration'])).toEqual({ kind: 'ready' });
  });
});

describe('looking at the machine', () => {
  const saved = process.env['PATH'];
  let dir: string | undefined;
  afterEach(() => {
    process.env['PATH'] = saved;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a command on PATH only when it is executable', () => {
    dir = mkdtempSync(join(tmpdir(), 'pinfold-preflight-'));
    writeFileSync(join(dir, 'gnome-keyring-daemon'), '#!/bin/sh\n');
    chmodSync(join(dir, 'gnome-keyring-daemon'), 0o755);
    writeFileSync(join(dir, 'dbus-run-session'), 'not executable');
    chmodSync(join(dir, 'dbus-run-session'), 0o644);
    process.env['PATH'] = dir;
    const machine = probeMachine();
    const [dbus, keyring] = piecesFor('linux', ['integration']);
    expect([dbus?.name, keyring?.name]).toEqual(['dbus-run-session', 'gnome-keyring-daemon']);
    expect(machine.has(keyring as Piece)).toBe(true);
    expect(machine.has(dbus as Piece)).toBe(false);
    expect(machine.hasAptGet).toBe(false);
  });
});
