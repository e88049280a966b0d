import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CID } from 'multiformats/cid';
import { unixSeconds, type Clock } from '../../base/clock.js';
import { reachableUrl } from '../../base/reachable-url.js';
import { BadInputError, isAppError, NotFoundError } from '../../base/errors.js';
import type { AccountsContext } from '../../accounts/context.js';
import type { CidProfile } from '../../content/cid-profile.js';
import { releaseIngress, reserveIngress, settleIngress } from '../../accounts/ingress-reservations.js';
import { requireCapability } from '../../accounts/permissions.js';
import { importCar, type CarImportResult } from '../../content/car/import-car.js';
import { lookupEntry, removePath, setPath } from '../../content/directory/directory-paths.js';
import { readDirectoryNode } from '../../content/directory/directory-node.js';
import { importFile } from '../../content/import/import-file.js';
import type { PinsContext } from '../../pins/context.js';
import { completeRootPin, writeRootPins, type RootPin } from '../../pins/root-pins.js';
import type { BlockBatch, Blocks } from '../../store/blocks.js';
import type { Transaction } from '../../store/repositories/index.js';
import type { UploadCancelOutcome } from '../../../shared/api-types.js';
import { CarImportPinQuery, UploadCancelQuery, UploadSizeQuery } from '../input/upload-input.js';
import { requestInput } from '../input/request-input.js';
import { parseIpfsPath } from '../ipfs-path.js';
import { carImportAnswer, editedLocation } from '../upload-answers.js';
import { readUploadAddress, signUploadArgs, UPLOAD_ADDRESS_LIFETIME_SECONDS, type UploadArgs } from '../upload-address.js';
import { payloadIntake, refuseAnyBody, uploadPayload, uploadPayloadBytes, type StepTwoPace } from '../upload-payload.js';
import { claimStepTwo, isVerifiedStepTwo, runStepTwo, verifyStepTwoAddress, type StepTwoDeps } from '../upload-step-two.js';
import { stepTwoOutcomes, type StepTwoRun, type UploadTestHooks } from '../step-two-outcomes.js';
import { requireAuth } from '../route-access.js';

export interface UploadDeps {
  accounts: AccountsContext;
  pins: PinsContext;
  blockstore: Blocks;
  /** HMAC key of upload addresses, kept in the data folder. */
  uploadKey: Buffer;
  clock: Clock;
  /** The configured `--host`: upload addresses are built from it and the port listened on. */
  listenHost: string;
  /** How fast a step 2 must send, else it is cut off (408). */
  pace: StepTwoPace;
  /** New blocks are visible: pending pins may complete. */
  blocksAdded(): void;
  /** The layout of uploaded files and of the directories DAG add/remove writes now (`cid_profile`: it may change while the service runs). */
  profile: () => CidProfile;
  /** Tests only (AppInit.uploadTestHooks): a gate between a step 2's last byte and its commit, and its end. */
  testHooks?: UploadTestHooks;
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] as string;
}

/** Step 1: check what can be checked now, reserve the ingress, then answer the signed address for step 2. */
async function issueAddress(app: FastifyInstance, deps: UploadDeps, request: FastifyRequest, size: number, extra: Pick<UploadArgs, 'pinRoots'> = {}) {
  const auth = requireAuth(request.auth);
  if (auth.accessKey === null) throw new Error('step 1 reached without an access key; its access setting is wrong');
  const path = pathOf(request);
  const expires = unixSeconds(deps.clock) + UPLOAD_ADDRESS_LIFETIME_SECONDS;
  const { sargs, ssig, nonce } = signUploadArgs(deps.uploadKey, {
    account: auth.account.id,
    accessKey: auth.accessKey,
    method: request.method,
    path,
    size,
    expires,
    ...extra,
  });
  await reserveIngress(deps.accounts, { accountId: auth.account.id, accessKey: auth.accessKey, nonce, bytes: size, expiresAt: expires });
  // Never from the request's Host header: the address must lead back to this server.
  const base = reachableUrl(deps.listenHost, app.server.address());
  return { code: 200, msg: 'ok', data: { url: `${base}${path}?sargs=${sargs}&ssig=${ssig}` } };
}

