import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { NetworkPatchBody, SettingsChangeBody } from '../../../main/http/input/settings-input.js';
import { SERVICE_SETTINGS, settingFlags } from '../../../main/http/settings-catalog.js';
import { defaultConfig, MAX_TIMER_SECONDS } from '../../../main/base/config.js';
import { MAX_ENDPOINTS } from '../../../main/network/endpoints.js';
import { refusalOf, type Refusal } from '../../helpers/request-refusal.js';

describe('network settings request schema', () => {
  it('takes any of fetch_from, routing and offline; endpoints normalized, duplicates dropped', () => {
    expect(requestInput(NetworkPatchBody, {})).toEqual({});
    expect(requestInput(NetworkPatchBody, { offline: true })).toEqual({ offline: true });
    expect(
      requestInput(NetworkPatchBody, {
        fetch_from: ['https://gw.example/', ' http://127.0.0.1:8080/prefix/ ', 'https://gw.example'],
        routing: [],
        offline: false,
      }),
    ).toEqual({ fetchFrom: ['https://gw.example', 'http://127.0.0.1:8080/prefix'], routing: [], offline: false });
    const full = Array.from({ length: MAX_ENDPOINTS }, (_, i) => `https://h${i}.example`);
    expect(requestInput(NetworkPatchBody, { routing: [...full, full[0]] }).routing).toEqual(full);
  });

  it('refuses every wrong shape and every URL the endpoints refuse, naming the field', () => {
    const refusals: [unknown, Refusal][] = [
      [{ gateways: [] }, { msg: 'body: unknown setting "gateways"', param: 'gateways' }],
      [{ fetch_from: 'https://a.example' }, { msg: 'fetch_from: a list of URLs is required', param: 'fetch_from' }],
      [{ fetch_from: null }, { msg: 'fetch_from: a list of URLs is required', param: 'fetch_from' }],
      [{ routing: { url: 'https://a.example' } }, { msg: 'routing: a list of URLs is required', param: 'routing' }],
      [{ fetch_from: [5] }, { msg: 'fetch_from: an http or https URL is required', param: 'fetch_from' }],
      [{ fetch_from: [' '] }, { msg: 'fetch_from: an http or https URL is required', param: 'fetch_from' }],
      [{ fetch_from: ['gw.example'] }, { msg: 'fetch_from: "gw.example" is not a URL', param: 'fetch_from' }],
      [{ routing: ['ftp://gw.example'] }, { msg: 'routing: "ftp://gw.example" is not an http or https URL', param: 'routing' }],
      [{ routing: ['https://user:pw@gw.example'] }, { msg: 'routing: a URL must not carry credentials', param: 'routing' }],
      [{ routing: ['https://gw.example/?x=1'] }, { msg: 'routing: a URL must not carry a query or a fragment', param: 'routing' }],
      [{ routing: ['https://gw.example/#x'] }, { msg: 'routing: a URL must not carry a query or a fragment', param: 'routing' }],
      [
        { fetch_from: Array.from({ length: MAX_ENDPOINTS + 1 }, (_, i) => `https://h${i}.example`) },
        { msg: `fetch_from: at most ${MAX_ENDPOINTS} URLs`, param: 'fetch_from' },
      ],
      [{ offline: 'yes' }, { msg: 'offline: true or false is required', param: 'offline' }],
      [{ offline: null }, { msg: 'offline: true or false is required', param: 'offline' }],
      [[], { msg: 'body: a JSON object is required', param: undefined }],
      // Several faults: a key that is no setting first, then fetch_from (URL by URL), routing, offline.
      [
        { offline: 'yes', fetch_from: ['nope'], gateways: [] },
        { msg: 'body: unknown setting "gateways"', param: 'gateways' },
      ],
      [
        { fetch_from: ['nope', 5], offline: 'yes' },
        { msg: 'fetch_from: "nope" is not a URL', param: 'fetch_from' },
      ],
      [
        { routing: 'x', offline: 'yes' },
        { msg: 'routing: a list of URLs is required', param: 'routing' },
      ],
    ];
    for (const [body, refusal] of refusals) expect(refusalOf(NetworkPatchBody, body), JSON.stringify(body).slice(0, 60)).toEqual(refusal);
  });
});

