import type { CID } from 'multiformats/cid';
import { BadInputError } from '../base/errors.js';
import type { FolderOperation } from '../folders/index.js';
import { parseCidParam } from './cid-param.js';

function parseCid(value: unknown, field: string): CID {
  return parseCidParam(value, field, 'folder-body');
}

function parseFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new BadInputError(`${field}: must be a boolean`);
  return value;
}

/**
 * Reads the JSON body of POST /api/v0/folder/operation (`cid`, `add` as [name, cid] pairs, `remove`,
 * `pin_new`, `unpin_old`; flags default to false). Wrong shapes are a BadInputError naming the field.
 */
export function parseFolderOperationBody(body: unknown): FolderOperation {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new BadInputError('body: must be a JSON object');
  const fields = body as Record<string, unknown>;
  const root = parseCid(fields.cid, 'cid');
  const addField = fields.add ?? [];
  if (!Array.isArray(addField)) throw new BadInputError('add: must be an array of [name, cid] pairs');
  const add = addField.map((pair: unknown, i): readonly [string, CID] => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      throw new BadInputError(`add[${i}]: must be a [name, cid] pair of strings`);
    }
    return [pair[0], parseCid(pair[1], `add[${i}] cid`)];
  });
  const removeField = fields.remove ?? [];
  if (!Array.isArray(removeField) || !removeField.every((name): name is string => typeof name === 'string')) {
    throw new BadInputError('remove: must be an array of strings');
  }
  return { root, add, remove: removeField, pinNew: parseFlag(fields.pin_new, 'pin_new'), unpinOld: parseFlag(fields.unpin_old, 'unpin_old') };
}
