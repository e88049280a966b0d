import { describe, expect, it } from 'vitest';
import { parseArgs, serveConfig, UsageError } from '../../../main/cli/args.js';

describe('pinfold serve --cid-profile', () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it("leaves the profile to settings.json without it (its default unixfs-v1-2025), and takes either of Kubo's profile names", () => {
    expect(config().cidProfile).toBeUndefined();
    expect(config('--cid-profile', 'unixfs-v0-2015').cidProfile).toBe('unixfs-v0-2015');
    expect(config('--cid-profile=unixfs-v1-2025').cidProfile).toBe('unixfs-v1-2025');
  });

  it('refuses any other name, a missing value and a repeated flag with a usage error naming the flag', () => {
    for (const bad of ['unixfs-v0', 'UNIXFS-V0-2015', 'legacy-cid-v0', 'test-cid-v1', ' unixfs-v0-2015', ''])
      expect(() => config(`--cid-profile=${bad}`)).toThrow(new UsageError(`--cid-profile must be one of unixfs-v1-2025, unixfs-v0-2015 (got "${bad}")`));
    expect(() => config('--cid-profile')).toThrow(UsageError);
    expect(() => config('--cid-profile', 'unixfs-v0-2015', '--cid-profile', 'unixfs-v1-2025')).toThrow(/--cid-profile given more than once/);
  });
});

describe('pinfold serve --db', () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it('keeps the metadata in SQLite without it, and names the PostgreSQL database with it', () => {
    expect(config().database).toBeUndefined();
    expect(config('--db', 'postgres://pinfold@db.example:5432/pinfold').database).toEqual({
      url: 'postgres://pinfold@db.example:5432/pinfold',
      host: 'db.example',
      database: 'pinfold',
    });
  });

  it('refuses a password on the command line, another scheme, and a URL without a database', () => {
    expect(() => config('--db', 'postgres://pinfold:secret@db.example/pinfold')).toThrow(/PGPASSWORD or ~\/\.pgpass/);
    expect(() => config('--db', 'mysql://db.example/pinfold')).toThrow(/not postgres:/);
    expect(() => config('--db', 'postgres://db.example')).toThrow(/must name a host and a database/);
  });
});

describe('pinfold serve --blocks', () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it('keeps the blocks in the data folder without it, and names the bucket, prefix and endpoint with it', () => {
    expect(config().blocks).toBeUndefined();
    expect(
      config('--db', 'postgres://pinfold@db.example/pinfold', '--blocks', 's3://pinfold-blocks/team/a?endpoint=http://127.0.0.1:7480&region=default').blocks,
    ).toEqual({
      bucket: 'pinfold-blocks',
      prefix: 'team/a/',
      endpoint: 'http://127.0.0.1:7480',
      region: 'default',
      forcePathStyle: true,
    });
  });

  it('refuses keys on the command line, another scheme, and blocks without --db', () => {
    const db = ['--db', 'postgres://pinfold@db.example/pinfold'];
    expect(() => config(...db, '--blocks', 's3://key:secret@pinfold-blocks/')).toThrow(/AWS_ACCESS_KEY_ID/);
    expect(() => config(...db, '--blocks', 'gs://pinfold-blocks/')).toThrow(/not s3:/);
    expect(() => config('--blocks', 's3://pinfold-blocks/')).toThrow(
      new UsageError('--blocks needs --db postgres://…: the block index must be shared like the bucket'),
    );
  });
});

describe('pinfold serve --master-key-file', () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it('names the shared master key file (the key itself never goes on the command line); once at most', () => {
    expect(config().masterKeyFile).toBeUndefined();
    expect(config('--db', 'postgres://pinfold@db.example/pinfold', '--master-key-file', '/etc/pinfold/master.key').masterKeyFile).toBe(
      '/etc/pinfold/master.key',
    );
    expect(() => config('--master-key-file', '/a', '--master-key-file', '/b')).toThrow(/given more than once/);
  });
});

describe('pinfold serve --fetch-from, --routing, --offline', () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it('leaves the network to settings.json without them, and pins each one given for the run', () => {
    expect(config().network).toBeUndefined();
    expect(config('--offline').network).toEqual({ offline: true });
    expect(config('--offline=false').network).toEqual({ offline: false });
    expect(config('--fetch-from', 'http://127.0.0.1:8080/', '--fetch-from=https://gw.example', '--fetch-from', 'https://gw.example/').network).toEqual({
      fetchFrom: ['http://127.0.0.1:8080', 'https://gw.example'],
    });
    expect(config('--routing', 'https://delegated.example/prefix', '--offline').network).toEqual({
      routing: ['https://delegated.example/prefix'],
      offline: true,
    });
  });

  it('refuses what is not an http(s) URL, credentials in one, and a value on --offline', () => {
    expect(() => config('--fetch-from', 'gw.example')).toThrow(new UsageError('--fetch-from: "gw.example" is not a URL'));
    expect(() => config('--routing', 'ftp://r.example')).toThrow(UsageError);
    expect(() => config('--routing', 'https://user:pw@r.example')).toThrow(/credentials/);
    expect(() => config('--fetch-from')).toThrow(UsageError);
    expect(() => config('--offline=yes')).toThrow(/--offline takes no value/);
  });
});

describe("pinfold serve: the flags of settings.json's settings", () => {
  const config = (...argv: string[]) => serveConfig(parseArgs(['serve', ...argv]));

  it('leaves each setting to settings.json when its flag is absent, and pins the ones given', () => {
    const none = config();
    for (const field of ['port', 'desktopPort', 'gcIntervalSeconds', 'gcGraceSeconds', 'publicGateway', 'cidProfile', 'network'] as const)
      expect(none[field], field).toBeUndefined();
    expect(config('--port', '0', '--gc-interval', '60', '--gc-grace=0', '--public-gateway')).toMatchObject({
      port: 0,
      gcIntervalSeconds: 60,
      gcGraceSeconds: 0,
      publicGateway: true,
    });
    expect(config('--public-gateway=false').publicGateway).toBe(false);
    const desktop = config('--desktop-port', '5081');
    expect(desktop.desktopPort).toBe(5081);
    expect(desktop.port).toBeUndefined();
  });

  it('refuses a value out of range, a value on a switch, and both ports, naming the flag', () => {
    expect(() => config('--port', '65536')).toThrow(new UsageError('--port must be 0..65535'));
    expect(() => config('--desktop-port', 'x')).toThrow(new UsageError('--desktop-port must be 0..65535'));
    expect(() => config('--port', '1', '--desktop-port', '2')).toThrow(/give one/);
    expect(() => config('--gc-interval', '0')).toThrow(/--gc-interval must be a whole number of seconds from 1/);
    expect(() => config('--gc-grace', '-1')).toThrow(/--gc-grace must be a whole number of seconds from 0/);
    expect(() => config('--public-gateway=yes')).toThrow(/--public-gateway takes no value/);
  });
});
