import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import type { S3Target } from '../../base/backend-urls.js';
import { BadInputError } from '../../base/errors.js';
import { FILE_BODY_PIECE_BYTES, FileBody } from './file-body.js';
import { PieceBuffers } from './piece-buffers.js';

/** Keys the SDK takes for the tests and embedders that pass them in code; the CLI never does (default chain). */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * One bucket (and key prefix) of an S3-compatible store, as the object block store uses it: pack objects
 * written whole from a local file, read by byte range, deleted. Everything else of S3 stays out.
 */
export class S3Bucket {
  /** Two a PUT; kept for four PUTs at once (8 MiB), what a few uploads at a time use. */
  private readonly pieces = new PieceBuffers(FILE_BODY_PIECE_BYTES, 8);

  constructor(
    private readonly client: S3Client,
    readonly target: S3Target,
  ) {}

  /** Where the pack object with this id lives. */
  packKey(packId: number): string {
    return `${this.target.prefix}packs/${String(packId).padStart(8, '0')}`;
  }

  /**
   * Uploads a local file as one object, streamed from disk in 1 MiB pieces through memory kept from one
   * upload to the next (a pack is never held in memory; file-body.ts says why not a read stream).
   */
  async putFile(key: string, path: string, size: number): Promise<void> {
    const body = new FileBody(path, size, this.pieces);
    await this.client.send(new PutObjectCommand({ Bucket: this.target.bucket, Key: key, Body: body, ContentLength: size }));
  }

  /**
   * Reads `length` bytes at `offset` of an object into `target` (or new memory), streamed as they arrive.
   * Undefined when the object is gone (compaction or an orphan sweep deleted it).
   */
  async readRange(key: string, offset: number, length: number, target?: Uint8Array): Promise<Uint8Array | undefined> {
    if (target !== undefined && target.byteLength !== length) throw new RangeError(`read target holds ${target.byteLength} bytes, not ${length}`);
    // An empty block (an empty file's raw leaf) has no byte to ask for, and `bytes=a-(a-1)` is no range.
    if (length === 0) return target ?? new Uint8Array(0);
    let body: unknown;
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.target.bucket, Key: key, Range: `bytes=${offset}-${offset + length - 1}` }));
      body = response.Body;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    if (!isAsyncIterable(body)) throw new Error(`object ${key}: the response has no readable body`);
    const out = target ?? new Uint8Array(length);
    let at = 0;
    for await (const chunk of body) {
      if (!(chunk instanceof Uint8Array)) throw new TypeError(`object ${key}: the body yielded a non-byte chunk`);
      if (at + chunk.byteLength > length) throw new Error(`object ${key}: the store sent more than the ${length} bytes asked for`);
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    if (at !== length) throw new Error(`object ${key}: ${at} of ${length} bytes at ${offset} (the object is shorter than its index says)`);
    return out;
  }

  /** The object's size, or undefined when it is gone. */
  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.target.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Deletes an object; one already gone is fine (S3 answers 204 either way, some stores NoSuchKey). */
  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.target.bucket, Key: key }));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** A missing object or bucket, by the names S3 and its clones answer with. */
export function isMissing(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.name === 'InvalidRange');
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * The client: credentials from the SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, the
 * shared credentials file, …) unless given in code; kept-alive connections with Nagle off, so a small
 * ranged GET is not held back waiting for a delayed ACK; checksums only where S3 requires them, since
 * not every S3-compatible store accepts the SDK's newer trailing checksums.
 */
export function createS3Client(target: S3Target, credentials?: S3Credentials): S3Client {
  const agentOptions = { keepAlive: true, maxSockets: 64, noDelay: true };
  const config: S3ClientConfig = {
    region: target.region,
    forcePathStyle: target.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { httpAgent: new HttpAgent(agentOptions), httpsAgent: new HttpsAgent(agentOptions) },
    ...(target.endpoint !== undefined ? { endpoint: target.endpoint } : {}),
    ...(credentials !== undefined ? { credentials } : {}),
  };
  return new S3Client(config);
}

/**
 * Opens the bucket: creates it when missing (one that exists and is ours is fine), then checks that it
 * answers to these credentials, so a wrong endpoint, key or bucket fails here with a clear message, not
 * at the first upload.
 */
export async function openS3Bucket(target: S3Target, credentials?: S3Credentials): Promise<S3Bucket> {
  const client = createS3Client(target, credentials);
  const where = `s3://${target.bucket}/${target.prefix}${target.endpoint !== undefined ? ` at ${target.endpoint}` : ''}`;
  try {
    try {
      await client.send(new CreateBucketCommand({ Bucket: target.bucket }));
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
    }
    await client.send(new HeadBucketCommand({ Bucket: target.bucket }));
  } catch (error) {
    client.destroy();
    throw new BadInputError(`--blocks: cannot use ${where}: ${describe(error)}`);
  }
  return new S3Bucket(client, target);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const code = (error as { code?: string }).code;
  const name = error.name === 'Error' && code !== undefined ? code : error.name;
  return `${name}${status !== undefined ? ` (HTTP ${status})` : ''}: ${error.message || 'no message'}`;
}
