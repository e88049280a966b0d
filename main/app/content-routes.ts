import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { checkEgressNow, recordEgress } from '../accounts/usage.js';
import { packageRoot } from '../base/package-root.js';
import { FileSecretStore, loadOrCreateMasterKey } from '../secrets/secret-store.js';
import { deriveUploadSigningKey, UPLOAD_KEY_NAME } from '../http/upload-signing-key.js';
import { gatewayNameResolver, gatewayRoutes } from '../http/gateway/index.js';
import { dagGetRoutes } from '../http/routes/dag-get.js';
import { rendererRoutes } from '../http/routes/renderer-files.js';
import { uploadRoutes } from '../http/routes/uploads.js';
import { withMultipart } from '../http/server.js';
import { readThroughBlocks } from '../network/read-through-blocks.js';
import type { AppDomains } from './app-domains.js';
import type { Storage } from './open-storage.js';
import type { StartContext } from './start-context.js';

/** The routes that move content: uploads, the DAG API, the gateway, and the window's own files. */
export async function contentRoutes(start: StartContext, server: FastifyInstance, storage: Storage, domains: AppDomains): Promise<void> {
  const { config, clock } = start;
  const { accounts, names } = domains;
  const { blocks, fetcher } = domains.content;
  const { pins, pendingPins, pinFetches } = domains.pinWork;
  // Shared database: every instance must accept the addresses any of them signs, so the key comes from
  // the master key they share (derived, nothing stored); one instance keeps its data folder's own file.
  const uploadKey = storage.metadata.coordination
    ? deriveUploadSigningKey(storage.secrets.masterKey)
    : await loadOrCreateMasterKey(new FileSecretStore(config.dataDir), UPLOAD_KEY_NAME);
  const testHooks = start.init.uploadTestHooks;
  await withMultipart(server, (scope) =>
    uploadRoutes(scope, {
      accounts,
      pins,
      blockstore: blocks,
      uploadKey,
      clock,
      listenHost: config.host,
      pace: { windowMs: config.uploadIdleTimeoutMs, minBytes: config.uploadMinBytesPerWindow },
      blocksAdded: () => {
        pendingPins.nudge();
        // A CAR of a partial DAG leaves its root pins `pinning`: the rest comes from the network.
        pinFetches.nudge();
      },
      profile: storage.profile,
      ...(testHooks ? { testHooks } : {}),
    }),
  );
  dagGetRoutes(server, { blockstore: blocks });
  gatewayRoutes(server, {
    blockstore: blocks,
    // `/ipns/<name>` of a name held elsewhere: its missing blocks come from the network, verified.
    foreignBlockstore: readThroughBlocks(blocks, (cid, signal) => fetcher.fetchBlock(cid, signal)),
    logger: start.logger,
    resolveName: gatewayNameResolver(names.resolver),
    // A followed folder elsewhere waits on its name's next record here (the long-poll, issue 24).
    nameChanges: (name, signal) => names.resolver.nextChange(name, signal),
    beforeBody(request, bytes) {
      if (request.auth) return checkEgressNow(accounts, request.auth.account.id, bytes);
    },
    onBodyBytes(request, bytes) {
      // The server always runs a meter, so this never waits on the database.
      if (request.auth) void recordEgress(accounts, request.auth.account.id, bytes);
    },
  });
  rendererRoutes(server, start.init.rendererDir ?? join(packageRoot(), 'dist', 'renderer'));
}
