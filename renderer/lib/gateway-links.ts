/**
 * Addresses of content on the service's own gateway (same origin as the window). A directory's address
 * ends in `/`, so its listing's relative links resolve inside it; a file's carries its name, so the tab
 * and a download are named after it (`filename`, contract section 5).
 */
export function contentPath(cid: string, options: { directory?: boolean; filename?: string } = {}): string {
  const path = `/ipfs/${encodeURIComponent(cid)}`;
  if (options.directory) return `${path}/`;
  return options.filename ? `${path}?${new URLSearchParams({ filename: options.filename }).toString()}` : path;
}
