import { is } from 'valibot';
import type { IpnsRecordView, NameBinding } from '../../shared/api-types.js';
import { IpnsRecordViewSchema, NameBindingSchema } from '../../shared/schemas/names.js';
import type { ApiCore, ListPage } from './core.js';

export type { NameBinding };

/**
 * The body of POST /api/v0/name/import (spec: Import IPNS record) without `name`: the Pinfold extension
 * takes the key's own name and answers it, so a key file can be imported without knowing its name.
 */
export interface NameImport {
  value: string;
  secret_key: string;
  format: 'pem-pkcs8-cleartext' | 'libp2p-protobuf-cleartext';
  alias?: string;
  seq?: number;
}

/**
 * What the Names list asks for: a page of names, or the one name a search finds by its IPNS name
 * (`get`) or its alias (`byAlias`; the API has no partial match).
 */
export type NameListQuery = { kind: 'page'; start: number; limit: number } | { kind: 'name'; name: string } | { kind: 'alias'; alias: string };

export interface NamesApi {
  /** GET /api/v0/ipns. */
  list(query: { limit?: number; start?: number }, signal?: AbortSignal): Promise<ListPage<IpnsRecordView>>;
  /** GET /api/v0/ipns/{name}. */
  get(name: string, signal?: AbortSignal): Promise<IpnsRecordView>;
  /** GET /api/v0/ipns/search?alias= (exact, case-sensitive). */
  byAlias(alias: string, signal?: AbortSignal): Promise<IpnsRecordView>;
  /** POST /api/v0/name/create?arg=&alias=&pin=. */
  create(name: { cid: string; alias?: string | undefined; pin?: boolean }, signal?: AbortSignal): Promise<NameBinding>;
  /** POST /api/v0/name/publish?arg=&key=&pin=. */
  publish(name: { name: string; cid: string; pin?: boolean }, signal?: AbortSignal): Promise<NameBinding>;
  /** POST /api/v0/name/import without a name (extension): the key's own name, answered. The key goes only to the local service. */
  import(body: NameImport, signal?: AbortSignal): Promise<NameBinding>;
  /** POST /api/v0/name/rm?key=. */
  remove(name: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/ipns/alias. */
  setAlias(name: string, alias: string, signal?: AbortSignal): Promise<void>;
  /** POST /api/v0/name/public?arg=&on= (contract section 11): the name as it is now. */
  setPublic(name: string, on: boolean, signal?: AbortSignal): Promise<IpnsRecordView>;
}

export function namesApi(core: ApiCore): NamesApi {
  return {
    list: (query, signal) => core.list({ path: '/api/v0/ipns', signal, query: { ...query } }, isIpnsRecordView, 'the name list'),
    get: (name, signal) => core.data({ path: `/api/v0/ipns/${encodeURIComponent(name)}`, signal }, isIpnsRecordView, 'a name'),
    byAlias: (alias, signal) => core.data({ path: '/api/v0/ipns/search', signal, query: { alias } }, isIpnsRecordView, 'a name'),
    create: (name, signal) =>
      core.data(
        { method: 'POST', path: '/api/v0/name/create', signal, query: { arg: name.cid, alias: name.alias, pin: name.pin } },
        isNameBinding,
        'the new name',
      ),
    publish: (name, signal) =>
      core.data(
        { method: 'POST', path: '/api/v0/name/publish', signal, query: { arg: name.cid, key: name.name, pin: name.pin } },
        isNameBinding,
        'the published name',
      ),
    import: (body, signal) => core.data({ method: 'POST', path: '/api/v0/name/import', signal, body }, isNameBinding, 'the imported name'),
    remove: (name, signal) => core.empty({ method: 'POST', path: '/api/v0/name/rm', signal, query: { key: name } }),
    setAlias: (name, alias, signal) => core.empty({ method: 'POST', path: '/api/v0/ipns/alias', signal, body: { name, alias } }),
    setPublic: (name, on, signal) => core.data({ method: 'POST', path: '/api/v0/name/public', signal, query: { arg: name, on } }, isIpnsRecordView, 'the name'),
  };
}

export const isIpnsRecordView = (value: unknown): value is IpnsRecordView => is(IpnsRecordViewSchema, value);
export const isNameBinding = (value: unknown): value is NameBinding => is(NameBindingSchema, value);
