import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { CID } from 'multiformats/cid';
import { startScriptedServer, type ScriptedServer } from './scripted-server.js';

/**
 * A gateway that stands between a follower and a real Pinfold (issue 24's tests and the follow benchmark):
 * it forwards every request to `target` (records, their long-poll, blocks, CARs) and counts what crossed,
 * so a test can say exactly which blocks the follower fetched; and it can lie the ways a test needs, with
 * the real content behind it. Provider lookups (`/routing/v1/providers`) answer 404: the target's answer
 * would name the target itself, and the follower would fetch from it past the count.
 */
export interface ProxyScript {
  /** Bytes to send instead of a block's own (raw block answers); CARs are refused (406) while it is set. */
  tamper?: (cid: CID) => Uint8Array | undefined;
  /** A signed record to answer every record request with (`/ipns/<name>`, `/routing/v1/ipns/<name>`): a stale one. */
  record?: Uint8Array;
  /** The target is treated as gone: every request answers 502 at once. */
  down: boolean;
}

export interface RecordAsk {
  path: string;
  wait: string | undefined;
}

/** One `/ipfs/` answer the proxy sent. */
export interface ProxiedBlock {
  cid: string;
  format: 'raw' | 'car' | 'other';
  status: number;
  /** Bytes of the body sent. */
  bytes: number;
}

export interface SourceProxy extends ScriptedServer {
  readonly script: ProxyScript;
  /** Every `/ipfs/` answer so far, in order. */
  blocks(): ProxiedBlock[];
  /** Paths of every record request (`/ipns/`, `/routing/v1/ipns/`) so far. */
  records(): string[];
  /** Every record request so far with its long-poll wait (`X-Pinfold-Wait`; undefined when it asked for none). */
  recordAsks(): RecordAsk[];
  /** Forgets what was counted. */
  reset(): void;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade', 'accept-encoding']);
const NOT_COPIED_BACK = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

function forwardHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function copyBack(response: ServerResponse, upstream: Response, length: number | undefined): void {
  const headers: Record<string, string> = {};
  upstream.headers.forEach((value, name) => {
    if (!NOT_COPIED_BACK.has(name)) headers[name] = value;
  });
  if (length !== undefined) headers['content-length'] = String(length);
  response.writeHead(upstream.status, headers);
}

function formatOf(url: URL, accept: string | undefined): ProxiedBlock['format'] {
  const format = url.searchParams.get('format') ?? '';
  if (format === 'car' || (accept ?? '').includes('application/vnd.ipld.car')) return 'car';
  if (format === 'raw' || (accept ?? '').includes('application/vnd.ipld.raw')) return 'raw';
  return 'other';
}

/** A counting, optionally lying proxy of the gateway at `target` (a function: the target may move). */
export async function startSourceProxy(target: () => string, script: Partial<ProxyScript> = {}): Promise<SourceProxy> {
  const live: ProxyScript = { down: false, ...script };
  let blocks: ProxiedBlock[] = [];
  let records: RecordAsk[] = [];

  const server = await startScriptedServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://proxy');
    if (url.pathname.startsWith('/routing/v1/providers/') || live.down) {
      response.writeHead(url.pathname.startsWith('/routing/v1/providers/') ? 404 : 502);
      response.end();
      return;
    }
    const ipfs = /^\/ipfs\/([^/]+)$/.exec(url.pathname);
    if (url.pathname.startsWith('/ipns/') || url.pathname.startsWith('/routing/v1/ipns/')) {
      const wait = request.headers['x-pinfold-wait'];
      records.push({ path: url.pathname, wait: typeof wait === 'string' ? wait : undefined });
      if (live.record !== undefined) {
        response.writeHead(200, { 'content-type': 'application/vnd.ipfs.ipns-record', 'content-length': String(live.record.byteLength) });
        response.end(live.record);
        return;
      }
    }
    const format = ipfs === null ? 'other' : formatOf(url, request.headers.accept);
    if (ipfs !== null && format === 'car' && live.tamper !== undefined) {
      blocks.push({ cid: ipfs[1] as string, format, status: 406, bytes: 0 });
      response.writeHead(406);
      response.end();
      return;
    }
    // A long-poll the follower gives up on ends the upstream request too.
    const abort = new AbortController();
    response.on('close', () => abort.abort());
    let upstream: Response;
    try {
      upstream = await fetch(`${target()}${request.url ?? '/'}`, {
        method: request.method ?? 'GET',
        headers: forwardHeaders(request.headers),
        signal: abort.signal,
        redirect: 'manual',
      });
    } catch {
      if (!response.headersSent && !response.destroyed) response.writeHead(502);
      response.end();
      return;
    }
    if (ipfs === null) {
      copyBack(response, upstream, undefined);
      try {
        for await (const chunk of upstream.body ?? []) response.write(chunk as Uint8Array);
      } catch {
        // the follower or the target went away mid-answer
      }
      response.end();
      return;
    }
    let body: Uint8Array;
    try {
      body = new Uint8Array(await upstream.arrayBuffer());
    } catch {
      response.destroy();
      return;
    }
    const lie = upstream.status === 200 && format === 'raw' ? live.tamper?.(CID.parse(ipfs[1] as string)) : undefined;
    if (lie !== undefined) body = lie;
    blocks.push({ cid: ipfs[1] as string, format, status: upstream.status, bytes: body.byteLength });
    copyBack(response, upstream, body.byteLength);
    response.end(body);
  });

  return Object.assign(server, {
    script: live,
    blocks: () => [...blocks],
    records: () => records.map((ask) => ask.path),
    recordAsks: () => [...records],
    reset() {
      blocks = [];
      records = [];
    },
  });
}
