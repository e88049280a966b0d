import type { OwnerKey } from '../accounts/owner-key.js';
import type { ServiceConfig } from '../base/config.js';
import type { Logger } from '../base/logger.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import { locateOwnerKey } from '../secrets/owner-key-locator.js';
import type { ServiceStatus, SupervisorPolicy } from './service-supervisor-state.js';
import { createServiceSupervisor, type ServiceChild, type ServiceSupervisor } from './service-supervisor.js';

/** The arguments the desktop starts its service process with: `pinfold serve`, secrets in the keychain for a new folder. */
export function serviceProcessArgs(config: Pick<ServiceConfig, 'dataDir' | 'port'>): string[] {
  return ['serve', '--data', config.dataDir, '--port', String(config.port), '--keychain'];
}

export interface DesktopServiceInit {
  config: Pick<ServiceConfig, 'dataDir' | 'port'>;
  /** Starts one service process with these arguments (a utility process in the app, a Node child in tests). */
  launch(args: string[]): ServiceChild;
  keychain: KeychainAccess;
  logger?: Logger;
  policy?: SupervisorPolicy;
}

export interface DesktopService {
  readonly supervisor: ServiceSupervisor;
  /** The service's URL while it runs. */
  url(): string | null;
  /** The owner key the window signs in with, read from where the data folder keeps it. */
  ownerKey(): OwnerKey | null;
  /** The last status told to listeners. */
  status(): ServiceStatus;
  /** Like the supervisor's, but `running` comes once url() and ownerKey() are up to date. */
  onStateChange(listener: (status: ServiceStatus) => void): () => void;
  /** status() and onStateChange() under the names of the shell's status source (tray, notifications). */
  current(): ServiceStatus;
  onChange(listener: (status: ServiceStatus) => void): () => void;
}

/**
 * The desktop's side of its service process: the supervisor, the URL the service announced, and the
 * owner key, which the main process reads from where the folder's secrets.json says it lives (the
 * keychain, which the main process holds) rather than receiving it over the process boundary. After a
 * restart the service is started on the port it had, so an open window keeps its origin.
 */
export function createDesktopService(init: DesktopServiceInit): DesktopService {
  let port = init.config.port;
  let url: string | null = null;
  let ownerKey: OwnerKey | null = null;
  let sequence = 0;
  const listeners = new Set<(status: ServiceStatus) => void>();
  let told: ServiceStatus = { state: 'stopped' };
  const tell = (status: ServiceStatus) => {
    told = status;
    for (const listener of [...listeners]) listener(status);
  };
  const supervisor = createServiceSupervisor({
    launch: () => init.launch(serviceProcessArgs({ dataDir: init.config.dataDir, port })),
    keychain: init.keychain,
    ...(init.logger ? { logger: init.logger } : {}),
    ...(init.policy ? { policy: init.policy } : {}),
  });
  supervisor.onStateChange((status) => {
    const mine = ++sequence;
    if (status.state !== 'running' || status.url === undefined) {
      url = null;
      tell(status);
      return;
    }
    const announced = status.url;
    port = Number(new URL(announced).port) || port;
    locateOwnerKey(init.config.dataDir, init.keychain.entry)
      .then(
        (located) => {
          ownerKey = located.key;
        },
        (error: unknown) => {
          ownerKey = null;
          init.logger?.error('could not read the owner key for the window', { error });
        },
      )
      .finally(() => {
        // A newer status (a crash meanwhile) has been told already; this one is stale.
        if (mine !== sequence) return;
        url = announced;
        tell(status);
      });
  });
  const onStateChange = (listener: (status: ServiceStatus) => void): (() => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  return {
    supervisor,
    url: () => url,
    ownerKey: () => ownerKey,
    status: () => told,
    onStateChange,
    current: () => told,
    onChange: onStateChange,
  };
}
