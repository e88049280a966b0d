import type { OwnerKey } from '../accounts/owner-key.js';
import type { Logger } from '../base/logger.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import { newRunToken, RUN_TOKEN_ENV } from '../base/run-proof.js';
import { locateOwnerKey } from '../secrets/owner-key-locator.js';
import type { ServiceStatusSource } from './service-status.js';
import type { ServiceStatus, SupervisorPolicy } from './service-supervisor-state.js';
import { createServiceSupervisor, type ServiceChild, type ServiceSupervisor } from './service-supervisor.js';
import { proveService, type ProveServiceInit } from './service-proof.js';

/** What the desktop starts its service with (desktop-config.ts decides it). */
export interface DesktopServiceConfig {
  dataDir: string;
  /** The port to listen on: the app's `--port`, else the saved one, or a free one when that was taken. */
  port: number;
  /** The app was launched with `--port`: the service gets it as the flag that pins the setting. */
  portPinned?: boolean;
  /** The app was launched with `--public-gateway`: passed on as the flag (else the saved setting decides). */
  publicGateway?: boolean;
}

/**
 * The arguments the desktop starts its service process with: `pinfold serve`, secrets in the keychain for a
 * new folder, on the port chosen. A port the app chose itself goes as `--desktop-port`, which pins nothing:
 * the Settings page shows the saved port as the user's to change; only the app's own flags pin a setting.
 */
export function serviceProcessArgs(config: DesktopServiceConfig): string[] {
  return [
    'serve',
    '--data',
    config.dataDir,
    config.portPinned === true ? '--port' : '--desktop-port',
    String(config.port),
    '--keychain',
    ...(config.publicGateway === true ? ['--public-gateway'] : []),
  ];
}

export interface DesktopServiceInit {
  config: DesktopServiceConfig;
  /** What the service says the app should apply of its settings (launch at login), as it says it. */
  onDesktopSettings?: (settings: { launchAtLogin: boolean | null }) => void;
  /**
   * Starts one service process with these arguments and these variables added to its environment (its
   * run token: never on the command line), a utility process in the app, a Node child in tests.
   */
  launch(args: string[], env: Record<string, string>): ServiceChild;
  keychain: KeychainAccess;
  logger?: Logger;
  policy?: SupervisorPolicy;
  /** How the service's proof is asked for (tests shorten the deadline). */
  proof?: ProveServiceInit;
}

/** Also the status source of the shell (tray, notifications, links): current() and onChange(). */
export interface DesktopService extends ServiceStatusSource {
  readonly supervisor: ServiceSupervisor;
  /** The service's URL while a verified run of it is up. */
  url(): string | null;
  /** The owner key the window signs in with, read from where the data folder keeps it; null while no verified run is up. */
  ownerKey(): OwnerKey | null;
  /**
   * The number of the verified run (1, 2, …: one per service process that proved itself on the port),
   * null while none is up. The window trusts only pages it loaded during the current run.
   */
  verifiedRun(): number | null;
  /** The last status told to listeners. */
  status(): ServiceStatus;
  /** Like the supervisor's, but `running` comes once the service proved itself and url() and ownerKey() are up to date. */
  onStateChange(listener: (status: ServiceStatus) => void): () => void;
}

/**
 * The desktop's side of its service process: the supervisor, the URL the service announced, and the
 * owner key, which the main process reads from where the folder's secrets.json says it lives (the
 * keychain, which the main process holds) rather than receiving it over the process boundary. After a
 * restart the service is started on the port it had, so an open window keeps its origin.
 *
 * The port is not trusted for being ours: after a crash it is free until the restart, and any local
 * program may take it. Each process is started with a run token of its own, and `running` is told only
 * once whatever answers on the announced URL proved it holds that token (service-proof.ts); until then,
 * and whenever the service is not running, url() and ownerKey() are null. A process that announced a URL
 * something else answers on is stopped and reported as crashed.
 */
export function createDesktopService(init: DesktopServiceInit): DesktopService {
  let port = init.config.port;
  let url: string | null = null;
  let ownerKey: OwnerKey | null = null;
  let verifiedRun: number | null = null;
  let runs = 0;
  let sequence = 0;
  /** The token of the newest process: the supervisor reports `running` only for the newest. */
  let runToken = '';
  /** Why the running process was stopped: told as `crashed` when the supervisor reports it stopped. */
  let refused: string | null = null;
  const listeners = new Set<(status: ServiceStatus) => void>();
  let told: ServiceStatus = { state: 'stopped' };
  const tell = (status: ServiceStatus) => {
    told = status;
    for (const listener of [...listeners]) listener(status);
  };
  const supervisor = createServiceSupervisor({
    launch: () => {
      runToken = newRunToken();
      return init.launch(serviceProcessArgs({ ...init.config, port }), { [RUN_TOKEN_ENV]: runToken });
    },
    keychain: init.keychain,
    ...(init.logger ? { logger: init.logger } : {}),
    ...(init.policy ? { policy: init.policy } : {}),
    ...(init.onDesktopSettings ? { onDesktopSettings: init.onDesktopSettings } : {}),
  });
  supervisor.onStateChange((status) => {
    const mine = ++sequence;
    url = null;
    ownerKey = null;
    verifiedRun = null;
    if (status.state !== 'running' || status.url === undefined) {
      if (status.state === 'stopped' && refused !== null) {
        tell({ state: 'crashed', detail: refused });
        refused = null;
      } else tell(status);
      return;
    }
    const announced = status.url;
    port = Number(new URL(announced).port) || port;
    const located = locateOwnerKey(init.config.dataDir, init.keychain.entry).then(
      (found) => found.key,
      (error: unknown) => {
        init.logger?.error('could not read the owner key for the window', { error });
        return null;
      },
    );
    void Promise.all([proveService(announced, runToken, init.proof), located]).then(([proof, key]) => {
      // A newer status (a crash meanwhile) has been told already; this one is stale.
      if (mine !== sequence) return;
      if (!proof.proved) {
        init.logger?.error('the service port answered without the proof of this run; stopping the service', { url: announced, reason: proof.reason });
        refused = `Something other than the Pinfold service answers at ${announced} (${proof.reason}); the service was stopped.`;
        void supervisor.stop();
        return;
      }
      url = announced;
      ownerKey = key;
      verifiedRun = ++runs;
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
    verifiedRun: () => verifiedRun,
    status: () => told,
    onStateChange,
    current: () => told,
    onChange: onStateChange,
  };
}
