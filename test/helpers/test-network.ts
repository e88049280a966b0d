import { defaultConfig, type ServiceConfig } from '../../main/base/config.js';

/**
 * Tests never reach the internet (issue 23). A server a test starts is offline unless the test names its
 * own endpoints; what it leaves out is empty, never the public defaults (a fresh install's
 * trustless-gateway.link and delegated-ipfs.dev).
 */
export function testNetwork(given?: ServiceConfig['network']): NonNullable<ServiceConfig['network']> {
  if (given === undefined) return { offline: true };
  return { fetchFrom: [], routing: [], offline: false, ...given };
}

/** defaultConfig for a test's server: its network as {@link testNetwork} says. */
export function testConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return defaultConfig({ ...overrides, network: testNetwork(overrides.network) });
}

const NETWORK_FLAGS = /^--(fetch-from|routing|offline)(=|$)/;

/**
 * The flags of a `pinfold serve` a test starts: `--offline` added unless the test gives network flags;
 * a test that gives `--fetch-from` must give `--routing` too (and the other way round), or the public
 * default of the one left out would be asked.
 */
export function testServeArgs(args: readonly string[]): string[] {
  const given = new Set(args.map((arg) => NETWORK_FLAGS.exec(arg)?.[1]).filter((name) => name !== undefined));
  if (given.size === 0) return [...args, '--offline'];
  if (!given.has('offline') && !(given.has('fetch-from') && given.has('routing'))) {
    throw new Error('a test serve with --fetch-from needs --routing too (a local endpoint), and the other way round: tests never reach the internet');
  }
  return [...args];
}
