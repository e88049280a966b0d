/**
 * Addresses of content on the service's own gateway (same origin as the window). A directory's address
 * ends in `/`, so its listing's relative links resolve inside it; a file's carries its name, so the tab
 * and a download are named after it (`filename`, contract section 5).
 */
export function contentPath(cid: string, options: { directory?: boolean; filename?: string } = {}): string {
  const path = `/ipfs/${encodeURIComponent(cid)}`;
  if (options.directory) return `${path}/`;
  // The gateway refuses (400) a filename that is blank or not one line; a pin's name can be either, and
  // the content opens just as well without one.
  const filename = options.filename ?? '';
  if (filename.trim() === '' || /[\0\r\n]/.test(filename)) return path;
  return `${path}?${new URLSearchParams({ filename }).toString()}`;
}
