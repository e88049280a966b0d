import { execFile, execFileSync } from 'node:child_process';

/** An HTTP answer as the benchmarks need it. */
export interface Posted {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let available: boolean | undefined;

/** Whether a curl binary runs here. */
export function curlAvailable(): boolean {
  if (available === undefined) {
    try {
      execFileSync('curl', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/**
 * Step 2 sent by curl, the client a script against the service would use: it streams the file with
 * read/send and spends about 0.57 CPU-s per GiB, against about 1.0 for the leanest Node client. The
 * client shares the machine's two cores with the server, so its cost is taken from Pinfold's.
 * `Expect:` is cleared so curl sends the body at once instead of waiting for a 100 Continue, and the
 * request target is given whole: with -T, curl appends the file's name to a URL path ending in "/".
 */
export function curlPost(url: string, file: string): Promise<Posted> {
  const parsed = new URL(url);
  const target = `${parsed.pathname}${parsed.search}`;
  const args = [
    '-sS',
    '-i',
    '-X',
    'POST',
    '-H',
    'content-type: application/octet-stream',
    '-H',
    'Expect:',
    '-T',
    file,
    '--request-target',
    target,
    parsed.origin,
  ];
  return new Promise((resolve, reject) => {
    execFile('curl', args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) {
        reject(new Error(`curl failed: ${error.message}`, { cause: error }));
        return;
      }
      resolve(parseResponse(stdout));
    });
  });
}

/** Status line, headers and body of `curl -i` output (one response: no 100 Continue, no redirects). */
function parseResponse(text: string): Posted {
  const split = text.indexOf('\r\n\r\n');
  const head = split === -1 ? text : text.slice(0, split);
  const body = split === -1 ? '' : text.slice(split + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body };
}
