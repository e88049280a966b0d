import { describe, expect, it } from 'vitest';
import { gatewayQuery } from '../../../main/http/input/gateway-input.js';
import { refusalOf } from '../../helpers/input-refusal.js';

const none = {
  format: null,
  'car-version': undefined,
  'car-order': undefined,
  'car-dups': undefined,
  'dag-scope': 'all',
  'entity-bytes': undefined,
  filename: undefined,
  download: false,
};

describe('the gateway query schema (http/input/gateway-input.ts)', () => {
  it('reads nothing from a query without its parameters, with or without ts', () => {
    for (const search of ['', '?', '?ts=1', '?ts=', '?unrelated=1&ts=2']) expect(gatewayQuery(search), search).toEqual(none);
  });

  it('reads each parameter, the first of a repeated one', () => {
    expect(gatewayQuery('?format=car&car-version=1&car-order=unk&car-dups=y&dag-scope=entity&entity-bytes=0:*&filename=a%20b.car&download=true')).toEqual({
      format: 'car',
      'car-version': '1',
      'car-order': 'unk',
      'car-dups': true,
      'dag-scope': 'entity',
      'entity-bytes': { from: 0, to: null },
      filename: 'a b.car',
      download: true,
    });
    expect(gatewayQuery('?format=raw&format=car').format).toBe('raw');
    expect(gatewayQuery('?format=').format).toBeNull();
    expect(gatewayQuery('?car-dups=n')['car-dups']).toBe(false);
    expect(gatewayQuery('?dag-scope=entity&entity-bytes=-10:-1')['entity-bytes']).toEqual({ from: -10, to: -1 });
    expect(gatewayQuery('?download=yes').download).toBe(false);
  });

  it('refuses each bad parameter in the words the gateway always used, naming it', () => {
    const cases: [string, string, string][] = [
      ['?format=nope', 'format: "nope" is not one of raw, car, tar, dag-json, dag-cbor, json, cbor, ipns-record', 'format'],
      ['?car-dups=maybe', 'car-dups: must be "y" or "n"', 'car-dups'],
      ['?car-dups=', 'car-dups: must be "y" or "n"', 'car-dups'],
      ['?dag-scope=some', 'dag-scope: must be all, entity or block', 'dag-scope'],
      ['?dag-scope=', 'dag-scope: must be all, entity or block', 'dag-scope'],
      ['?entity-bytes=0:10', 'entity-bytes: only allowed with dag-scope=entity', 'entity-bytes'],
      ['?dag-scope=entity&entity-bytes=a:b', 'entity-bytes: must be "from:to" (integers, "to" may be "*")', 'entity-bytes'],
      ['?dag-scope=entity&entity-bytes=', 'entity-bytes: must be "from:to" (integers, "to" may be "*")', 'entity-bytes'],
      ['?dag-scope=entity&entity-bytes=10:5', 'entity-bytes: "to" is before "from"', 'entity-bytes'],
      ['?filename=', 'filename: must be a non-empty single line', 'filename'],
      ['?filename=a%0Ab', 'filename: must be a non-empty single line', 'filename'],
      // Several faults: the fields in order, then entity-bytes beside dag-scope.
      ['?format=nope&dag-scope=some', 'format: "nope" is not one of raw, car, tar, dag-json, dag-cbor, json, cbor, ipns-record', 'format'],
      ['?entity-bytes=x&filename=', 'filename: must be a non-empty single line', 'filename'],
      ['?entity-bytes=x', 'entity-bytes: only allowed with dag-scope=entity', 'entity-bytes'],
    ];
    for (const [search, message, param] of cases)
      expect(
        refusalOf(() => gatewayQuery(search)),
        search,
      ).toEqual({ message, param });
  });
});
