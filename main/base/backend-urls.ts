import { BadInputError } from './errors.js';

/**
 * The scale-out backends as `pinfold serve` names them (issue "beyond one machine"):
 * `--db postgres://user@host:port/database` and
 * `--blocks s3://bucket/prefix?endpoint=https://…&region=…`. Secrets never come from the command line,
 * where every user of the machine can read them (ps, shell history): PostgreSQL's password from
 * PGPASSWORD or ~/.pgpass (the driver reads both), S3's keys from the standard AWS variables or files.
 * A URL that carries one is refused, naming where it belongs.
 */

export interface PostgresTarget {
  /** The URL as given (it holds no password). */
  url: string;
  host: string;
  database: string;
}

export interface S3Target {
  bucket: string;
  /** Key prefix inside the bucket, "" or ending in "/". */
  prefix: string;
  /** The S3 endpoint (Ceph RGW, Garage, MinIO, R2…); undefined for AWS itself. */
  endpoint: string | undefined;
  region: string;
  /** Path-style requests (`endpoint/bucket/key`): what self-hosted stores expect; AWS takes virtual hosts. */
  forcePathStyle: boolean;
}

export function parsePostgresUrl(text: string): PostgresTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadInputError(`--db: "${text}" is not a URL (postgres://user@host:port/database)`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new BadInputError(`--db: "${url.protocol}" is not postgres:, the only database besides the built-in SQLite`);
  if (url.password !== '')
    throw new BadInputError('--db: a password in the URL would be visible to every user of this machine; give it in PGPASSWORD or ~/.pgpass');
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.hostname === '' || database === '' || database.includes('/'))
    throw new BadInputError('--db: must name a host and a database (postgres://user@host:port/database)');
  return { url: text, host: url.hostname, database };
}

/** Lower-case letters, digits, dots and hyphens, 3 to 63 characters (the S3 rules every store follows). */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const SECRET_PARAMETERS = ['access_key', 'accessKeyId', 'secret_key', 'secretAccessKey', 'session_token', 'sessionToken'];

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadInputError(`--blocks: "${segment}" is not valid percent-encoding`);
  }
}

export function parseS3Url(text: string): S3Target {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadInputError(`--blocks: "${text}" is not a URL (s3://bucket/prefix?endpoint=…&region=…)`);
  }
  if (url.protocol !== 's3:') throw new BadInputError(`--blocks: "${url.protocol}" is not s3:, the only block store besides the built-in one`);
  if (url.username !== '' || url.password !== '' || SECRET_PARAMETERS.some((name) => url.searchParams.has(name))) {
    throw new BadInputError(
      '--blocks: keys in the URL would be visible to every user of this machine; give them in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or an AWS credentials file',
    );
  }
  const bucket = url.hostname;
  if (!BUCKET.test(bucket) || bucket.includes('..'))
    throw new BadInputError(`--blocks: "${bucket}" is not a bucket name (3-63 lower-case letters, digits, dots and hyphens)`);
  // Read from the text as written: the URL parser would quietly resolve "a/../b" to "b".
  const written = text.slice('s3://'.length).split(/[?#]/)[0] ?? '';
  const path = written.includes('/') ? written.slice(written.indexOf('/') + 1) : '';
  const segments = path.split('/').map((segment) => safeDecode(segment));
  if (segments.some((segment, index) => segment === '..' || segment === '.' || (segment === '' && index < segments.length - 1 && path !== ''))) {
    throw new BadInputError(`--blocks: prefix "${path}" has an empty, "." or ".." segment`);
  }
  const decoded = segments.join('/');
  const prefix = decoded === '' || decoded.endsWith('/') ? decoded : `${decoded}/`;
  const known = new Set(['endpoint', 'region', 'path_style']);
  const unknown = [...url.searchParams.keys()].find((name) => !known.has(name));
  if (unknown !== undefined) throw new BadInputError(`--blocks: unknown parameter "${unknown}" (endpoint, region, path_style)`);
  const endpointText = url.searchParams.get('endpoint') ?? undefined;
  if (endpointText !== undefined) {
    let endpoint: URL;
    try {
      endpoint = new URL(endpointText);
    } catch {
      throw new BadInputError(`--blocks: endpoint "${endpointText}" is not a URL`);
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new BadInputError('--blocks: endpoint must be http: or https:');
  }
  const pathStyle = url.searchParams.get('path_style');
  if (pathStyle !== null && pathStyle !== 'true' && pathStyle !== 'false') throw new BadInputError('--blocks: path_style must be true or false');
  return {
    bucket,
    prefix,
    endpoint: endpointText,
    region: url.searchParams.get('region') ?? 'us-east-1',
    forcePathStyle: pathStyle === null ? endpointText !== undefined : pathStyle === 'true',
  };
}
