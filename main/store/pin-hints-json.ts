/**
 * The text form both engines keep a pin's PSA hints in (`pins.meta`, `pins.origins`, migration 18 / pg 4):
 * JSON the pins domain checked before it was written. Read back defensively all the same: a row edited by
 * hand into something else reads as no hints rather than failing every list it is on.
 */

export function metaText(meta: Readonly<Record<string, string>>): string {
  return JSON.stringify(meta);
}

export function originsText(origins: readonly string[]): string {
  return JSON.stringify(origins);
}

export function metaOfText(text: string): Record<string, string> {
  const parsed = parseJson(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  const meta: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (typeof value === 'string') meta[key] = value;
  return meta;
}

export function originsOfText(text: string): string[] {
  const parsed = parseJson(text);
  return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
