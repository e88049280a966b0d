/**
 * Where step 2 of an upload goes. The service builds its signed address from its own listen address
 * (`http://127.0.0.1:PORT/...`), which need not be the origin the page was opened at (`http://localhost:PORT`):
 * sent there, the request would be cross-origin and refused by the page's connect-src. The signature binds
 * the method, the path and the query, not the host, so the page sends step 2 to its own origin with the
 * address's path and query.
 */
export function stepTwoUrl(address: string, pageOrigin: string): string {
  let parsed: URL;
  try {
    parsed = new URL(address);
  } catch {
    throw new Error(`The service answered an upload address that is not a URL: ${address}`);
  }
  if (!parsed.searchParams.has('sargs') || !parsed.searchParams.has('ssig')) {
    throw new Error(`The service answered an upload address without its signature: ${address}`);
  }
  return `${pageOrigin.replace(/\/+$/, '')}${parsed.pathname}${parsed.search}`;
}
