import type { DelegatedRoutingV1HttpApiClientComponents } from '@helia/delegated-routing-v1-http-api-client';
import type { Logger } from '../base/logger.js';

/** libp2p's ComponentLogger, as the routing client asks for it (named through its package, not @libp2p/interface). */
export type ComponentLogger = DelegatedRoutingV1HttpApiClientComponents['logger'];
type ScopedLogger = ReturnType<ComponentLogger['forComponent']>;

/**
 * libp2p-style libraries log through a `debug`-like function per component. Everything they say goes to
 * Pinfold's log at debug level: they report a 404 for a name no endpoint knows as an error, which for
 * Pinfold is an ordinary answer; the caller logs what matters at its own level. Saves pulling in
 * @libp2p/logger (and `debug`) for a handful of lines.
 */
export function componentLogger(logger: Logger): ComponentLogger {
  const scoped = (name: string): ScopedLogger => {
    const write = (formatter: unknown, args: unknown[]): void => logger.debug(`${name}: ${formatLine(formatter, args)}`);
    return Object.assign((formatter: unknown, ...args: unknown[]) => write(formatter, args), {
      error: (formatter: unknown, ...args: unknown[]) => write(formatter, args),
      trace: () => undefined,
      enabled: true,
      newScope: (scope: string) => scoped(`${name}:${scope}`),
    });
  };
  return { forComponent: scoped };
}

/** `debug`'s printf-style placeholders (%s %d %o %j, and libp2p's %c %e %p %a...): each takes the next argument. */
export function formatLine(formatter: unknown, args: readonly unknown[]): string {
  let index = 0;
  const text = typeof formatter === 'string' ? formatter : describe(formatter);
  const line = text.replace(/%([a-zA-Z%])/g, (match, letter: string) => {
    if (letter === '%') return '%';
    if (index >= args.length) return match;
    return describe(args[index++]);
  });
  const rest = args.slice(index).map(describe);
  return rest.length === 0 ? line : `${line} ${rest.join(' ')}`;
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === 'string') return value;
  if (value === null || typeof value !== 'object') return String(value);
  // A CID, a multiaddr, a peer id: their own text form.
  if (typeof (value as { toString?: unknown }).toString === 'function' && (value as { toString: () => string }).toString !== Object.prototype.toString) {
    return (value as { toString: () => string }).toString();
  }
  try {
    return JSON.stringify(value);
  } catch {
    return '[object]';
  }
}
