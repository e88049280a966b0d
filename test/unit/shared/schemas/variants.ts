import { is, type GenericSchema } from 'valibot';
import { expect } from 'vitest';

/**
 * The malformed variants of a good record and the check that a schema judges each as its old hand guard
 * did (legacy-guards.ts). The domain is what JSON.parse gives, the only values the window checks: no
 * undefined, NaN or Infinity.
 */

/** What goes in place of a field: one value of each JSON type, and odd values of a type (a fraction, '', an unknown word). */
const REPLACEMENTS: readonly unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', '2026-13-99', [], ['x'], [1], {}, { x: 1 }];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

const kindOf = (value: unknown): Kind =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as 'boolean' | 'number' | 'string' | 'object');

interface Variant {
  /** `path: missing` or `path: <replacement as JSON>`; the path `(whole)` is the record itself. */
  label: string;
  value: unknown;
  /** A field missing, or given a value of another JSON type than the good record's. */
  malformed: boolean;
}

/** A copy of `record` with the value at `path` replaced by `replace` (undefined deletes an object's key). */
function edited(record: Json, path: readonly (string | number)[], replace: Json | undefined): unknown {
  const copy = structuredClone(record);
  let parent: Json = copy;
  for (const step of path.slice(0, -1)) parent = (parent as Record<string | number, Json>)[step] as Json;
  const last = path.at(-1) as string | number;
  if (replace === undefined) delete (parent as Record<string | number, Json>)[last];
  else (parent as Record<string | number, Json>)[last] = replace;
  return copy;
}

function fieldVariants(record: Json, path: (string | number)[], value: Json, variants: Variant[]): void {
  const name = path
    .map((step) => (typeof step === 'number' ? `[${step}]` : `.${step}`))
    .join('')
    .replace(/^\./, '');
  if (typeof path.at(-1) === 'string') variants.push({ label: `${name}: missing`, value: edited(record, path, undefined), malformed: true });
  for (const replacement of REPLACEMENTS) {
    variants.push({
      label: `${name}: ${JSON.stringify(replacement)}`,
      value: edited(record, path, replacement as Json),
      malformed: kindOf(replacement) !== kindOf(value),
    });
  }
  if (Array.isArray(value) && value.length > 0) fieldVariants(record, [...path, 0], value[0] as Json, variants);
  else if (kindOf(value) === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, Json>)) fieldVariants(record, [...path, key], inner, variants);
  }
}

/** Every field of `good` (nested ones, and each array's first entry) missing or replaced; the record as another type; an extra field. */
export function variantsOf(record: object): Variant[] {
  const good = record as Json;
  const variants: Variant[] = [
    ...(
      [
        ['null', null],
        ['"x"', 'x'],
        ['0', 0],
        ['[]', []],
        ['[the record]', [good]],
      ] as const
    ).map(([label, value]) => ({ label: `(whole): ${label}`, value, malformed: true })),
    { label: '(whole): with an extra field', value: { ...(good as object), extra_field: 1 }, malformed: false },
  ];
  for (const [key, value] of Object.entries(good as Record<string, Json>)) fieldVariants(good, [key], value, variants);
  return variants;
}

/**
 * `good` passes `schema`; each variant of it gets the verdict the old `guard` gave; and the malformed
 * variants that are accepted are exactly the `tolerated` ones (`path: missing`, `path: <json>`, or
 * `path: *` for every malformed variant at that path): the optional and unchecked fields.
 */
export function expectGuardVerdicts(schema: GenericSchema, guard: (value: unknown) => boolean, good: object, tolerated: readonly string[] = []): void {
  expect(is(schema, good), 'the good record').toBe(true);
  const variants = variantsOf(good);
  const verdicts = (judge: (value: unknown) => boolean) => Object.fromEntries(variants.map((variant) => [variant.label, judge(variant.value)]));
  expect(verdicts((value) => is(schema, value))).toEqual(verdicts(guard));
  const matches = (label: string, pattern: string) => label === pattern || (pattern.endsWith(': *') && label.startsWith(pattern.slice(0, -1)));
  const accepted = variants.filter((variant) => variant.malformed && is(schema, variant.value)).map((variant) => variant.label);
  expect(
    accepted.filter((label) => !tolerated.some((pattern) => matches(label, pattern))),
    'malformed variants accepted',
  ).toEqual([]);
  expect(
    tolerated.filter((pattern) => !accepted.some((label) => matches(label, pattern))),
    'tolerated variants refused',
  ).toEqual([]);
}
