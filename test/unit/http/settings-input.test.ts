import { describe, expect, it } from 'vitest';
import { requestInput } from '../../../main/http/input/request-input.js';
import { NetworkPatchBody } from '../../../main/http/input/settings-input.js';
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
