import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, defaultDataDir, MAX_TIMER_SECONDS } from '../../main/base/config.js';
import { MAX_NESTING } from '../../main/content/read/nesting-depth.js';
import { autostartFile, HIDDEN_ARG } from '../../main/desktop/launch-at-login.js';
import { MAX_LINK_LENGTH } from '../../main/desktop/protocol-links.js';
import { DEFAULT_POLICY } from '../../main/desktop/service-supervisor-state.js';
import { trayStatusLine } from '../../main/desktop/tray-status.js';
import { UPDATE_CHECK_INTERVAL_MS } from '../../main/desktop/updates.js';
import { CONTENT_ISOLATION_HEADERS } from '../../main/http/content-isolation.js';
import { SERVICE_SETTINGS } from '../../main/http/settings-catalog.js';
import { UPLOAD_ADDRESS_LIFETIME_SECONDS } from '../../main/http/upload-address.js';
import { MAX_RESOLVE_STEPS } from '../../main/names/resolver.js';
import { MAX_ENDPOINTS } from '../../main/network/endpoints.js';
import { DEFAULT_FETCH_TUNING } from '../../main/network/fetch-tuning.js';
import { DEFAULT_NETWORK } from '../../main/network/settings.js';
import { MAX_LIVE_SESSIONS } from '../../main/accounts/session-keys.js';
import { SIGN_IN_CODE_LIFETIME_SECONDS } from '../../main/accounts/sign-in-codes.js';
import { multiaddrOfUrl } from '../../main/pins/http-multiaddr.js';
import { kuboServiceAddCommand } from '../../renderer/lib/remote-pinning.js';
import { LAYERS, OWNED_PACKAGES, SEALED_PATHS } from './arch-rules.js';

/**
 * The README and the documents of docs/ that it leads to wrap their lines anywhere, so each is read with
 * every run of whitespace as one space. Each fact is checked in the document that tells it (issue 25,
 * part 6): moved to another, its check moves with it.
 */
const documentText = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
const readme = documentText('README.md');
const api = documentText('docs/api.md');
const desktop = documentText('docs/desktop.md');
const network = documentText('docs/network.md');
const architecture = documentText('docs/architecture.md');

describe('README: a door with two commands and a tour that holds', () => {
  it('opens with exactly the two set-up commands, which package.json has', () => {
    const raw = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const opening = /^# Pinfold\n\n```sh\n([\s\S]*?)\n```\n/.exec(raw)?.[1] ?? '';
    const commands = opening
      .trim()
      .split('\n')
      .map((line) => (line.split('#')[0] as string).trim());
    expect(commands).toEqual(['npm install && npm run serve', 'npm install && npm test']);
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const name of ['serve', 'test', 'start']) expect(scripts[name], name).toBeDefined();
  });

  it("the tour: the default port, the sign-in link's life and the default data folders", () => {
    expect(readme).toContain(`Pinfold listening on http://127.0.0.1:${DEFAULTS.port}`);
    expect(readme).toContain(`once, within ${SIGN_IN_CODE_LIFETIME_SECONDS / 60} minutes`);
    expect(defaultDataDir('linux', {})).toMatch(/\/\.local\/share\/pinfold$/);
    expect(readme).toContain('`~/.local/share/pinfold` on Linux');
    expect(defaultDataDir('darwin', {})).toMatch(/\/Library\/Application Support\/Pinfold$/);
    expect(readme).toContain('`~/Library/Application Support/Pinfold` on macOS');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\me\\AppData\\Roaming' })).toMatch(/Roaming[\\/]Pinfold$/);
    expect(readme).toContain('`%APPDATA%\\Pinfold` on Windows');
  });
});

describe('docs/architecture.md: the layers and rules that test/unit/arch.test.ts enforces', () => {
  it('gives every layer of the checker its paragraph, and names every sealed path and every package with one home', () => {
    // Listed as what is missing, not as the whole document.
    const missing = [
      ...Object.keys(LAYERS).map((layer) => `**\`${layer}/\`**`),
      ...Object.keys(SEALED_PATHS).map((path) => `\`${path}`),
      ...Object.keys(OWNED_PACKAGES).map((name) => `\`${name}\``),
    ].filter((stated) => !architecture.includes(stated));
    expect(missing).toEqual([]);
  });
});

