import type { Logger } from '../base/logger.js';
import type { KeychainAccess } from '../secrets/keychain-entry.js';
import { answerKeychainRequest } from '../service/keychain-host.js';
import { parseServiceMessage, type ParentToService, type ServiceToParent } from '../service/messages.js';
import type { ServiceChild } from './service-supervisor.js';
import type { SupervisorEvent } from './service-supervisor-state.js';

export interface ChildLinkInit {
  keychain?: KeychainAccess;
  logger?: Logger;
  /** The children still alive, by id: one that exited is removed, and no answer is posted to it after. */
  children: Map<number, ServiceChild>;
  dispatch(event: SupervisorEvent): void;
  /** What the service says the app should apply of its settings (launch at login). */
  onDesktopSettings?: (settings: { launchAtLogin: boolean | null }) => void;
}

/** The keychain's answer to one request, or a refusal when this parent holds no keychain. */
function keychainAnswer(message: Extract<ServiceToParent, { type: 'keychain' }>, keychain: KeychainAccess | undefined): Promise<ParentToService> {
  if (keychain) return answerKeychainRequest(message, keychain);
  return Promise.resolve<ParentToService>({ type: 'keychain-result', id: message.id, ok: false, message: 'this parent offers no keychain' });
}

/**
 * Turns what a service process says and does into the supervisor's events: `ready`, `fatal` and its exit;
 * its keychain requests are answered here, to it alone, while it lives; its desktop settings go to the app.
 */
export function linkChild(id: number, child: ServiceChild, link: ChildLinkInit): void {
  link.children.set(id, child);
  child.onMessage((raw) => {
    const message = parseServiceMessage(raw);
    if (message === null) return link.logger?.warn('ignored a malformed message from the service process');
    if (message.type === 'ready') link.dispatch({ type: 'ready', child: id, url: message.url });
    else if (message.type === 'fatal') link.dispatch({ type: 'fatal', child: id, message: message.message });
    else if (message.type === 'desktop-settings') link.onDesktopSettings?.({ launchAtLogin: message.launchAtLogin });
    else
      void keychainAnswer(message, link.keychain).then((result) => {
        if (link.children.has(id)) child.postMessage(result);
      });
  });
  child.onExit((code, signal) => {
    link.children.delete(id);
    link.dispatch({ type: 'exit', child: id, code, signal });
  });
}

/** Launches the service process of id `id` and links it; a launch that throws is a failed start and its exit. */
export function spawnChild(id: number, launch: () => ServiceChild, link: ChildLinkInit): void {
  let child: ServiceChild;
  try {
    child = launch();
  } catch (error) {
    // Electron refused to start a process at all: report it as a failed start, not a crash loop.
    link.dispatch({ type: 'fatal', child: id, message: error instanceof Error ? error.message : String(error) });
    link.dispatch({ type: 'exit', child: id, code: null, signal: null });
    return;
  }
  linkChild(id, child, link);
}
