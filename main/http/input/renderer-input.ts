import { object, pipe, transform, unknown } from 'valibot';
import { field } from './fields.js';

/**
 * The request schema of the window's files (routes/renderer-files.ts): which built asset is asked for. It never
 * refuses: a name that is no asset is a 404 of the file it names.
 */
export const AssetParams = object({
  '*': field(
    pipe(
      unknown(),
      transform((value) => (typeof value === 'string' ? value : '')),
    ),
  ),
});
