import type { CID } from 'multiformats/cid';
import { array, boolean, object, pipe, string, transform, unknown, type GenericSchema } from 'valibot';
import { BadInputError } from '../../base/errors.js';
import type { FolderOperation } from '../../folders/index.js';
import { parseCidParam } from '../cid-param.js';
import { cidParamField, field, parsedBy } from './fields.js';
import { cidField } from './pin-input.js';

/** The request schemas of folder import and the folder operation (spec "Folder"). */

export const FolderPathParams = object({ cid: field(cidField('cid')) });

/** One `[name, cid]` pair of `add`, named by its place in the list (the name's rules are the domain's). */
function addedEntry(pair: unknown, index: number): readonly [string, CID] {
  if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') throw new BadInputError(`add[${index}]: must be a [name, cid] pair of strings`);
  return [pair[0], parseCidParam(pair[1], `add[${index}] cid`, 'folder-body')];
}

/** A list that is absent or null is empty. */
const list = <T>(schema: GenericSchema<unknown[], T[]>): GenericSchema<unknown, T[]> =>
  field(
    pipe(
      unknown(),
      transform((value) => value ?? []),
      schema,
    ),
  );

const flag = (name: string): GenericSchema<unknown, boolean> =>
  field(
    pipe(
      unknown(),
      transform((value) => value ?? false),
      boolean(`${name}: must be a boolean`),
    ),
  );

/** POST /api/v0/folder/operation: `cid`, `add` as [name, cid] pairs, `remove`, `pin_new`, `unpin_old` (flags default to false). */
export const FolderOperationBody: GenericSchema<unknown, FolderOperation> = pipe(
  object({
    cid: cidParamField('cid', 'folder-body'),
    add: list(
      pipe(
        array(unknown(), 'add: must be an array of [name, cid] pairs'),
        parsedBy((pairs: unknown[]) => pairs.map(addedEntry)),
      ),
    ),
    remove: list(array(string('remove: must be an array of strings'), 'remove: must be an array of strings')),
    pin_new: flag('pin_new'),
    unpin_old: flag('unpin_old'),
  }),
  transform((body) => ({ root: body.cid, add: body.add, remove: body.remove, pinNew: body.pin_new, unpinOld: body.unpin_old })),
);
