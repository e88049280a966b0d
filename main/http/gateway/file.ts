import type { CID } from 'multiformats/cid';
import * as raw from 'multiformats/codecs/raw';
import { detectContentType } from '../../content/read/content-type.js';
import type { NodeInfo } from '../../content/read/inspect-node.js';
import { readFileContent } from '../../content/read/read-file.js';
import { contentDisposition, fileEtag, replyNotModified, setCacheHeaders } from './headers.js';
import { gather, sendRanged } from './send-body.js';
import type { GatewayContext } from './types.js';

export interface ServeFileOptions {
  /** The entry's name (last path segment or "index.html"), for the extension and download name. */
  name?: string;
  /** The CID the Etag names (a directory serving its index.html answers with the directory's CID). */
  etagCid?: CID;
  /** Content-Type chosen by the request (`format=json` on a UnixFS file holding JSON). */
  contentType?: string;
}

/** UnixFS file, raw leaf or symlink bytes: Etag "<cid>", immutable, Range, Content-Type by name then sniffing. */
export async function serveFile(ctx: GatewayContext, info: NodeInfo, options: ServeFileOptions = {}): Promise<void> {
  const { reply, choice } = ctx;
  setCacheHeaders(ctx, { etag: fileEtag(options.etagCid ?? info.cid), immutable: true });
  if (replyNotModified(ctx)) return;
  const typeName = choice.filename ?? options.name;
  // A small file is read once, whole: its bytes serve both the type sniffing and the body.
  const whole = !ctx.head && info.kind !== 'symlink' && info.size <= WHOLE_FILE_BYTES ? await readWhole(ctx, info) : undefined;
  const contentType = options.contentType ?? (await detectContentType(ctx.deps.blockstore, info, typeName, whole ? { head: whole } : { signal: ctx.signal }));
  reply.header('content-type', contentType);
  if (choice.filename !== undefined || choice.download) {
    const name = choice.filename ?? options.name ?? info.cid.toString();
    reply.header('content-disposition', contentDisposition(choice.download ? 'attachment' : 'inline', name));
  }
  sendRanged(ctx, info.size, (offset, length, buffers) =>
    whole
      ? whole.subarray(offset, offset + length)
      : readFileContent(ctx.deps.blockstore, info, { offset, length, signal: ctx.signal, allocate: (bytes) => buffers.take(bytes) }),
  );
}

/** Files up to this size are read into one buffer (bounded memory per request, no stream overhead). */
const WHOLE_FILE_BYTES = 256 * 1024;

function readWhole(ctx: GatewayContext, info: NodeInfo): Promise<Uint8Array> | Uint8Array {
  const inBlock = singleBlockContent(info);
  if (inBlock !== undefined) return inBlock;
  // Small and bounded: read without the request's abort signal (making one costs more than the read).
  return gather(readFileContent(ctx.deps.blockstore, info, { offset: 0, length: info.size }), info.size);
}

/**
 * The content of a file held in its own block, which the node's inspection already read: a raw block is
 * its content, a UnixFS file node without links holds it as its data. Else undefined (read through the DAG).
 */
export function singleBlockContent(info: NodeInfo): Uint8Array | undefined {
  if (info.kind !== 'file') return undefined;
  if (info.cid.code === raw.code) return info.block;
  if (info.pbNode?.Links.length === 0 && info.unixfs !== undefined) {
    const data = info.unixfs.data ?? new Uint8Array(0);
    // A node whose declared size disagrees with its bytes is read the general way (and refused there).
    return data.byteLength === info.size ? data : undefined;
  }
  return undefined;
}
