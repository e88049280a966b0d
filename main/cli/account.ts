import { credit, listAccounts, setPartner } from '../accounts/accounts.js';
import type { AccountsContext } from '../accounts/context.js';
import { formatCents, parseAmount } from '../accounts/money.js';
import { dataFolderPaths } from '../base/data-folder.js';
import { parsePostgresUrl } from '../base/backend-urls.js';
import { openDatabase } from '../store/db/database.js';
import { sqliteStore } from '../store/db/sqlite-store.js';
import { openPostgresStore } from '../store/pg/pg-store.js';
import { dataDirFlag, single, UsageError, type ParsedArgs } from './args.js';
import { offlineAccounts } from './offline-accounts.js';

/**
 * The accounts the command works on: the data folder's SQLite file, or with `--db postgres://…` the
 * scale-out mode's database (every instance reads the change at its next request, as with SQLite).
 */
async function withAccounts<T>(args: ParsedArgs, fn: (ctx: AccountsContext) => Promise<T>): Promise<T> {
  const dataDir = dataDirFlag(args);
  const database = single(args, 'db');
  // The account commands need no secrets, so they never touch the master key.
  const purpose = 'the account commands';
  if (database !== undefined) {
    const store = await openPostgresStore(parsePostgresUrl(database).url, { maxConnections: 1 });
    try {
      return await fn(offlineAccounts(dataDir, store, purpose));
    } finally {
      await store.close();
    }
  }
  const db = openDatabase(dataFolderPaths(dataDir).database);
  try {
    return await fn(offlineAccounts(dataDir, sqliteStore(db), purpose));
  } finally {
    db.close();
  }
}

export async function accountCommand(args: ParsedArgs): Promise<number> {
  const [sub, ...rest] = args.positional;
  switch (sub) {
    case 'list':
      return withAccounts(args, async (ctx) => {
        const rows = (await listAccounts(ctx)).map((a) => {
          const plan = ctx.plans.byId(a.planId)?.name ?? `#${a.planId}`;
          const role = a.isOwner ? 'owner' : a.isPartner ? 'partner' : '-';
          return `${a.uuid}  ${plan.padEnd(9)} ${role.padEnd(8)} ${formatCents(a.balanceCents).padStart(10)}  ${a.name} <${a.email}>`;
        });
        process.stdout.write(`${['uuid                                  plan      role      balance  name', ...rows].join('\n')}\n`);
        return 0;
      });
    case 'partner': {
      const [uuid, flag] = rest;
      if (!uuid || (flag !== 'on' && flag !== 'off')) throw new UsageError('account partner <uuid> on|off');
      return withAccounts(args, async (ctx) => {
        await setPartner(ctx, uuid, flag === 'on');
        process.stdout.write(`${uuid} partner ${flag}\n`);
        return 0;
      });
    }
    case 'credit': {
      const [uuid, amount] = rest;
      if (!uuid || !amount) throw new UsageError('account credit <uuid> <amount>');
      const cents = parseAmount(amount, 'amount');
      return withAccounts(args, async (ctx) => {
        const account = await credit(ctx, uuid, cents);
        process.stdout.write(`${uuid} balance ${formatCents(account.balanceCents)}\n`);
        return 0;
      });
    }
    default:
      throw new UsageError(`unknown account command ${sub ?? ''}`.trim());
  }
}