async function requireDirectory(deps: UploadDeps, root: CID): Promise<void> {
  if (!(await deps.blockstore.has(root))) throw new NotFoundError(`${root.toString()} is not held here`);
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

/**
 * Commits a step 2's staged blocks at its commit point, with what must land with them (`alongside`: its
 * ingress, a CAR's root pins) on the same transaction. A cancel, or a client gone, before that point stores
 * and counts nothing (409); nothing after it undoes the commit.
 */
async function commitStepTwo(deps: UploadDeps, args: UploadArgs, run: StepTwoRun, batch: BlockBatch, alongside: (tx: Transaction) => Promise<void>) {
  await deps.testHooks?.beforeCommit(args.nonce);
  try {
    await batch.commit(async (tx) => {
      run.commitPoint();
      await alongside(tx);
    });
  } catch (error) {
    run.rolledBack();
    throw error;
  }
}

/** Imports the step-2 payload and commits it with its ingress (`intake.bytes`): the file's CID. */
async function importPayload(deps: UploadDeps, request: FastifyRequest, args: UploadArgs, run: StepTwoRun): Promise<CID> {
  const intake = payloadIntake(args.size, deps.pace);
  const batch = deps.blockstore.createBatch();
  try {
    const result = await importFile(batch, uploadPayload(request, intake), { ...deps.profile().file, signal: run.signal });
    await commitStepTwo(deps, args, run, batch, (tx) => settleIngress(deps.accounts, tx, args.account, args.nonce, intake.bytes));
    deps.blocksAdded();
    return result.cid;
  } catch (error) {
    batch.abort();
    throw error;
  }
}

/**
 * `POST /api/v0/upload/cancel?sargs=…&ssig=…`: the upload of an address cancelled, or what it stored when
 * it committed first (step-two-outcomes.ts). The address alone authorizes it, as it does step 2. An address
 * not used yet is claimed (no step 2 can use it any more) and its reservation released; an expired one is
 * not claimed (its row may be gone), so what this server does not know of it is `unknown`.
 */
async function cancelUpload(deps: UploadDeps, stepTwo: StepTwoDeps, request: FastifyRequest): Promise<UploadCancelOutcome> {
  const { sargs, ssig } = requestInput(UploadCancelQuery, request.query);
  const args = readUploadAddress(deps.uploadKey, sargs, ssig);
  return stepTwo.outcomes.cancel(args.nonce, args.expires, async () => {
    const now = unixSeconds(deps.clock);
    if (args.expires < now) return false;
    if (!(await deps.accounts.store.uploads.claimUploadNonce(args.nonce, args.expires, now))) return false;
    await releaseIngress(deps.accounts, args.nonce);
    return true;
  });
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

/** What every upload route is given: the app (for the address it hands out) and the step 2 machinery. */
interface UploadRoutesContext {
  app: FastifyInstance;
  deps: UploadDeps;
  stepTwo: StepTwoDeps;
}

/** Single file: POST /ipfs/?size=N (gw3 extension). */
async function addFile({ app, deps, stepTwo }: UploadRoutesContext, request: FastifyRequest, reply: FastifyReply) {
  if (!isVerifiedStepTwo(request)) return issueAddress(app, deps, request, requestInput(UploadSizeQuery, request.query).size);
  return runStepTwo(stepTwo, request, async (args, run) => {
    const cid = await importPayload(deps, request, args, run);
    run.stored([cid.toString()]);
    return created(reply, cid, `/ipfs/${cid.toString()}`);
  });
}

/** DAG add: PUT /ipfs/{cid}/{path}?size=N */
async function addAtPath({ app, deps, stepTwo }: UploadRoutesContext, request: FastifyRequest, reply: FastifyReply) {
  const { cid: root, segments } = parseIpfsPath(request.url);
  if (segments.length === 0) throw new BadInputError('path is required: PUT /ipfs/{cid}/{path}');
  if (!isVerifiedStepTwo(request)) {
    const { size } = requestInput(UploadSizeQuery, request.query);
    await requireDirectory(deps, root);
    await walkEditPath(deps, root, segments);
    return issueAddress(app, deps, request, size);
  }
  return runStepTwo(stepTwo, request, async (args, run) => {
    await requireDirectory(deps, root);
    await walkEditPath(deps, root, segments);
    // The payload's commit (with its ingress) is the commit point; the directories written after it complete the edit.
    const cid = await importPayload(deps, request, args, run);
    const result = await setPath(deps.blockstore, root, segments, cid, deps.profile().directory);
    run.stored([result.cid.toString()]);
    return created(reply, result.cid, editedLocation(result.cid, segments));
  });
}

/** DAG remove: DELETE /ipfs/{cid}/{path} */
async function removeAtPath({ app, deps, stepTwo }: UploadRoutesContext, request: FastifyRequest, reply: FastifyReply) {
  const { cid: root, segments } = parseIpfsPath(request.url);
  if (segments.length === 0) throw new BadInputError('path is required: DELETE /ipfs/{cid}/{path}');
  if (!isVerifiedStepTwo(request)) {
    await requireDirectory(deps, root);
    // As removePath answers at step 2: a path that is missing, or runs through a file, does not exist.
    const missing = new NotFoundError(`path: "${segments.join('/')}" does not exist under ${root.toString()}`);
    const found = await walkEditPath(deps, root, segments).catch((error: unknown) => {
      if (error instanceof BadInputError) throw missing;
      throw error;
    });
    if (found === undefined) throw missing;
    return issueAddress(app, deps, request, -1);
  }
  return runStepTwo(stepTwo, request, async (args, run) => {
    await refuseAnyBody(request, deps.pace);
    await deps.testHooks?.beforeCommit(args.nonce);
    // No payload and nothing counted: the edit's own write (its new directories, last) is what commits.
    run.commitPoint();
    let result: Awaited<ReturnType<typeof removePath>>;
    try {
      result = await removePath(deps.blockstore, root, segments, deps.profile().directory);
    } catch (error) {
      run.rolledBack();
      throw error;
    }
    run.stored([result.cid.toString()]);
    return created(reply, result.cid, editedLocation(result.cid, segments.slice(0, -1)));
  });
}

/** Imports a step 2's CAR and commits its blocks, ingress and (when asked) root pins in one transaction. */
async function storeCar(deps: UploadDeps, request: FastifyRequest, args: UploadArgs, run: StepTwoRun): Promise<{ result: CarImportResult; pins: RootPin[] }> {
  const intake = payloadIntake(args.size, deps.pace);
  let pins: RootPin[] = [];
  const batch = deps.blockstore.createBatch();
  try {
    const result = await importCar(batch, uploadPayloadBytes(request, intake), { signal: run.signal, maxBlockBytes: deps.blockstore.maxBlockBytes });
    // The blocks, the ingress and the root pins become real in one transaction, or none of them does.
    await commitStepTwo(deps, args, run, batch, async (tx) => {
      await settleIngress(deps.accounts, tx, args.account, args.nonce, intake.bytes);
      if (args.pinRoots === true) pins = await writeRootPins(deps.pins, tx, args.account, result.roots);
    });
    return { result, pins };
  } catch (error) {
    batch.abort();
    throw error;
  }
}

/** Completes the root pins after the commit: each pin's error message by CID ('' when it completed). */
async function completeRootPins(deps: UploadDeps, account: number, pins: readonly RootPin[]): Promise<Map<string, string>> {
  const pinErrors = new Map<string, string>();
  for (const pin of pins) {
    // The import stands; a pin whose census failed stays `pinning` and pending pins finish it.
    const error = await completeRootPin(deps.pins, account, pin).catch((failure: unknown) => (isAppError(failure) ? failure.message : ''));
    pinErrors.set(pin.cid.toString(), error);
  }
  return pinErrors;
}

/** CAR import: POST /api/v0/dag/import?size=N[&pin-roots=false] */
async function importCarUpload({ app, deps, stepTwo }: UploadRoutesContext, request: FastifyRequest, reply: FastifyReply) {
  if (!isVerifiedStepTwo(request)) {
    const { 'pin-roots': pinRoots } = requestInput(CarImportPinQuery, request.query);
    // The permission first, as always: a key that may not pin learns that before a fault of its size.
    if (pinRoots) requireCapability(requireAuth(request.auth).permissions, 'pin');
    const { size } = requestInput(UploadSizeQuery, request.query);
    return issueAddress(app, deps, request, size, { pinRoots });
  }
  return runStepTwo(stepTwo, request, async (args, run) => {
    const { result, pins } = await storeCar(deps, request, args, run);
    run.stored(result.roots.map(String));
    const pinErrors = await completeRootPins(deps, args.account, pins);
    deps.blocksAdded();
    return reply.code(200).send(carImportAnswer(result.roots, pinErrors, result.blockCount, result.blockBytes));
  });
}

/** The two-step upload operations of contract section 4. */
export function uploadRoutes(app: FastifyInstance, deps: UploadDeps): void {
  const hooks = deps.testHooks;
  const outcomes = stepTwoOutcomes(deps.clock, hooks?.ended && ((nonce, outcome) => hooks.ended?.(nonce, outcome)));
  const stepTwo: StepTwoDeps = { accounts: deps.accounts, uploadKey: deps.uploadKey, clock: deps.clock, outcomes };
  const routes: UploadRoutesContext = { app, deps, stepTwo };
  const upload = {
    config: { access: 'upload' as const },
    onRequest: verifyStepTwoAddress(stepTwo),
    preHandler: claimStepTwo(stepTwo),
    onError: closeIfBodyUnread,
  };

  app.post('/api/v0/upload/cancel', { config: { access: 'public' } }, async (request) => ({
    code: 200,
    msg: 'ok',
    data: await cancelUpload(deps, stepTwo, request),
  }));
  const singleFile = (request: FastifyRequest, reply: FastifyReply) => addFile(routes, request, reply);
  app.post('/ipfs/', upload, singleFile);
  app.post('/ipfs', upload, singleFile);
  app.put('/ipfs/*', upload, (request, reply) => addAtPath(routes, request, reply));
  app.delete('/ipfs/*', upload, (request, reply) => removeAtPath(routes, request, reply));
  app.post('/api/v0/dag/import', upload, (request, reply) => importCarUpload(routes, request, reply));
}
