import type { Clock } from '../base/clock.js';
import type { ServiceConfig } from '../base/config.js';
import type { Logger } from '../base/logger.js';
import type { UploadTestHooks } from '../http/step-two-outcomes.js';
import type { NetworkPublisherInit } from '../names/network-publisher.js';
import type { FetchTuning } from '../network/fetch-tuning.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import type { SecretsHomeKind } from '../secrets/secrets-record.js';
import type { FollowRunnerTiming } from '../sync/follow/follow-runner.js';
import type { StartHook } from './start-steps.js';

/** What createApp is started with. */
export interface AppInit {
  config: ServiceConfig;
  /**
   * Where the master key and the owner key live. A data folder records their home in secrets.json and
   * that record wins; `prefer` only chooses it for a new folder (the desktop app and `serve --keychain`:
   * keychain; otherwise 0600 files). `keychain` defaults to the OS keychain under keychainService().
   */
  secrets?: { prefer?: SecretsHomeKind; keychain?: KeychainAccess };
  logger?: Logger;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
  /** The built renderer; defaults to dist/renderer of this package. */
  rendererDir?: string;
  /**
   * The token the desktop's main process started this service with (base/run-proof.ts): the service
   * then answers GET /api/v0/service/proof, so the main process can tell it from a squatter on its port.
   */
  runToken?: string;
  /** Tests only: shorter waits for fetches from the network (a stall test should not wait 30 s). */
  fetchTuning?: Partial<FetchTuning>;
  /** Tests only: shorter waits of the public names' publisher (a retry, a refresh, the interval between puts). */
  namePublishing?: Pick<NetworkPublisherInit, 'retryFirstMs' | 'retryMaxMs' | 'refreshMs' | 'minPutIntervalMs'>;
  /** Tests only: shorter waits of followed folders (the periodic check, the backoff, a long-poll's wait). */
  followTiming?: FollowRunnerTiming;
  /**
   * Tests only: a gate between an upload's last byte and its commit, and its end (http/step-two-outcomes.ts),
   * so that a test decides whether a cancel or the commit comes first. Nothing else sets it.
   */
  uploadTestHooks?: UploadTestHooks;
  /**
   * Tests only: told as each start step has started (start-steps.ts); what it throws fails the start
   * there, so a test proves that a failed start leaves nothing running. Nothing else sets it.
   */
  startHook?: StartHook;
}
