import type { CID } from 'multiformats/cid';

/** The folder index keys roots by their CIDv1 string, so the v0 and v1 forms of a root are one folder. */
export function folderKey(cid: CID): string {
  return cid.toV1().toString();
}