/**
 * What docs/api.md tells a user about the rules a client meets (issue 11) holds the numbers the code uses:
 * a change to one of them fails here until the document says it too.
 */
describe('docs/api.md: the rules a client meets, with the numbers the code uses', () => {
  it('uploads: the address lifetime, the step-2 pace, what step 2 refuses, reservations and addresses', () => {
    expect(api).toContain(`valid for ${UPLOAD_ADDRESS_LIFETIME_SECONDS / 60} minutes`);
    expect(api).toContain(
      `at least ${DEFAULTS.uploadMinBytesPerWindow / 1024} KiB, or the rest of the body if less, in every ${DEFAULTS.uploadIdleTimeoutMs / 1000} s of reading`,
    );
    expect(api).toContain('cut off with 408');
    expect(api).toMatch(/another method or path, is 401; a raw body whose `Content-Length` is above `size` is 413/);
    expect(api).toContain("Step 1 reserves `size` of the plan's ingress");
    expect(api).toContain("never from the request's `Host`. It dies with the access key that asked for it.");
  });

  it('content: the isolation headers, the nesting limit, loops and unknown routes', () => {
    for (const [name, value] of Object.entries(CONTENT_ISOLATION_HEADERS)) {
      // As headers are usually written: content-security-policy as Content-Security-Policy.
      const spelled = name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
      expect(api).toContain(`\`${spelled}: ${value}\``);
    }
    expect(api).toContain(`nests deeper than ${MAX_NESTING} levels`);
    expect(api).toContain(`a chain of more than ${MAX_RESOLVE_STEPS} names, is 508`);
    expect(api).toContain('A route that does not exist is 404, with or without `ts`');
    expect(api).toContain('`127.0.0.1`, `localhost`, `[::1]` or the `--host` given');
  });
});

describe('docs/desktop.md: the service process, with the numbers the supervisor uses', () => {
  it('the restart backoff, when it gives up, and the stop deadline', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => DEFAULT_POLICY.backoffMs(attempt) / 1000);
    expect(desktop).toContain(`restarted after ${waits[0]} s, then ${waits.slice(1).join(', ')} and at most ${DEFAULT_POLICY.backoffMs(99) / 1000} s`);
    expect(desktop).toContain(`after ${DEFAULT_POLICY.maxCrashes} crashes within ${DEFAULT_POLICY.crashWindowMs / 60_000} minutes it stays stopped`);
    expect(desktop).toContain(`one that has not exited within ${DEFAULT_POLICY.stopDeadlineMs / 1000} s is killed`);
    // The tray's line while it restarts, as docs/desktop.md quotes it.
    expect(desktop).toContain(`"${trayStatusLine({ state: 'restarting' }, null)}"`);
  });
});

describe('docs/desktop.md: how the desktop app behaves, with the values the code uses', () => {
  it('launch at login, links and updates', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x' }, '/home/me')).toBe('/x/autostart/pinfold.desktop');
    expect(desktop).toContain('(`$XDG_CONFIG_HOME/autostart/pinfold.desktop`, `~/.config/autostart/` when XDG_CONFIG_HOME is unset;');
    expect(desktop).toContain(`Pinfold stays in the tray (\`${HIDDEN_ARG}\`;`);
    expect(desktop).toContain(`at most ${MAX_LINK_LENGTH} characters`);
    expect(desktop).toContain(`at start and every ${UPDATE_CHECK_INTERVAL_MS / 3_600_000} hours`);
    expect(desktop).toContain('`PINFOLD_UPDATE_URL=<https URL>`');
    expect(desktop).toContain('`PINFOLD_UPDATES=off`');
  });
});

