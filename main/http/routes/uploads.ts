import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CID } from 'multiformats/cid';
import { unixSeconds, type Clock } from '../../base/clock.js';
import { BadInputError, NotFoundError, UnauthorizedError } from '../../base/errors.js';
import type { AccountsContext } from '../../accounts/context.js';
import type { CidProfile } from '../../content/cid-profile.js';
import { requireCapability } from '../../accounts/permissions.js';
import { check, record } from '../../accounts/usage.js';
import { importCar } from '../../content/car/import-car.js';
import { lookupEntry, removePath, setPath } from '../../content/directory/directory-paths.js';
import { readDirectoryNode } from '../../content/directory/directory-node.js';
import { importFile } from '../../content/import/import-file.js';
import type { PinsContext } from '../../pins/context.js';
import { addPin } from '../../pins/pins.js';
import type { PinfoldBlockstore } from '../../store/blockstore/blockstore.js';
import { claimUploadNonce } from '../../store/db/uploads-queries.js';
import { encodePath, parseIpfsPath } from '../ipfs-path.js';
import { signUploadArgs, UPLOAD_ADDRESS_LIFETIME_SECONDS, verifyUploadAddress, type UploadArgs } from '../upload-address.js';
import { uploadPayload, uploadPayloadBytes } from '../upload-payload.js';
import { requireAuth } from '../route-access.js';

export interface UploadDeps {
  accounts: AccountsContext;
  pins: PinsContext;
  blockstore: PinfoldBlockstore;
  /** HMAC key of upload addresses, kept in the data folder. */
  uploadKey: Buffer;
  clock: Clock;
  /** New blocks are visible: pending pins may complete. */
  blocksAdded(): void;
  /** The layout of uploaded files and of the directories DAG add/remove writes (--cid-profile). */
  profile: CidProfile;
}

type Query = Record<string, unknown>;

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] as string;
}

function parseSize(value: unknown): number {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value)) throw new BadInputError('size is required: the payload size in bytes (integer)');
  return Number(value);
}

/** Step 1: check what can be checked now, then answer the signed address for step 2. */
function issueAddress(deps: UploadDeps, request: FastifyRequest, size: number, extra: Pick<UploadArgs, 'pinRoots'> = {}) {
  const auth = requireAuth(request.auth);
  if (size > 0) check(deps.accounts, auth.account.id, 'ingress', size);
  const path = pathOf(request);
  const { sargs, ssig } = signUploadArgs(deps.uploadKey, {
    account: auth.account.id,
    method: request.method,
    path,
    size,
    expires: unixSeconds(deps.clock) + UPLOAD_ADDRESS_LIFETIME_SECONDS,
    ...extra,
  });
  const host = request.headers.host ?? '127.0.0.1';
  return { code: 200, msg: 'ok', data: { url: `http://${host}${path}?sargs=${sargs}&ssig=${ssig}` } };
}

/** Step 2: the address alone authorizes; it is good for one use. */
function redeemAddress(deps: UploadDeps, request: FastifyRequest): UploadArgs {
  const query = request.query as Query;
  if (typeof query.sargs !== 'string' || typeof query.ssig !== 'string') throw new UnauthorizedError('upload address needs sargs and ssig');
  const now = unixSeconds(deps.clock);
  const args = verifyUploadAddress(deps.uploadKey, request.method, pathOf(request), query.sargs, query.ssig, now);
  if (!claimUploadNonce(deps.accounts.db, args.nonce, args.expires, now)) throw new UnauthorizedError('upload address was already used');
  return args;
}

async function requireDirectory(deps: UploadDeps, root: CID): Promise<void> {
  if (!deps.blockstore.has(root)) throw new NotFoundError(`${root.toString()} is not held here`);
  await readDirectoryNode({ blockstore: deps.blockstore }, root, 'cid');
}

/**
 * Walks `segments` under `root` as far as they exist, checking that each existing step before the last is
 * a directory (BadInputError otherwise). Returns the entry at the full path, if there is one. DAG add runs
 * it before reading the payload, so that a path through a file is refused before anything is stored.
 */
async function walkEditPath(deps: UploadDeps, root: CID, segments: readonly string[]): Promise<CID | undefined> {
  let dir = root;
  for (let i = 0; i < segments.length; i++) {
    const entry = await lookupEntry(deps.blockstore, dir, segments[i] as string);
    if (entry === undefined) return undefined;
    if (i === segments.length - 1) return entry.cid;
    await readDirectoryNode({ blockstore: deps.blockstore }, entry.cid, `path "${segments.slice(0, i + 1).join('/')}"`);
    dir = entry.cid;
  }
  return undefined;
}

/** Imports the step-2 payload; the caller records `bytes` of ingress once its whole operation succeeded. */
async function importPayload(deps: UploadDeps, request: FastifyRequest, args: UploadArgs): Promise<{ cid: CID; bytes: number }> {
  const counted = { bytes: 0 };
  const result = await importFile(deps.blockstore, uploadPayload(request, args.size, counted), deps.profile.file);
  deps.blocksAdded();
  return { cid: result.cid, bytes: counted.bytes };
}

