/**
 * What "Open" does with content the gateway serves only with a key (a plain link would get 401): the
 * window fetches it with the key headers and shows it from a blob: URL, which belongs to the window's
 * own origin. So only types that run nothing are shown that way; a web page, an SVG or XML (which can
 * carry scripts) and unknown types are saved as files instead, and a folder as a tar archive.
 */

export type OpenPlan = { kind: 'view'; type: string } | { kind: 'download'; reason: 'folder' | 'active' | 'other' };

/** Types that can run script when a browser opens them as a document. */
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[a-z0-9.+-]*\+xml)$/;
/** Shown as they are: media and PDF run no script of the page's origin. */
const AS_IS = /^(image\/(png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon)|video\/[a-z0-9.+-]+|audio\/[a-z0-9.+-]+|application\/pdf)$/;
/** Shown as plain text (never rendered): text, JSON, source code. */
const AS_TEXT = /^(text\/[a-z0-9.+-]+|application\/(json|javascript|x-javascript|ecmascript|toml|x-yaml|yaml|x-sh))$/;

/** The media type alone, lowercased: "Text/Plain; charset=utf-8" → "text/plain". */
export function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function openPlan(contentType: string | null, isFolder: boolean): OpenPlan {
  if (isFolder) return { kind: 'download', reason: 'folder' };
  const type = mediaType(contentType);
  if (ACTIVE.test(type)) return { kind: 'download', reason: 'active' };
  if (AS_IS.test(type)) return { kind: 'view', type };
  if (AS_TEXT.test(type)) return { kind: 'view', type: 'text/plain; charset=utf-8' };
  return { kind: 'download', reason: 'other' };
}

const UNSAFE_IN_FILE_NAMES = '\\/:*?"<>|';

/**
 * A file name for a download: the label (a pin's name) when it has one, else the CID or IPNS name; a
 * folder gets ".tar". Characters file systems refuse become "_".
 */
export function downloadName(label: string, fallback: string, reason: 'folder' | 'active' | 'other'): string {
  const base = [...(label.trim() || fallback)]
    .map((char) => (char.charCodeAt(0) < 32 || UNSAFE_IN_FILE_NAMES.includes(char) ? '_' : char))
    .join('')
    .slice(0, 120);
  if (reason !== 'folder') return base;
  return base.toLowerCase().endsWith('.tar') ? base : `${base}.tar`;
}

/** What the window says after saving instead of showing. */
export function downloadNote(fileName: string, reason: 'folder' | 'active' | 'other', publicGatewayHint: boolean): string {
  const hint = publicGatewayHint ? ' To browse content in a tab, start the service with --public-gateway.' : '';
  switch (reason) {
    case 'folder':
      return `Saved ${fileName}: a folder is saved as a tar archive.${hint}`;
    case 'active':
      return `Saved ${fileName}: web pages, SVG and XML are saved rather than shown, so nothing in them runs with this window's access.${hint}`;
    case 'other':
      return `Saved ${fileName}: the browser cannot show this type of file.`;
  }
}