describe('docs/network.md: how a fetch from the network behaves, with the values the code uses', () => {
  it('sources, requests, timeouts, cool-downs and batches', () => {
    const t = DEFAULT_FETCH_TUNING;
    expect(network).toContain(`\`fetch_from\`, default \`${DEFAULT_NETWORK.fetchFrom.join(', ')}\``);
    expect(network).toContain(`\`routing\`, default \`${DEFAULT_NETWORK.routing.join(', ')}\``);
    expect(network).toContain(`at most ${MAX_ENDPOINTS} of each`);
    expect(network).toContain(`at most ${t.perSourceConcurrency} requests at once to each`);
    expect(network).toContain(`its source is set aside for ${t.wrongBlockAsideMs / 60_000} minutes`);
    expect(network).toContain(`first byte within ${t.firstByteTimeoutMs / 1000} s and never fall silent for ${t.idleTimeoutMs / 1000} s`);
    expect(network).toContain(`(${t.backoffBaseMs / 1000} s, doubling with each failure in a row up to ${t.backoffMaxMs / 1000} s, with jitter)`);
    expect(network).toContain(
      `after ${t.failuresBeforeAside} in a row it is set aside for ${t.asideMs / 1000} s, doubling each time up to ${t.asideMaxMs / 60_000} minutes`,
    );
    expect(network).toContain(`(a wait over ${t.maxRetryAfterMs / 60_000} minutes sets it aside that long)`);
    expect(network).toContain(`tries again after ${t.roundDelayMs / 1000} s, doubling up to ${t.roundDelayMaxMs / 1000} s`);
    expect(network).toContain(`committed every ${t.batchBytes / 1024 / 1024} MiB, ${t.batchBlocks} blocks or ${t.batchMs / 1000} s`);
    expect(network).toContain(`(\`--pin-timeout\`, default ${DEFAULTS.pinTimeoutSeconds} s)`);
  });
});

describe('docs/settings.md: every setting of settings.json as the catalog declares it', () => {
  const settings = documentText('docs/settings.md');
  const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));
  it("its section, default, flag and how a change applies, one row a setting, in the API's order", () => {
    const specs = Object.entries(SERVICE_SETTINGS);
    const rows = specs.map(([name, spec]) => `| \`${name}\` | \`${spec.section}\` | \`${shown(spec.fallback)}\``);
    for (const [index, [name, spec]] of specs.entries()) {
      const row = rows[index] as string;
      expect(settings, name).toContain(row);
      const rest = settings.slice(settings.indexOf(row) + row.length).split('|');
      expect(rest[1]?.trim(), `${name}'s flag`).toBe(spec.flag === null ? 'none' : `\`${spec.flag}\``);
      const applies = { now: /^at once/, restart: /^at the next start/, desktop: /^by the desktop app/ }[spec.applies];
      expect(rest[2]?.trim(), `${name} applies`).toMatch(applies);
    }
    expect(rows.map((row) => settings.indexOf(row))).toEqual(rows.map((row) => settings.indexOf(row)).sort((a, b) => a - b));
    expect(settings).toContain(`a whole number from 1 to ${MAX_TIMER_SECONDS}`);
    expect(settings).toContain(`at most ${MAX_ENDPOINTS} http(s) URLs`);
  });
});

describe('docs/security.md: the threat model names the tests that hold it', () => {
  const model = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
  it('names only test files that exist, and the numbers the code uses', () => {
    const named = [...model.matchAll(/`(test\/[\w/.-]+\.test\.ts)`/g)].map((match) => match[1] as string);
    expect(named.length).toBeGreaterThan(4);
    for (const file of named) expect(() => readFileSync(new URL(`../../${file}`, import.meta.url)), file).not.toThrow();
    expect(model.replace(/\s+/g, ' ')).toContain(`at most ${MAX_LIVE_SESSIONS} alive`);
    expect(model).toContain(`within \`--ts-window\` (${DEFAULTS.tsWindowSeconds} s)`);
  });
});

describe('docs/api.md: Pinfold as a remote pinning service, as the code and the Keys page say it', () => {
  it('the Kubo command the Keys page shows, and the delegate', () => {
    expect(api).toContain(kuboServiceAddCommand('http://127.0.0.1:5080'));
    expect(api).toContain(`\`delegates\` is Pinfold's own address, \`${multiaddrOfUrl('http://127.0.0.1:5080')}\``);
    expect(api).toContain('a plan limit: 409 `INSUFFICIENT_FUNDS`');
  });
});
