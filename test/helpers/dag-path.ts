import { exporter, type ReadableStorage } from 'ipfs-unixfs-exporter';
import { CID } from 'multiformats/cid';

/**
 * The blocks a reader needs for one file of a version, counted independently of Pinfold (issue 24's
 * "only that file's blocks and its directory path"): ipfs-unixfs-exporter resolves `<root>/<path>` and reads
 * the file whole over a gateway's raw block answers, and every block it asks for is recorded: the root,
 * every folder and HAMT shard on the way down, the file's own blocks.
 */
export interface PathBlocks {
  /** CIDs read, each once, in read order. */
  cids: string[];
  /** Bytes of those blocks. */
  bytes: number;
  /** Bytes of the file's own blocks (the rest is the directory path). */
  fileBytes: number;
}

type GatewayGet = (path: string) => Promise<Response>;

/** `get` is a plain GET of `<gateway>/<path>` (with whatever the gateway needs: keys, `ts`). */
export async function pathBlocks(get: GatewayGet, root: string, rel: string): Promise<PathBlocks> {
  const sizes = new Map<string, number>();
  const store: ReadableStorage = {
    get(cid: CID) {
      return (async function* () {
        const answer = await get(`/ipfs/${cid.toString()}?format=raw`);
        if (answer.status !== 200) throw new Error(`block ${cid.toString()}: HTTP ${answer.status}`);
        const bytes = new Uint8Array(await answer.arrayBuffer());
        sizes.set(cid.toString(), bytes.byteLength);
        yield bytes;
      })();
    },
  };
  const entry = await exporter(`${root}/${rel}`, store);
  if (entry.type !== 'file' && entry.type !== 'raw') throw new Error(`${rel} is a ${entry.type}, not a file`);
  const before = new Set(sizes.keys());
  let length = 0;
  for await (const chunk of entry.content()) length += chunk.byteLength;
  // The file's blocks: its root (read while resolving the path) and what reading it asked for.
  const fileCids = new Set([entry.cid.toString(), ...[...sizes.keys()].filter((cid) => !before.has(cid))]);
  const fileBytes = [...fileCids].reduce((sum, cid) => sum + (sizes.get(cid) ?? 0), 0);
  if (entry.type === 'raw' && fileBytes !== length) throw new Error(`${rel}: a raw block of ${fileBytes} B read as ${length} B`);
  return { cids: [...sizes.keys()], bytes: [...sizes.values()].reduce((sum, size) => sum + size, 0), fileBytes };
}

/** A gateway's GET for {@link pathBlocks}: `ts` and the owner's key on every request. */
export function keyedGet(url: string, key: { access_key: string; access_secret: string }): GatewayGet {
  return (path) =>
    fetch(`${url}${path}${path.includes('?') ? '&' : '?'}ts=${Math.floor(Date.now() / 1000)}`, {
      headers: { 'X-Access-Key': key.access_key, 'X-Access-Secret': key.access_secret },
    });
}
