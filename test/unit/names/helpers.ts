import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import dns2 from 'dns2';
import { LimitReachedError } from '../../../main/base/errors.js';
import { createSealedBox } from '../../../main/base/sealed-box.js';
import type { Clock } from '../../../main/base/clock.js';
import { openDatabase, type Db } from '../../../main/store/db/database.js';
import { addUsage, insertAccount, usageOf } from '../../../main/store/db/accounts-queries.js';
import { createNamesContext, type NamesContext } from '../../../main/names/context.js';
import type { TxtLookup } from '../../../main/names/dnslink.js';

export const fixturesDir = resolve(fileURLToPath(new URL('../../../../shared/fixtures', import.meta.url)));

export function fixture(relative: string): Buffer {
  return readFileSync(join(fixturesDir, relative));
}

export function fixtureJson<T>(relative: string): T {
  return JSON.parse(fixture(relative).toString('utf8')) as T;
}

/** A clock tests move by hand. */
export function manualClock(startMs = Date.UTC(2026, 0, 1)): Clock & { set(ms: number): void; advance(ms: number): void } {
  let now = startMs;
  return {
    nowMs: () => now,
    set: (ms) => {
      now = ms;
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

export interface TestDb {
  dir: string;
  path: string;
  db: Db;
  cleanup(): void;
}

export function tempDb(): TestDb {
  const dir = mkdtempSync(join(tmpdir(), 'pinfold-names-'));
  const path = join(dir, 'pinfold.db');
  const db = openDatabase(path);
  return {
    dir,
    path,
    db,
    cleanup() {
      if (db.open) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let accountSeq = 0;
export function addAccount(db: Db): number {
  accountSeq += 1;
  return insertAccount(db, {
    uuid: `00000000-0000-4000-8000-${String(accountSeq).padStart(12, '0')}`,
    name: `user${accountSeq}`,
    email: `user${accountSeq}@example.org`,
    provider: 'test',
    isOwner: false,
    isPartner: false,
    partnerId: null,
    planId: 1,
    balanceCents: 0,
    createdAt: 1_700_000_000,
    periodStart: 1_700_000_000,
  });
}

/** Stand-in for the accounts domain's limit: the real `usage.ipns_count` column and a fixed plan limit. */
export function usageLimits(db: Db, limit: number) {
  return {
    reserveIpns(accountId: number) {
      if (usageOf(db, accountId).ipnsCount + 1 > limit) throw new LimitReachedError('ipns');
      addUsage(db, accountId, 'ipns_count', 1);
    },
    releaseIpns(accountId: number) {
      addUsage(db, accountId, 'ipns_count', -1);
    },
  };
}

export const MASTER_KEY = Buffer.alloc(32, 7);

export function namesContext(
  db: Db,
  options: { clock?: Clock; limit?: number; txt?: TxtLookup; pinFirst?: (accountId: number, cid: string) => Promise<void> } = {},
): NamesContext {
  return createNamesContext({
    db,
    sealedBox: createSealedBox(MASTER_KEY),
    clock: options.clock ?? manualClock(),
    limits: usageLimits(db, options.limit ?? 1000),
    pinFirst: options.pinFirst,
    txt: options.txt ?? (async () => null),
    dnsCacheSeconds: 0,
  });
}

// ---- DNS ----

/** `dnslinks.<id>.domain` / `.path` of a fixture dnslink.yml, read with a regex (no YAML package). */
export function parseDnsLinkYaml(text: string): { domain: string; path: string }[] {
  const entries: { domain: string; path: string }[] = [];
  let domain: string | undefined;
  for (const line of text.split('\n')) {
    const field = /^\s+(domain|path):\s*(\S+)/.exec(line);
    if (field === null) continue;
    if (field[1] === 'domain') domain = field[2];
    else if (domain !== undefined && field[2] !== undefined) {
      entries.push({ domain, path: field[2] });
      domain = undefined;
    }
  }
  return entries;
}

export function fixtureDnsLinks(): { domain: string; path: string }[] {
  const root = join(fixturesDir, 'gateway-conformance', 'fixtures');
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        return parseDnsLinkYaml(readFileSync(join(root, entry.name, 'dnslink.yml'), 'utf8'));
      } catch {
        return [];
      }
    });
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>` for createTxtLookup. */
  address: string;
  /** TXT records by host (lower case); each record is a list of character-strings. */
  txt: Map<string, string[][]>;
  /** Every TXT question asked, in order. */
  queries: string[];
  close(): Promise<void>;
}

/** A real DNS server on loopback UDP (port 0) answering TXT questions from `txt`; others get NXDOMAIN. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const queries: string[] = [];
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: { type: 'udp4' },
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      const host = (question?.name ?? '').toLowerCase();
      queries.push(host);
      const records = txt.get(host);
      if (records === undefined) {
        response.header.rcode = Packet.RCODE.NXDOMAIN;
      } else if (question?.type === Packet.TYPE.TXT) {
        for (const data of records) {
          response.answers.push(Packet.createResourceFromQuestion(question, { type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }));
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (port === undefined) throw new Error('dns server did not bind');
  return { address: `127.0.0.1:${port}`, txt, queries, close: () => server.close() };
}
