import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '../../main/base/config.js';
import { MAX_NESTING } from '../../main/content/read/nesting-depth.js';
import { autostartFile, HIDDEN_ARG } from '../../main/desktop/launch-at-login.js';
import { MAX_LINK_LENGTH } from '../../main/desktop/protocol-links.js';
import { DEFAULT_POLICY } from '../../main/desktop/service-supervisor-state.js';
import { trayStatusLine } from '../../main/desktop/tray-status.js';
import { UPDATE_CHECK_INTERVAL_MS } from '../../main/desktop/updates.js';
import { CONTENT_ISOLATION_HEADERS } from '../../main/http/content-isolation.js';
import { UPLOAD_ADDRESS_LIFETIME_SECONDS } from '../../main/http/upload-address.js';
import { MAX_RESOLVE_STEPS } from '../../main/names/resolver.js';
import { MAX_ENDPOINTS } from '../../main/network/endpoints.js';
import { DEFAULT_FETCH_TUNING } from '../../main/network/fetch-tuning.js';
import { DEFAULT_NETWORK } from '../../main/network/settings.js';
import { MAX_LIVE_SESSIONS } from '../../main/accounts/session-keys.js';

/** The README wraps its lines anywhere, so it is read with every run of whitespace as one space. */
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');

/**
 * What the README tells a user about the rules a client meets (issue 11) holds the numbers the code uses:
 * a change to one of them fails here until the README says it too.
 */
describe('README: the rules a client meets, with the numbers the code uses', () => {
  it('uploads: the address lifetime, the step-2 pace, what step 2 refuses, reservations and addresses', () => {
    expect(readme).toContain(`valid for ${UPLOAD_ADDRESS_LIFETIME_SECONDS / 60} minutes`);
    expect(readme).toContain(
      `at least ${DEFAULTS.uploadMinBytesPerWindow / 1024} KiB, or the rest of the body if less, in every ${DEFAULTS.uploadIdleTimeoutMs / 1000} s of reading`,
    );
    expect(readme).toContain('cut off with 408');
    expect(readme).toMatch(/another method or path, is 401; a raw body whose `Content-Length` is above `size` is 413/);
    expect(readme).toContain("Step 1 reserves `size` of the plan's ingress");
    expect(readme).toContain("never from the request's `Host`. It dies with the access key that asked for it.");
  });

  it('content: the isolation headers, the nesting limit, loops and unknown routes', () => {
    for (const [name, value] of Object.entries(CONTENT_ISOLATION_HEADERS)) {
      // As headers are usually written: content-security-policy as Content-Security-Policy.
      const spelled = name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
      expect(readme).toContain(`\`${spelled}: ${value}\``);
    }
    expect(readme).toContain(`nests deeper than ${MAX_NESTING} levels`);
    expect(readme).toContain(`a chain of more than ${MAX_RESOLVE_STEPS} names, is 508`);
    expect(readme).toContain('A route that does not exist is 404, with or without `ts`');
    expect(readme).toContain('`127.0.0.1`, `localhost`, `[::1]` or the `--host` given');
  });
});

describe('README: the service process, with the numbers the supervisor uses', () => {
  it('the restart backoff, when it gives up, and the stop deadline', () => {
    const waits = [1, 2, 3, 4, 5].map((attempt) => DEFAULT_POLICY.backoffMs(attempt) / 1000);
    expect(readme).toContain(`restarted after ${waits[0]} s, then ${waits.slice(1).join(', ')} and at most ${DEFAULT_POLICY.backoffMs(99) / 1000} s`);
    expect(readme).toContain(`after ${DEFAULT_POLICY.maxCrashes} crashes within ${DEFAULT_POLICY.crashWindowMs / 60_000} minutes it stays stopped`);
    expect(readme).toContain(`one that has not exited within ${DEFAULT_POLICY.stopDeadlineMs / 1000} s is killed`);
    // The tray's line while it restarts, as the README quotes it.
    expect(readme).toContain(`"${trayStatusLine({ state: 'restarting' }, null)}"`);
  });
});

describe('README: how the desktop app behaves, with the values the code uses', () => {
  it('launch at login, links and updates', () => {
    expect(autostartFile({ XDG_CONFIG_HOME: '/x' }, '/home/me')).toBe('/x/autostart/pinfold.desktop');
    expect(readme).toContain('(`$XDG_CONFIG_HOME/autostart/pinfold.desktop`, `~/.config/autostart/` when XDG_CONFIG_HOME is unset;');
    expect(readme).toContain(`Pinfold stays in the tray (\`${HIDDEN_ARG}\`;`);
    expect(readme).toContain(`at most ${MAX_LINK_LENGTH} characters`);
    expect(readme).toContain(`at start and every ${UPDATE_CHECK_INTERVAL_MS / 3_600_000} hours`);
    expect(readme).toContain('`PINFOLD_UPDATE_URL=<https URL>`');
    expect(readme).toContain('`PINFOLD_UPDATES=off`');
  });
});

describe('README: how a fetch from the network behaves, with the values the code uses', () => {
  it('sources, requests, timeouts, cool-downs and batches', () => {
    const t = DEFAULT_FETCH_TUNING;
    expect(readme).toContain(`\`fetch_from\`, default \`${DEFAULT_NETWORK.fetchFrom.join(', ')}\``);
    expect(readme).toContain(`\`routing\`, default \`${DEFAULT_NETWORK.routing.join(', ')}\``);
    expect(readme).toContain(`at most ${MAX_ENDPOINTS} of each`);
    expect(readme).toContain(`at most ${t.perSourceConcurrency} requests at once to each`);
    expect(readme).toContain(`its source is set aside for ${t.wrongBlockAsideMs / 60_000} minutes`);
    expect(readme).toContain(`first byte within ${t.firstByteTimeoutMs / 1000} s and never fall silent for ${t.idleTimeoutMs / 1000} s`);
    expect(readme).toContain(`(${t.backoffBaseMs / 1000} s, doubling with each failure in a row up to ${t.backoffMaxMs / 1000} s, with jitter)`);
    expect(readme).toContain(
      `after ${t.failuresBeforeAside} in a row it is set aside for ${t.asideMs / 1000} s, doubling each time up to ${t.asideMaxMs / 60_000} minutes`,
    );
    expect(readme).toContain(`(a wait over ${t.maxRetryAfterMs / 60_000} minutes sets it aside that long)`);
    expect(readme).toContain(`tries again after ${t.roundDelayMs / 1000} s, doubling up to ${t.roundDelayMaxMs / 1000} s`);
    expect(readme).toContain(`committed every ${t.batchBytes / 1024 / 1024} MiB, ${t.batchBlocks} blocks or ${t.batchMs / 1000} s`);
    expect(readme).toContain(`(\`--pin-timeout\`, default ${DEFAULTS.pinTimeoutSeconds} s)`);
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
