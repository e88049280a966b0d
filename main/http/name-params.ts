import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import { isKeyFormat, KEY_FORMATS, MAX_SECRET_TEXT, type KeyText } from '../names/keys.js';
import type { ImportNameInput } from '../names/manage-names.js';
import type { NamePage } from '../names/name-views.js';
import { tryParseIpnsName, type IpnsName } from '../names/name-parse.js';
import { parseCidParam } from './cid-param.js';

/**
 * The request parameters of the IPNS API and the account API's IPNS views (contract section 7), checked
 * into what the names domain takes; each refusal is a 400 naming its parameter. Callers parse in the order
 * the parameters are listed for their route, which is the order the errors take precedence in.
 */

const MAX_ALIAS_LENGTH = 256;
export const MAX_PAGE_LIMIT = 1000;

/** An IPNS name in any accepted form (k51..., 12D3KooW..., Qm..., white space trimmed). */
export function parseIpnsName(value: unknown, param: string): IpnsName {
  if (typeof value !== 'string' || value === '') throw new BadInputError(`${param} is required and must be an IPNS name`);
  const parsed = tryParseIpnsName(value.trim());
  if (parsed === undefined) throw new BadInputError(`${param} is not a valid IPNS name (expected k51... or a peer ID)`);
  return parsed;
}

/** The CID a name points at: the IPNS API takes any multibase. */
export function parseNameValue(value: unknown, param: string): CID {
  return parseCidParam(value, param, 'ipns');
}

/** An optional alias: undefined, null or '' mean none. */
export function parseOptionalAlias(value: unknown, param: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw new BadInputError(`${param} must be a string`);
  if (value.length > MAX_ALIAS_LENGTH) throw new BadInputError(`${param} is longer than ${MAX_ALIAS_LENGTH} characters`);
  return value;
}

export function parseRequiredAlias(value: unknown, param: string): string {
  const alias = parseOptionalAlias(value, param);
  if (alias === null) throw new BadInputError(`${param} is required`);
  return alias;
}

/** The starting sequence of an import: a non-negative integer that still leaves room for `seq + 1`. */
export function parseSeq(value: unknown, param: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value >= Number.MAX_SAFE_INTEGER) {
    throw new BadInputError(`${param} must be a non-negative integer`);
  }
  return value;
}

/** `pin=true` on create and publish; absent, '' and 'false' mean no. */
export function parsePinFlag(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new BadInputError('pin must be true or false');
}

/** `name/public`'s `on`: required, `true` or `false`. */
export function parsePublicSwitch(value: unknown): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new BadInputError('on is required: true or false');
}

/**
 * Query values arrive as text; the page is checked as numbers. Decimal digits become a number, '' means
 * absent, and anything else goes through as it is, for {@link parseNamePage} to refuse with its 400.
 */
export function queryNumber(value: unknown): unknown {
  if (value === '') return undefined;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
}

/** Spec: `limit` defaults to 10 and `start` to 0. */
export function parseNamePage(page: { limit?: unknown; start?: unknown }): NamePage {
  const limit = page.limit ?? 10;
  const start = page.start ?? 0;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new BadInputError(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  }
  if (typeof start !== 'number' || !Number.isSafeInteger(start) || start < 0) throw new BadInputError('start must be a non-negative integer');
  return { limit, start };
}

/** The JSON body of name/import, as received. */
export interface ImportNameBody {
  /** Absent or '' (a Pinfold extension): the key's own name. */
  name?: unknown;
  value: unknown;
  secret_key: unknown;
  format: unknown;
  alias?: unknown;
  seq?: unknown;
}

/** name/import's body: the stated name, the value, seq and alias, in that order; the key is read by the domain. */
export function parseImportNameBody(body: ImportNameBody): ImportNameInput {
  const stated = body.name === undefined || body.name === '' ? null : parseIpnsName(body.name, 'name');
  const value = parseNameValue(body.value, 'value');
  const seq = parseSeq(body.seq, 'seq');
  const alias = parseOptionalAlias(body.alias, 'alias');
  return { stated, value, seq, alias, secretKey: parseKeyText(body.secret_key, body.format) };
}

/** `secret_key` and `format` of name/import: the format one of KEY_FORMATS, the text present and not too long. */
export function parseKeyText(secretKey: unknown, format: unknown): KeyText {
  if (!isKeyFormat(format)) throw new BadInputError(`format must be one of ${KEY_FORMATS.join(', ')}`);
  if (typeof secretKey !== 'string' || secretKey.trim() === '') throw new BadInputError('secret_key is required');
  if (secretKey.length > MAX_SECRET_TEXT) throw new BadInputError('secret_key is too long');
  return { text: secretKey, format };
}
