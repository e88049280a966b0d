/**
 * The forms of a request path that an `X-Access-Signature` may cover (contract section 2, "Canonical
 * path"): the path as sent; its canonical form (empty segments and a trailing slash removed, as gw3's
 * gateway node does); and that canonical form percent-decoded (gw3's Go SDK signs `URL.Path`).
 *
 * The decoded form is where one signature could come to stand for two resources, because a signed path
 * string is then read two ways: as sent (percent-encoded) and as decoded text. The rule that keeps every
 * accepted string naming exactly one resource:
 * - a segment that decodes to something holding "/" (`a%2Fb`) gives no decoded form: "/ipfs/x/a/b"
 *   would otherwise verify a request for the single name "a/b" as well as the two names "a", "b";
 * - a decoded form that still holds a valid percent-escape gives none either: `a%2541` (the name
 *   "a%41") decodes to "a%41", which read as sent is the name "aA". A "%" that starts no valid escape
 *   (`100%25` -> "100%") reads back as nothing at all, so that decoded form is kept;
 * - a segment that decodes to a control character gives none: a newline would blur the line between
 *   path and query in the signed string, and no client puts one in a name it means to sign.
 * Dot segments are not resolved and "." / ".." stay as written (the gateway refuses them anyway), and
 * nothing of the query is touched here: method and query are bound by the caller exactly as before.
 */
export function signedPathForms(rawPath: string): string[] {
  const forms = [rawPath];
  const canonical = canonicalPath(rawPath);
  if (canonical !== rawPath) forms.push(canonical);
  const decoded = decodedPath(canonical);
  if (decoded !== undefined && !forms.includes(decoded)) forms.push(decoded);
  return forms;
}

/** Empty segments and the trailing slash removed: `/ipfs//x/` -> `/ipfs/x`, `/` stays `/`. */
export function canonicalPath(rawPath: string): string {
  // Most paths are canonical already: skip the split on the hot path of every signed API call.
  if (!rawPath.includes('//') && (rawPath.length <= 1 || !rawPath.endsWith('/')) && rawPath.startsWith('/')) return rawPath;
  return `/${rawPath
    .split('/')
    .filter((segment) => segment !== '')
    .join('/')}`;
}

/**
 * `path` percent-decoded segment by segment, or undefined when it has nothing to decode or decoding is
 * not unambiguous (see {@link signedPathForms}).
 */
export function decodedPath(path: string): string | undefined {
  if (!path.includes('%')) return undefined;
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    const text = tryDecode(segment);
    if (text === undefined || text.includes('/') || hasControlCharacter(text)) return undefined;
    segments.push(text);
  }
  const decoded = segments.join('/');
  if (decoded.includes('%') && tryDecode(decoded) !== undefined) return undefined;
  return decoded;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function tryDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
