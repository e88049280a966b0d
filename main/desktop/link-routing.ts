import { isProtocolLink, linkTarget, parseProtocolLink, ProtocolLinkError, type GatewayFacts, type LinkTarget } from './protocol-links.js';

/**
 * Where `ipfs://` and `ipns://` links reach the app: the first launch's argv, a second launch's argv
 * handed over by `second-instance` (Windows, Linux), and `open-url` (macOS, also before the app is
 * ready). Links that come while the service is not up yet wait for it; a bad link is refused with
 * its reason and opens nothing.
 */
export interface LinkRouterInit {
  /** The gateway's facts while the service runs, else null. */
  gateway(): GatewayFacts | null;
  open(target: LinkTarget): void;
  refused(link: string, reason: string): void;
}

export interface LinkRouter {
  handle(link: string): void;
  /** The links in a command line (the others are Electron's and Chromium's switches, or ours). */
  handleArgv(argv: readonly string[]): void;
  /** The service is up: open what waited. */
  flush(): void;
}

/** At most this many links wait for the service; a flood of launches does not grow memory. */
const MAX_WAITING = 16;

export function createLinkRouter(init: LinkRouterInit): LinkRouter {
  const waiting: string[] = [];
  const route = (link: string, gateway: GatewayFacts) => {
    try {
      init.open(linkTarget(parseProtocolLink(link), gateway));
    } catch (error) {
      if (!(error instanceof ProtocolLinkError)) throw error;
      init.refused(link.length > 200 ? `${link.slice(0, 197)}…` : link, error.message);
    }
  };
  const router: LinkRouter = {
    handle(link) {
      const gateway = init.gateway();
      if (gateway !== null) return route(link, gateway);
      if (waiting.length < MAX_WAITING) waiting.push(link);
    },
    handleArgv(argv) {
      for (const arg of argv) if (isProtocolLink(arg)) router.handle(arg);
    },
    flush() {
      const gateway = init.gateway();
      if (gateway === null) return;
      for (const link of waiting.splice(0)) route(link, gateway);
    },
  };
  return router;
}
