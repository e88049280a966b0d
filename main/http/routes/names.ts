import type { FastifyInstance } from 'fastify';
import { BadInputError } from '../../base/errors.js';
import { requireCapability } from '../../accounts/permissions.js';
import type { NamesContext } from '../../names/context.js';
import { createName, importName, publishName, removeName } from '../../names/manage-names.js';
import { getName, listNames, searchByAlias, setAlias } from '../../names/name-views.js';
import { list, ok } from '../envelope.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

type Query = Record<string, unknown>;

/**
 * Query values arrive as text; the names domain takes page numbers as numbers. Decimal digits become a
 * number, '' means absent, and anything else goes through as it is, for the domain to refuse with its 400.
 */
function queryNumber(value: unknown): unknown {
  if (value === '') return undefined;
  return typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
}

function parsePinFlag(value: unknown): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new BadInputError('pin must be true or false');
}

/** IPNS operations on {base_url} and the account API's IPNS views (contract section 7). */
export function nameRoutes(app: FastifyInstance, names: NamesContext): void {
  const write = { config: { access: 'write' as const } };
  const account = { config: { access: 'account' as const } };

  app.post('/api/v0/name/create', write, async (request) => {
    const auth = requireAuth(request.auth);
    const query = request.query as Query;
    const pin = parsePinFlag(query.pin);
    if (pin) requireCapability(auth.permissions, 'pin');
    return ok(await createName(names, auth.account.id, query.arg, query.alias, { pin }));
  });

  app.post('/api/v0/name/publish', write, async (request) => {
    const auth = requireAuth(request.auth);
    const query = request.query as Query;
    const pin = parsePinFlag(query.pin);
    if (pin) requireCapability(auth.permissions, 'pin');
    return ok(await publishName(names, auth.account.id, query.key, query.arg, { pin }));
  });

  app.post('/api/v0/name/import', write, async (request) => {
    const auth = requireAuth(request.auth);
    const body = await readJsonObject(request.raw);
    const imported = await importName(names, auth.account.id, {
      name: body.name,
      value: body.value,
      secret_key: body.secret_key,
      format: body.format,
      alias: body.alias,
      seq: body.seq,
    });
    // The spec's answer has no data; a caller that left the name out (extension) learns it here.
    const named = body.name !== undefined && body.name !== '';
    return named ? ok() : ok(imported);
  });

  app.post('/api/v0/name/rm', write, async (request) => {
    await removeName(names, requireAuth(request.auth).account.id, (request.query as Query).key);
    return ok();
  });

  app.get('/api/v0/ipns', account, async (request) => {
    const query = request.query as Query;
    const { items, total } = listNames(names, requireAuth(request.auth).account.id, { limit: queryNumber(query.limit), start: queryNumber(query.start) });
    return list(items, total);
  });

  app.get('/api/v0/ipns/search', account, async (request) => ok(searchByAlias(names, requireAuth(request.auth).account.id, (request.query as Query).alias)));

  app.get('/api/v0/ipns/:name', account, async (request) =>
    ok(getName(names, requireAuth(request.auth).account.id, (request.params as { name: string }).name)),
  );

  app.post('/api/v0/ipns/alias', account, async (request) => {
    const body = await readJsonObject(request.raw);
    setAlias(names, requireAuth(request.auth).account.id, body.name, body.alias);
    return ok();
  });
}
