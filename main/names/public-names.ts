import type { IpnsRecordView } from '../../shared/api-types.js';
import { NotFoundError } from '../base/errors.js';
import type { NamesContext } from './context.js';
import { ownedRow } from './manage-names.js';
import type { IpnsName } from './name-parse.js';
import { toRecordView } from './record-view.js';

/**
 * `name/public` (contract section 11): marks one of the caller's names public, so its records are put on the
 * IPFS network from now on (the current one at once), or private again, so nothing more is put. Off by
 * default: a public record tells anyone which content root the name points at. Marking a public name public
 * again puts its record again now. Under the name's lock, so a publish sees the mark as it is.
 */
export async function setNamePublic(ctx: NamesContext, accountId: number, parsed: IpnsName, on: boolean): Promise<IpnsRecordView> {
  await ownedRow(ctx.store, accountId, parsed.name, 'arg');
  return ctx.nameLock.run(parsed.name, async () => {
    const row = await ownedRow(ctx.store, accountId, parsed.name, 'arg');
    const view = toRecordView({ ...row, public: on });
    if (row.public !== on) {
      // Only rm can change the row under the lock; then the name is gone.
      if (!(await ctx.store.names.setNamePublic(row.id, on))) throw new NotFoundError(`arg ${row.name} not found`);
      ctx.events?.nameChanged(accountId, view);
    }
    if (on) ctx.network?.recordChanged(row.name);
    else ctx.network?.withdrawn(row.name);
    return view;
  });
}
