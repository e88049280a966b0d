import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../../main/base/errors.js';
import { parsePostgresUrl, parseS3Url } from '../../../main/base/backend-urls.js';

describe('parsePostgresUrl', () => {
  it('takes a postgres URL with user, host, port and database', () => {
    expect(parsePostgresUrl('postgres://pinfold@db.internal:5433/pinfold')).toEqual({
      url: 'postgres://pinfold@db.internal:5433/pinfold',
      host: 'db.internal',
      database: 'pinfold',
    });
    expect(parsePostgresUrl('postgresql://127.0.0.1/my%20db').database).toBe('my db');
  });

  it('refuses a password in the URL, naming where it belongs, and anything that is not a database URL', () => {
    expect(() => parsePostgresUrl('postgres://pinfold:hunter2@db/pinfold')).toThrow(/PGPASSWORD or ~\/\.pgpass/);
    for (const bad of ['', 'db/pinfold', 'mysql://db/pinfold', 'postgres://db', 'postgres://db/', 'postgres://db/a/b', 'postgres:///pinfold']) {
      expect(() => parsePostgresUrl(bad), bad).toThrow(BadInputError);
    }
  });

  it('never repeats the password in its message', () => {
    try {
      parsePostgresUrl('postgres://u:very-secret@db/x');
    } catch (error) {
      expect(String(error)).not.toContain('very-secret');
      return;
    }
    throw new Error('expected a refusal');
  });
});

describe('parseS3Url', () => {
  it('reads bucket, prefix, endpoint and region; a custom endpoint means path-style requests', () => {
    expect(parseS3Url('s3://pinfold-blocks/prod/blocks?endpoint=http://127.0.0.1:7480&region=default')).toEqual({
      bucket: 'pinfold-blocks',
      prefix: 'prod/blocks/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'default',
      forcePathStyle: true,
    });
    expect(parseS3Url('s3://my.bucket')).toEqual({ bucket: 'my.bucket', prefix: '', endpoint: undefined, region: 'us-east-1', forcePathStyle: false });
    expect(parseS3Url('s3://b12/p/?endpoint=https://r2.example&path_style=false').forcePathStyle).toBe(false);
  });

  it('refuses keys in the URL, naming the AWS variables', () => {
    expect(() => parseS3Url('s3://AKIA:secret@bucket')).toThrow(/AWS_ACCESS_KEY_ID/);
    expect(() => parseS3Url('s3://bucket?secret_key=x')).toThrow(/AWS_SECRET_ACCESS_KEY/);
  });

  it('refuses bad buckets, prefixes, endpoints and parameters', () => {
    const bad = [
      'http://bucket',
      's3://',
      's3://ab',
      's3://Upper',
      's3://a..b',
      's3://bucket-/x',
      's3://bucket/a//b',
      's3://bucket/../x',
      's3://bucket/%2E%2E/x',
      's3://bucket/%zz',
      's3://bucket?endpoint=ftp://x',
      's3://bucket?endpoint=nope',
      's3://bucket?path_style=yes',
      's3://bucket?colour=blue',
    ];
    for (const text of bad) expect(() => parseS3Url(text), text).toThrow(BadInputError);
  });
});