describe('the settings change schema (POST /api/v0/settings), one section at a time', () => {
  it('takes any of the settings, in the names settings.json gives them', () => {
    expect(requestInput(SettingsChangeBody, {})).toEqual({});
    const every = {
      cid_profile: 'unixfs-v0-2015',
      gc_interval_seconds: 1,
      gc_grace_seconds: 0,
      fetch_from: ['https://gw.example/'],
      routing: [],
      offline: true,
      port: 0,
      public_gateway: true,
      launch_at_login: false,
      theme: 'dark',
    };
    expect(requestInput(SettingsChangeBody, every)).toEqual({ ...every, fetch_from: ['https://gw.example'] });
    expect(requestInput(SettingsChangeBody, { port: 65535, gc_interval_seconds: MAX_TIMER_SECONDS, gc_grace_seconds: MAX_TIMER_SECONDS })).toEqual({
      port: 65535,
      gc_interval_seconds: MAX_TIMER_SECONDS,
      gc_grace_seconds: MAX_TIMER_SECONDS,
    });
    for (const theme of ['system', 'light', 'dark']) expect(requestInput(SettingsChangeBody, { theme })).toEqual({ theme });
  });

  it('refuses each bad value naming its setting, a key that is no setting first', () => {
    const seconds = (name: string, min: number) => `${name}: a whole number of seconds from ${min} to ${MAX_TIMER_SECONDS} is required`;
    const refusals: [unknown, Refusal][] = [
      [{ gateway: 'https://x.example' }, { msg: 'body: unknown setting "gateway"', param: 'gateway' }],
      [
        { theme: 'blue', colour: 'red' },
        { msg: 'body: unknown setting "colour"', param: 'colour' },
      ],
      [{ cid_profile: 'unixfs-v0' }, { msg: 'cid_profile: one of unixfs-v1-2025, unixfs-v0-2015 is required', param: 'cid_profile' }],
      [{ gc_interval_seconds: 0 }, { msg: seconds('gc_interval_seconds', 1), param: 'gc_interval_seconds' }],
      [{ gc_interval_seconds: '60' }, { msg: seconds('gc_interval_seconds', 1), param: 'gc_interval_seconds' }],
      [{ gc_interval_seconds: 1.5 }, { msg: seconds('gc_interval_seconds', 1), param: 'gc_interval_seconds' }],
      [{ gc_interval_seconds: MAX_TIMER_SECONDS + 1 }, { msg: seconds('gc_interval_seconds', 1), param: 'gc_interval_seconds' }],
      [{ gc_grace_seconds: -1 }, { msg: seconds('gc_grace_seconds', 0), param: 'gc_grace_seconds' }],
      [{ fetch_from: ['ftp://gw.example'] }, { msg: 'fetch_from: "ftp://gw.example" is not an http or https URL', param: 'fetch_from' }],
      [{ routing: 'https://r.example' }, { msg: 'routing: a list of URLs is required', param: 'routing' }],
      [{ offline: 'no' }, { msg: 'offline: true or false is required', param: 'offline' }],
      [{ port: 65536 }, { msg: 'port: a whole number from 0 to 65535 is required', param: 'port' }],
      [{ port: -1 }, { msg: 'port: a whole number from 0 to 65535 is required', param: 'port' }],
      [{ port: '5080' }, { msg: 'port: a whole number from 0 to 65535 is required', param: 'port' }],
      [{ public_gateway: 'true' }, { msg: 'public_gateway: true or false is required', param: 'public_gateway' }],
      [{ launch_at_login: null }, { msg: 'launch_at_login: true or false is required', param: 'launch_at_login' }],
      [{ theme: 'blue' }, { msg: 'theme: one of system, light, dark is required', param: 'theme' }],
      // Several faults: the first in the settings' order (as GET lists them) is answered.
      [
        { theme: 'blue', port: -1, cid_profile: 'x' },
        { msg: 'cid_profile: one of unixfs-v1-2025, unixfs-v0-2015 is required', param: 'cid_profile' },
      ],
      [[], { msg: 'body: a JSON object is required', param: undefined }],
    ];
    for (const [body, refusal] of refusals) expect(refusalOf(SettingsChangeBody, body), JSON.stringify(body).slice(0, 60)).toEqual(refusal);
  });

  it("names each setting's flag, and maps a run's flags onto the settings they pin", () => {
    const flags = Object.fromEntries(Object.entries(SERVICE_SETTINGS).map(([name, spec]) => [name, spec.flag]));
    expect(flags).toEqual({
      cid_profile: '--cid-profile',
      gc_interval_seconds: '--gc-interval',
      gc_grace_seconds: '--gc-grace',
      fetch_from: '--fetch-from',
      routing: '--routing',
      offline: '--offline',
      port: '--port',
      public_gateway: '--public-gateway',
      launch_at_login: null,
      theme: null,
      welcome_seen: null,
    });
    expect(settingFlags(defaultConfig())).toEqual({});
    expect(
      settingFlags(
        defaultConfig({
          port: 0,
          desktopPort: 7,
          gcIntervalSeconds: 5,
          gcGraceSeconds: 0,
          publicGateway: false,
          cidProfile: 'unixfs-v0-2015',
          network: { offline: true },
        }),
      ),
    ).toEqual({ port: 0, gc_interval_seconds: 5, gc_grace_seconds: 0, public_gateway: false, cid_profile: 'unixfs-v0-2015', offline: true });
  });
});
