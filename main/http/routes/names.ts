import type { FastifyInstance } from 'fastify';
import { requireCapability } from '../../accounts/permissions.js';
import type { NamesContext } from '../../names/context.js';
import { createName, importName, publishName, removeName } from '../../names/manage-names.js';
import { getName, listNames, searchByAlias, setAlias } from '../../names/name-views.js';
import { setNamePublic } from '../../names/public-names.js';
import { list, ok } from '../envelope.js';
import {
  AliasBody,
  AliasSearchQuery,
  NameCreateQuery,
  NameImportBody,
  NamePageQuery,
  NamePathParams,
  NamePublicQuery,
  NamePublishQuery,
  NameRemoveQuery,
} from '../input/names-input.js';
import { requestInput } from '../input/request-input.js';
import { readJsonObject } from '../json-body.js';
import { requireAuth } from '../route-access.js';

/** IPNS operations on {base_url} and the account API's IPNS views (contract section 7). */
export function nameRoutes(app: FastifyInstance, names: NamesContext): void {
  const write = { config: { access: 'write' as const } };
  const account = { config: { access: 'account' as const } };

  app.post('/api/v0/name/create', write, async (request) => {
    const auth = requireAuth(request.auth);
    const { pin, arg, alias } = requestInput(NameCreateQuery, request.query);
    if (pin) requireCapability(auth.permissions, 'pin');
    return ok(await createName(names, auth.account.id, arg, alias, { pin }));
  });

  app.post('/api/v0/name/publish', write, async (request) => {
    const auth = requireAuth(request.auth);
    const { pin, key, arg } = requestInput(NamePublishQuery, request.query);
    if (pin) requireCapability(auth.permissions, 'pin');
    return ok(await publishName(names, auth.account.id, key, arg, { pin }));
  });

  app.post('/api/v0/name/import', write, async (request) => {
    const auth = requireAuth(request.auth);
    const input = requestInput(NameImportBody, await readJsonObject(request.raw));
    const imported = await importName(names, auth.account.id, input);
    // The spec's answer has no data; a caller that left the name out (extension) learns it here.
    return input.stated !== null ? ok() : ok(imported);
  });

  app.post('/api/v0/name/rm', write, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const { key } = requestInput(NameRemoveQuery, request.query);
    await removeName(names, accountId, key);
    return ok();
  });

  // Contract section 11: `name` permission there is the write permission of section 2 (name create/publish/rm).
  app.post('/api/v0/name/public', write, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const { arg, on } = requestInput(NamePublicQuery, request.query);
    return ok(await setNamePublic(names, accountId, arg, on));
  });

  app.get('/api/v0/ipns', account, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const { items, total } = await listNames(names, accountId, requestInput(NamePageQuery, request.query));
    return list(items, total);
  });

  app.get('/api/v0/ipns/search', account, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const { alias } = requestInput(AliasSearchQuery, request.query);
    return ok(await searchByAlias(names, accountId, alias));
  });

  app.get('/api/v0/ipns/:name', account, async (request) => {
    const accountId = requireAuth(request.auth).account.id;
    const { name } = requestInput(NamePathParams, request.params);
    return ok(await getName(names, accountId, name));
  });

  app.post('/api/v0/ipns/alias', account, async (request) => {
    const { name, alias } = requestInput(AliasBody, await readJsonObject(request.raw));
    const accountId = requireAuth(request.auth).account.id;
    await setAlias(names, accountId, name, alias);
    return ok();
  });
}
