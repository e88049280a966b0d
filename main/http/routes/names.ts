import type { FastifyInstance } from 'fastify';
import { requireCapability } from '../../accounts/permissions.js';
import type { NamesContext } from '../../names/context.js';
import { createName, importName, publishName, removeName } from '../../names/manage-names.js';
import { getName, listNames, searchByAlias, setAlias } from '../../names/name-views.js';
import { setNamePublic } from '../../names/public-names.js';
import { list, ok } from '../envelope.js';
import { readJsonObject } from '../json-body.js';
import {
  parseImportNameBody,
  parseIpnsName,
  parseNamePage,
  parseNameValue,
  parseOptionalAlias,
  parsePinFlag,
  parsePublicSwitch,
  parseRequiredAlias,
  queryNumber,
} from '../name-params.js';
import { requireAuth } from '../route-access.js';

type Query = Record<string, unknown>;

/** IPNS operations on {base_url} and the account API's IPNS views (contract section 7). */
export function nameRoutes(app: FastifyInstance, names: NamesContext): void {
  const write = { config: { access: 'write' as const } };
  const account = { config: { access: 'account' as const } };

  app.post('/api/v0/name/create', write, async (request) => {
    const auth = requireAuth(request.auth);
    const query = request.query as Query;
    const pin = parsePinFlag(query.pin);
    if (pin) requireCapability(auth.permissions, 'pin');
    const content = parseNameValue(query.arg, 'arg');
    const alias = parseOptionalAlias(query.alias, 'alias');
    return ok(await createName(names, auth.account.id, content, alias, { pin }));
  });

  app.post('/api/v0/name/publish', write, async (request) => {
    const auth = requireAuth(request.auth);
    const query = request.query as Query;
    const pin = parsePinFlag(query.pin);
    if (pin) requireCapability(auth.permissions, 'pin');
    const name = parseIpnsName(query.key, 'key');
    const content = parseNameValue(query.arg, 'arg');
    return ok(await publishName(names, auth.account.id, name, content, { pin }));
  });

  app.post('/api/v0/name/import', write, async (request) => {
    const auth = requireAuth(request.auth);
    const body = await readJsonObject(request.raw);
    const imported = await importName(
      names,
      auth.account.id,
      parseImportNameBody({ name: body.name, value: body.value, secret_key: body.secret_key, format: body.format, alias: body.alias, seq: body.seq }),
    );
    // The spec's answer has no data; a caller that left the name out (extension) learns it here.
    const named = body.name !== undefined && body.name !== '';
    return named ? ok() : ok(imported);
  });

  app.post('/api/v0/name/rm', write, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    await removeName(names, accountId, parseIpnsName((request.query as Query).key, 'key'));
    return ok();
  });

  // Contract section 11: `name` permission there is the write permission of section 2 (name create/publish/rm).
  app.post('/api/v0/name/public', write, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const query = request.query as Query;
    const name = parseIpnsName(query.arg, 'arg');
    return ok(await setNamePublic(names, accountId, name, parsePublicSwitch(query.on)));
  });

  app.get('/api/v0/ipns', account, async (request) => {
    const query = request.query as Query;
    const accountId = requireAuth(request.auth).account.id;
    const { items, total } = await listNames(names, accountId, parseNamePage({ limit: queryNumber(query.limit), start: queryNumber(query.start) }));
    return list(items, total);
  });

  app.get('/api/v0/ipns/search', account, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    return ok(await searchByAlias(names, accountId, parseRequiredAlias((request.query as Query).alias, 'alias')));
  });

  app.get('/api/v0/ipns/:name', account, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    return ok(await getName(names, accountId, parseIpnsName((request.params as { name: string }).name, 'name')));
  });

  app.post('/api/v0/ipns/alias', account, async (request) => {
    const body = await readJsonObject(request.raw);
    const accountId = requireAuth(request.auth).account.id;
    await setAlias(names, accountId, parseIpnsName(body.name, 'name'), parseOptionalAlias(body.alias, 'alias'));
    return ok();
  });
}
