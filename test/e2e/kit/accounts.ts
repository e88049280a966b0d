/** Accounts and content for e2e tests, made through the API as a client would. */
import { randomUUID } from 'node:crypto';
import type { CreatedAccessKey } from '../../../shared/api-types.js';
import { createUser, createUserKey } from '../../helpers/account-api.js';
import { call } from '../../helpers/test-server.js';
import type { E2eService } from './service.js';

export interface TestUser {
  uuid: string;
  /** An admin key of the user's own (named "e2e"). */
  key: CreatedAccessKey;
}

/** A user the owner (a partner) creates: on the Free plan, finite limits, not a partner, not the owner. */
export async function freeUser(service: E2eService): Promise<TestUser> {
  const uuid = randomUUID();
  await createUser(service, service.owner, uuid);
  const key = await createUserKey(service, service.owner, uuid, 'e2e', ['admin']);
  return { uuid, key };
}

/** Uploads `bytes` as one file (two steps) as `key`; answers its CID. */
export async function upload(service: E2eService, key: CreatedAccessKey, bytes: Uint8Array): Promise<string> {
  const step1 = await call<{ data: { url: string } }>(service, 'POST', '/ipfs/', { key, query: { size: bytes.length } });
  if (step1.status !== 200) throw new Error(`upload step 1 answered ${step1.status}: ${step1.text}`);
  const step2 = await fetch(step1.json.data.url, { method: 'POST', body: bytes, headers: { 'Content-Type': 'application/octet-stream' } });
  const cid = step2.headers.get('ipfs-hash');
  if (step2.status !== 201 || !cid) throw new Error(`upload step 2 answered ${step2.status}: ${await step2.text()}`);
  return cid;
}

/** Uploads and pins `bytes` under `name`; answers the CID. */
export async function uploadAndPin(service: E2eService, key: CreatedAccessKey, bytes: Uint8Array, name = 'e2e'): Promise<string> {
  const cid = await upload(service, key, bytes);
  const pinned = await call(service, 'POST', '/api/v0/pin/add', { key, query: { arg: cid, name } });
  if (pinned.status !== 200) throw new Error(`pin/add answered ${pinned.status}: ${pinned.text}`);
  return cid;
}