function created(reply: FastifyReply, root: CID, location: string): FastifyReply {
  return reply.code(201).header('ipfs-hash', root.toString()).header('location', location).send();
}

/**
 * A step 2 refused before its body was read to the end (413 mid-stream, a bad address) leaves unread bytes
 * on the connection that the server will never parse: kept alive, the client's next request on that socket
 * would hang until the keep-alive timeout. Such answers close the connection instead.
 */
async function closeIfBodyUnread(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.raw.complete) reply.header('connection', 'close');
}

/** The two-step upload operations of contract section 4. */
export function uploadRoutes(app: FastifyInstance, deps: UploadDeps): void {
  const upload = { config: { access: 'upload' as const }, onError: closeIfBodyUnread };

  // Single file: POST /ipfs/?size=N (gw3 extension).
  const singleFile = async (request: FastifyRequest, reply: FastifyReply) => {
    const query = request.query as Query;
    if (query.sargs === undefined) return issueAddress(deps, request, parseSize(query.size));
    const args = redeemAddress(deps, request);
    const { cid, bytes } = await importPayload(deps, request, args);
    record(deps.accounts, args.account, 'ingress', bytes);
    return created(reply, cid, `/ipfs/${cid.toString()}`);
  };
  app.post('/ipfs/', upload, singleFile);
  app.post('/ipfs', upload, singleFile);

  // DAG add: PUT /ipfs/{cid}/{path}?size=N
  app.put('/ipfs/*', upload, async (request, reply) => {
    const query = request.query as Query;
    const { cid: root, segments } = parseIpfsPath(request.url);
    if (segments.length === 0) throw new BadInputError('path is required: PUT /ipfs/{cid}/{path}');
    if (query.sargs === undefined) {
      const size = parseSize(query.size);
      await requireDirectory(deps, root);
      await walkEditPath(deps, root, segments);
      return issueAddress(deps, request, size);
    }
    const args = redeemAddress(deps, request);
    await requireDirectory(deps, root);
    await walkEditPath(deps, root, segments);
    const { cid, bytes } = await importPayload(deps, request, args);
    const result = await setPath(deps.blockstore, root, segments, cid, deps.profile.directory);
    record(deps.accounts, args.account, 'ingress', bytes);
    return created(reply, result.cid, `/ipfs/${result.cid.toString()}/${encodePath(segments)}`);
  });

  // DAG remove: DELETE /ipfs/{cid}/{path}
  app.delete('/ipfs/*', upload, async (request, reply) => {
    const query = request.query as Query;
    const { cid: root, segments } = parseIpfsPath(request.url);
    if (segments.length === 0) throw new BadInputError('path is required: DELETE /ipfs/{cid}/{path}');
    if (query.sargs === undefined) {
      await requireDirectory(deps, root);
      // As removePath answers at step 2: a path that is missing, or runs through a file, does not exist.
      const missing = new NotFoundError(`path: "${segments.join('/')}" does not exist under ${root.toString()}`);
      const found = await walkEditPath(deps, root, segments).catch((error: unknown) => {
        if (error instanceof BadInputError) throw missing;
        throw error;
      });
      if (found === undefined) throw missing;
      return issueAddress(deps, request, -1);
    }
    redeemAddress(deps, request);
    const result = await removePath(deps.blockstore, root, segments, deps.profile.directory);
    return created(reply, result.cid, `/ipfs/${result.cid.toString()}/${encodePath(segments.slice(0, -1))}`.replace(/\/$/, ''));
  });

  // CAR import: POST /api/v0/dag/import?size=N[&pin-roots=false]
  app.post('/api/v0/dag/import', upload, async (request, reply) => {
    const query = request.query as Query;
    if (query.sargs === undefined) {
      const pinRoots = query['pin-roots'] !== 'false';
      if (pinRoots) requireCapability(requireAuth(request.auth).permissions, 'pin');
      return issueAddress(deps, request, parseSize(query.size), { pinRoots });
    }
    const args = redeemAddress(deps, request);
    const counted = { bytes: 0 };
    const result = await importCar(deps.blockstore, uploadPayloadBytes(request, args.size, counted));
    record(deps.accounts, args.account, 'ingress', counted.bytes);
    deps.blocksAdded();
    const roots = [];
    for (const root of result.roots) {
      let pinError = '';
      if (args.pinRoots) {
        try {
          await addPin(deps.pins, args.account, root);
        } catch (error) {
          pinError = error instanceof Error ? error.message : 'pin failed';
        }
      }
      roots.push({ Cid: { '/': root.toString() }, PinErrorMsg: pinError });
    }
    return reply.code(200).send({ Roots: roots, Stats: { BlockCount: result.blockCount, BlockBytesCount: result.blockBytes } });
  });
}
