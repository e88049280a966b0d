import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import dns2 from 'dns2';

/**
 * DNSLink test kit shared by the unit and integration tests: a real DNS server on loopback, and the
 * DNSLink entries the conformance fixtures declare.
 */

const conformanceFixtures = fileURLToPath(new URL('../fixtures/gateway-conformance/fixtures/', import.meta.url));

export interface DnsLinkEntry {
  domain: string;
  path: string;
}

/** `dnslinks.<id>.domain` / `.path` of a fixture dnslink.yml, read with a regex (no YAML package). */
export function parseDnsLinkYaml(text: string): DnsLinkEntry[] {
  const entries: DnsLinkEntry[] = [];
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

/** Every DNSLink entry of the conformance fixtures' dnslink.yml files. */
export function fixtureDnsLinks(): DnsLinkEntry[] {
  return readdirSync(conformanceFixtures, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      try {
        return parseDnsLinkYaml(readFileSync(join(conformanceFixtures, entry.name, 'dnslink.yml'), 'utf8'));
      } catch {
        return []; // a fixture folder without DNSLinks
      }
    });
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, as `--dns-resolver` and createTxtLookup take it. */
  address: string;
  /** TXT records by host (lower case); each record is a list of character-strings. */
  txt: Map<string, string[][]>;
  /** Hosts answered with SERVFAIL. */
  failing: Set<string>;
  /** Every question asked, in order (lower-case host names). */
  queries: string[];
  close(): Promise<void>;
}

/** A real DNS server on loopback UDP (a free port) answering TXT questions from `txt`; others get NXDOMAIN. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const txt = new Map<string, string[][]>();
  const failing = new Set<string>();
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
      if (failing.has(host)) response.header.rcode = Packet.RCODE.SERVFAIL;
      else if (records === undefined) response.header.rcode = Packet.RCODE.NXDOMAIN;
      else if (question?.type === Packet.TYPE.TXT) {
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
  return { address: `127.0.0.1:${port}`, txt, failing, queries, close: () => server.close() };
}

/** Serves `dnslink=<path>` at `_dnslink.<domain>` (or at `<domain>` itself with `atApex`). */
export function addDnsLink(dns: TestDnsServer, domain: string, path: string, options: { atApex?: boolean } = {}): void {
  const host = (options.atApex ? domain : `_dnslink.${domain}`).toLowerCase();
  dns.txt.set(host, [...(dns.txt.get(host) ?? []), [`dnslink=${path}`]]);
}
