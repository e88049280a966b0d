/**
 * CIDs typed or pasted by the user, read the way the service reads them (multiformats' CID.parse: `Qm…`,
 * `bafy…`, `z…`, `k…`), so a form can say "not a CID" before asking the service, and a search box can
 * tell a CID from a name. What people copy is often an address rather than the CID alone
 * (`ipfs://bafy…`, `/ipfs/bafy…`, `https://gateway/ipfs/bafy…`, `https://bafy….ipfs.dweb.link`): the
 * CID is taken out of those.
 */
import { CID } from 'multiformats/cid';

/** The service refuses longer CID text (main/content/cid-param.ts). */
export const MAX_CID_TEXT = 512;

function isCid(text: string): boolean {
  if (text === '' || text.length > MAX_CID_TEXT) return false;
  try {
    CID.parse(text);
    return true;
  } catch {
    return false;
  }
}

export type CidInput = { cid: string } | { problem: string };

/**
 * The CID of what the user entered, or why there is none, as a sentence for the field's error. `use` says
 * what the CID is for ("pinned", "published"), in the message about a path inside a CID.
 */
export function readCidInput(text: string, use = 'pinned'): CidInput {
  const trimmed = text.trim();
  if (trimmed === '') return { problem: 'Enter a CID.' };
  if (isCid(trimmed)) return { cid: trimmed };
  const address = cidOfAddress(trimmed);
  if (address === null) return { problem: 'This is not a CID. A CID looks like bafybei… or Qm….' };
  if (!isCid(address.cid)) return { problem: 'This address holds no valid CID.' };
  if (address.path !== '') return { problem: `Only a whole CID can be ${use}, not a path inside it: use ${address.cid} instead.` };
  return { cid: address.cid };
}

/** The CID when the text is one (or an address of one with no path), else null: a search box's test. */
export function parseCidText(text: string): string | null {
  const input = readCidInput(text);
  return 'cid' in input ? input.cid : null;
}

/** `ipfs://cid/path`, `/ipfs/cid/path`, `http(s)://host/ipfs/cid/path`, `http(s)://cid.ipfs.host/path`. */
function cidOfAddress(text: string): { cid: string; path: string } | null {
  const split = (rest: string) => {
    const [cid = '', ...path] = rest.replace(/[?#].*$/, '').split('/');
    return { cid, path: path.filter((segment) => segment !== '').join('/') };
  };
  const scheme = /^ipfs:\/\/(.+)$/i.exec(text);
  if (scheme) return split(scheme[1] ?? '');
  const pathForm = /^(?:https?:\/\/[^/]+)?\/ipfs\/(.+)$/i.exec(text);
  if (pathForm) return split(pathForm[1] ?? '');
  const subdomain = /^https?:\/\/([a-z0-9]+)\.ipfs\.[^/]+(\/.*)?$/i.exec(text);
  if (subdomain) return { cid: subdomain[1] ?? '', path: split(`x${subdomain[2] ?? ''}`).path };
  return null;
}

/**
 * The service names the parameter at fault ("Arg: bafk… uses multihash function 0x1e…"), which is right for
 * an API client and jargon in a form whose field is the CID: said of "this CID" instead.
 */
export function cidFieldMessage(message: string | null): string | null {
  if (message === null) return null;
  return message.replace(/^Arg: \S+ /, 'This CID ').replace(/^Arg /, 'The CID ');
}
