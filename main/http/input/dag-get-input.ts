import { object } from 'valibot';
import { field } from './fields.js';
import { cidField } from './pin-input.js';

/** `GET /api/v0/dag/get?arg=<cid>` (contract section 5): the CID in the standard dialect's words. */
export const DagGetQuery = object({ arg: field(cidField('arg')) });
