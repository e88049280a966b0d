import { readFileSync } from 'node:fs';
import type { Plan } from '../../shared/api-types.js';
import { dataFolderPaths } from '../base/data-folder.js';

const GiB = 1024 ** 3;
const TiB = 1024 ** 4;
/** What "unlimited" looks like on the wire: the largest integer every JSON client reads exactly. */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

/** The owner's plan: never listed, never chosen by a partner. */
export const LOCAL_PLAN: Plan = {
  id: 0,
  name: 'Local',
  price: '0.00',
  pinned_count_limit: UNLIMITED,
  pinned_bytes_limit: UNLIMITED,
  ingress_limit: UNLIMITED,
  egress_limit: UNLIMITED,
  ipns_limit: UNLIMITED,
};

export const FREE_PLAN_ID = 1;

export const BUILT_IN_PLANS: readonly Plan[] = [
  { id: 1, name: 'Free', price: '0.00', pinned_count_limit: 100, pinned_bytes_limit: GiB, ingress_limit: 5 * GiB, egress_limit: 5 * GiB, ipns_limit: 3 },
  {
    id: 2,
    name: 'Starter',
    price: '4.99',
    pinned_count_limit: 1_000,
    pinned_bytes_limit: 50 * GiB,
    ingress_limit: 100 * GiB,
    egress_limit: 100 * GiB,
    ipns_limit: 10,
  },
  { id: 3, name: 'Pro', price: '9.99', pinned_count_limit: 10_000, pinned_bytes_limit: 500 * GiB, ingress_limit: TiB, egress_limit: TiB, ipns_limit: 50 },
  {
    id: 4,
    name: 'Business',
    price: '49.99',
    pinned_count_limit: 100_000,
    pinned_bytes_limit: 5 * TiB,
    ingress_limit: 10 * TiB,
    egress_limit: 10 * TiB,
    ipns_limit: 500,
  },
];

export interface PlanCatalog {
  /** The plans a partner may choose, in id order (the public plan list). */
  listed(): readonly Plan[];
  /** Any plan by id, including Local; null when unknown. */
  byId(id: number): Plan | null;
}

function isPlan(value: unknown): value is Plan {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  const ints = ['id', 'pinned_count_limit', 'pinned_bytes_limit', 'ingress_limit', 'egress_limit', 'ipns_limit'];
  return (
    ints.every((key) => Number.isSafeInteger(v[key]) && (v[key] as number) >= 0) &&
    typeof v.name === 'string' &&
    typeof v.price === 'string' &&
    /^\d+\.\d{2}$/.test(v.price)
  );
}

/** Plans come from `<data>/plans.json` when present, else the built-in set (contract section 8). */
export function loadPlanCatalog(dataDir: string): PlanCatalog {
  let plans: readonly Plan[] = BUILT_IN_PLANS;
  const path = dataFolderPaths(dataDir).plans;
  let text: string | null = null;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every(isPlan))
      throw new Error(`${path} must be a non-empty JSON array of plans with id, name, price ("0.00") and the five limits`);
    if (parsed.some((plan) => plan.id === LOCAL_PLAN.id)) throw new Error(`${path}: plan id 0 is reserved for the Local plan`);
    if (!parsed.some((plan) => plan.id === FREE_PLAN_ID)) throw new Error(`${path}: plan id ${FREE_PLAN_ID} (new accounts' plan) is missing`);
    plans = [...parsed].sort((a, b) => a.id - b.id);
  }
  const byId = new Map<number, Plan>([[LOCAL_PLAN.id, LOCAL_PLAN], ...plans.map((plan): [number, Plan] => [plan.id, plan])]);
  return {
    listed: () => plans,
    byId: (id) => byId.get(id) ?? null,
  };
}
