import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, runToEnd, waitUntil } from './processes.js';

/**
 * A real S3-compatible object store for one test file: Ceph's RADOS Gateway over a one-node cluster (one
 * monitor, one manager, one OSD on memstore, so nothing is written to disk), all on loopback, with
 * authentication off inside the cluster (the S3 side still checks its access key). The daemons run from
 * Debian's `ceph-mon`, `ceph-osd`, `ceph-mgr` and `radosgw` packages; bootstrapping takes about ten seconds.
 */
export interface CephRgw {
  /** http://127.0.0.1:<port>, for path-style requests. */
  readonly endpoint: string;
  readonly region: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  stop(): Promise<void>;
}

const READY_WITHIN_MS = 60_000;

function cephConf(home: string, fsid: string, monPort: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${monPort}]
auth cluster required = none
auth service required = none
auth client required = none
ms mon client mode = crc secure
osd objectstore = memstore
memstore device bytes = 1073741824
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd crush chooseleaf type = 0
mon allow pool size one = true
mon max pg per osd = 1000
mon warn on pool no redundancy = false
run dir = ${home}/run
log file = ${home}/log/$name.log
admin socket = ${home}/run/$name.asok
pid file = ${home}/run/$name.pid
mon data = ${home}/mon/$name
osd data = ${home}/osd/$name
mgr data = ${home}/mgr/$name
keyring = ${home}/keyring
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort} tcp_nodelay=1
rgw data = ${home}/rgw
`;
}

interface Daemon {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
}

function startDaemon(name: string, command: string, args: readonly string[]): Daemon {
  const child = spawn(command, [...args, '-f'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { name, child, exited };
}

async function stopDaemons(daemons: readonly Daemon[]): Promise<void> {
  // The gateway first, the monitor last: each stops while what it talks to is still there.
  for (const daemon of [...daemons].reverse()) {
    if (daemon.child.exitCode === null && daemon.child.signalCode === null) daemon.child.kill('SIGTERM');
    await daemon.exited;
  }
}

export async function startCephRgw(): Promise<CephRgw> {
  const home = await mkdtemp(join(tmpdir(), 'pinfold-ceph-'));
  for (const dir of ['run', 'log', 'mon', 'osd/osd.0', 'mgr/mgr.x', 'rgw']) await mkdir(join(home, dir), { recursive: true });
  const fsid = randomUUID();
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const conf = join(home, 'ceph.conf');
  await writeFile(conf, cephConf(home, fsid, monPort, rgwPort));
  const c = ['-c', conf];
  const daemons: Daemon[] = [];
  const credentials = { accessKeyId: 'PINFOLDTEST', secretAccessKey: randomUUID() };
  try {
    await runToEnd(['monmaptool', ['--create', '--addv', 'a', `[v2:127.0.0.1:${monPort}]`, '--fsid', fsid, join(home, 'monmap')]]);
    await runToEnd(['ceph-authtool', ['--create-keyring', join(home, 'keyring'), '--gen-key', '-n', 'mon.', '--cap', 'mon', 'allow *']]);
    await runToEnd(['ceph-mon', ['--mkfs', '-i', 'a', '--monmap', join(home, 'monmap'), ...c]]);
    daemons.push(startDaemon('mon', 'ceph-mon', ['-i', 'a', ...c]));
    const osdUuid = randomUUID();
    // The first `ceph` call also waits for the monitor: it retries until the monitor answers.
    await runToEnd(['ceph', [...c, '--connect-timeout', '30', 'osd', 'new', osdUuid]]);
    await runToEnd(['ceph-osd', ['--mkfs', '-i', '0', '--osd-uuid', osdUuid, ...c]]);
    daemons.push(startDaemon('osd', 'ceph-osd', ['-i', '0', ...c]));
    daemons.push(startDaemon('mgr', 'ceph-mgr', ['-i', 'x', ...c]));
    daemons.push(startDaemon('rgw', 'radosgw', ['-n', 'client.rgw', ...c]));
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitUntil('the RADOS Gateway to answer', READY_WITHIN_MS, async () => {
      const dead = daemons.find((daemon) => daemon.child.exitCode !== null || daemon.child.signalCode !== null);
      if (dead) throw new Error(`ceph ${dead.name} exited during start-up (logs in ${home}/log)`);
      try {
        return (await fetch(`${endpoint}/`)).status === 200;
      } catch {
        return false;
      }
    });
    await runToEnd([
      'radosgw-admin',
      [
        ...c,
        'user',
        'create',
        '--uid=pinfold',
        '--display-name=Pinfold tests',
        `--access-key=${credentials.accessKeyId}`,
        `--secret-key=${credentials.secretAccessKey}`,
      ],
    ]);
    return {
      endpoint,
      region: 'default',
      ...credentials,
      async stop() {
        await stopDaemons(daemons);
        await rm(home, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const daemon of daemons) daemon.child.kill('SIGKILL');
    await Promise.all(daemons.map((daemon) => daemon.exited));
    await rm(home, { recursive: true, force: true });
    throw error;
  }
}

/** The keys under `prefix` in `bucket` (one page of up to 1,000), as the gateway's own user sees them. */
export async function listObjectKeys(rgw: CephRgw, bucket: string, prefix: string): Promise<string[]> {
  const s3 = new S3Client({
    endpoint: rgw.endpoint,
    region: rgw.region,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
  });
  try {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  } finally {
    s3.destroy();
  }
}
