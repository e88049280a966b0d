import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUILT_IN_PLANS, FREE_PLAN_ID, LOCAL_PLAN, loadPlanCatalog, UNLIMITED } from '../../../main/accounts/plans.js';
import type { Plan } from '../../../shared/api-types.js';

const GiB = 1024 ** 3;

function plan(id: number, name: string, price: string, scale = 1): Plan {
  return {
    id,
    name,
    price,
    pinned_count_limit: 10 * scale,
    pinned_bytes_limit: 1000 * scale,
    ingress_limit: 2000 * scale,
    egress_limit: 3000 * scale,
    ipns_limit: scale,
  };
}

describe('plan catalog', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pinfold-plans-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('built in: Free 0.00 (100 pins, 1 GiB, 5 GiB, 5 GiB, 3), Starter, Pro, Business, each larger; Local not listed', () => {
    const catalog = loadPlanCatalog(dir);
    expect(catalog.listed().map((p) => [p.id, p.name, p.price])).toEqual([
      [1, 'Free', '0.00'],
      [2, 'Starter', '4.99'],
      [3, 'Pro', '9.99'],
      [4, 'Business', '49.99'],
    ]);
    expect(catalog.byId(FREE_PLAN_ID)).toEqual({
      id: 1,
      name: 'Free',
      price: '0.00',
      pinned_count_limit: 100,
      pinned_bytes_limit: GiB,
      ingress_limit: 5 * GiB,
      egress_limit: 5 * GiB,
      ipns_limit: 3,
    });
    const keys = ['pinned_count_limit', 'pinned_bytes_limit', 'ingress_limit', 'egress_limit', 'ipns_limit'] as const;
    for (let i = 1; i < BUILT_IN_PLANS.length; i++)
      for (const key of keys) expect((BUILT_IN_PLANS[i] as Plan)[key]).toBeGreaterThan((BUILT_IN_PLANS[i - 1] as Plan)[key]);
    expect(catalog.listed().some((p) => p.name === 'Local')).toBe(false);
    expect(catalog.byId(0)).toEqual(LOCAL_PLAN);
    expect(LOCAL_PLAN.pinned_bytes_limit).toBe(UNLIMITED);
    expect(catalog.byId(99)).toBeNull();
  });

  it('reads <data>/plans.json when present, sorted by id', () => {
    writeFileSync(join(dir, 'plans.json'), JSON.stringify([plan(7, 'Big', '12.50', 10), plan(1, 'Tiny', '0.00')]));
    const catalog = loadPlanCatalog(dir);
    expect(catalog.listed().map((p) => p.id)).toEqual([1, 7]);
    expect(catalog.byId(7)).toEqual(plan(7, 'Big', '12.50', 10));
    expect(catalog.byId(2)).toBeNull();
    expect(catalog.byId(0)).toEqual(LOCAL_PLAN);
  });

  const malformed: [string, string][] = [
    ['not JSON', '{ this is not json'],
    ['an object', JSON.stringify({ plans: [] })],
    ['an empty array', '[]'],
    ['a price without two decimals', JSON.stringify([{ ...plan(1, 'Free', '0') }])],
    ['a negative limit', JSON.stringify([{ ...plan(1, 'Free', '0.00'), ipns_limit: -1 }])],
    ['a missing limit', JSON.stringify([{ id: 1, name: 'Free', price: '0.00' }])],
    ['a string id', JSON.stringify([{ ...plan(1, 'Free', '0.00'), id: '1' }])],
    ['the reserved id 0', JSON.stringify([plan(1, 'Free', '0.00'), plan(0, 'Mine', '0.00')])],
    ['no plan 1 for new accounts', JSON.stringify([plan(2, 'Starter', '1.00')])],
  ];
  for (const [what, text] of malformed) {
    it(`refuses a plans.json with ${what}, naming the file`, () => {
      writeFileSync(join(dir, 'plans.json'), text);
      expect(() => loadPlanCatalog(dir)).toThrow(join(dir, 'plans.json'));
    });
  }
});
