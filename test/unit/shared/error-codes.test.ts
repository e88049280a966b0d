import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATUS_OF } from '../../../main/http/error-status.js';
import { ERROR_CODES, ErrorCodes, isErrorCode } from '../../../shared/error-codes.js';

const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const source = readFileSync(new URL('../../../shared/error-codes.ts', import.meta.url), 'utf8');

/** The rows of docs/errors.md's table: `| \`string\` | status | when |`. */
function documentedRows(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of docs.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)) rows.set(match[1] as string, Number(match[2]));
  return rows;
}

/**
 * The stable `error` strings (contract section 3): one list in shared/error-codes.ts, one status each in
 * main/http/error-status.ts, and the same strings with the same statuses in docs/errors.md, which clients read.
 */
describe('the error strings', () => {
  it('are short snake_case strings, each once', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(isErrorCode('plan_limit')).toBe(true);
    expect(isErrorCode('limit_reached')).toBe(false);
    expect(isErrorCode(403)).toBe(false);
  });

  it('each map to one HTTP error status', () => {
    expect(Object.keys(STATUS_OF).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) {
      expect(Number.isInteger(STATUS_OF[code]), code).toBe(true);
      expect(STATUS_OF[code], code).toBeGreaterThanOrEqual(400);
      expect(STATUS_OF[code], code).toBeLessThan(600);
    }
  });

  it('are documented in docs/errors.md with their status, and nothing else is', () => {
    const rows = documentedRows();
    expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(rows.get(code), code).toBe(STATUS_OF[code]);
  });

  it('carry a comment in shared/error-codes.ts that starts with their status', () => {
    for (const [key, code] of Object.entries(ErrorCodes)) {
      const comment = new RegExp(String.raw`/\*\* (\d{3}): [^\n]+\*/\n\s+${key}: '${code}',`).exec(source);
      expect(comment, key).not.toBeNull();
      expect(Number(comment?.[1]), key).toBe(STATUS_OF[code]);
    }
  });

  it('keep a plan limit, a missing permission and a low balance apart', () => {
    expect(STATUS_OF[ErrorCodes.planLimit]).toBe(403);
    expect(STATUS_OF[ErrorCodes.permission]).toBe(403);
    expect(STATUS_OF[ErrorCodes.balance]).toBe(402);
    expect(new Set([ErrorCodes.planLimit, ErrorCodes.permission, ErrorCodes.balance]).size).toBe(3);
  });
});
