/** The Files page's pure logic: the upload queue, where step 2 goes, and the recent-uploads list as stored. */
import { describe, expect, it } from 'vitest';
import { stepTwoUrl } from '../../../renderer/lib/upload-address.js';
import {
  addRecentUpload,
  parseRecentUploads,
  RECENT_UPLOADS_LIMIT,
  recentUploadsKey,
  removeRecentUpload,
  serializeRecentUploads,
  withPinStatus,
  type RecentUpload,
} from '../../../renderer/lib/recent-uploads.js';
import {
  describeJob,
  EMPTY_UPLOAD_QUEUE,
  jobFraction,
  startableJobs,
  uploadQueueReducer,
  uploadTotals,
  type UploadEvent,
  type UploadQueue,
} from '../../../renderer/lib/upload-queue.js';

const run = (events: UploadEvent[], from: UploadQueue = EMPTY_UPLOAD_QUEUE): UploadQueue => events.reduce(uploadQueueReducer, from);
const job = (queue: UploadQueue, id: string) => queue.jobs.find((candidate) => candidate.id === id);

const ADDED: UploadEvent = {
  type: 'added',
  jobs: [
    { id: 'a', kind: 'file', name: 'a.txt', files: 1, bytes: 1000 },
    { id: 'b', kind: 'folder', name: 'photos', files: 3, bytes: 3000 },
    { id: 'c', kind: 'file', name: 'empty.txt', files: 1, bytes: 0 },
  ],
};

describe('upload queue', () => {
  it('queues jobs once each, waiting, and starts at most `limit` at a time in the order they came', () => {
    const queue = run([ADDED, ADDED]);
    expect(queue.jobs.map((candidate) => [candidate.id, candidate.phase])).toEqual([
      ['a', 'waiting'],
      ['b', 'waiting'],
      ['c', 'waiting'],
    ]);
    expect(startableJobs(queue, 2).map((candidate) => candidate.id)).toEqual(['a', 'b']);
    const started = run([{ type: 'sending', id: 'a', payload: 1000 }], queue);
    expect(startableJobs(started, 2).map((candidate) => candidate.id)).toEqual(['b']);
    expect(startableJobs(run([{ type: 'reading', id: 'b' }], started), 2)).toEqual([]);
  });

  it('follows a folder through reading, sending and storing, and a file through sending', () => {
    let queue = run([ADDED, { type: 'reading', id: 'b' }, { type: 'read', id: 'b', files: 1, bytes: 1500, path: 'photos/x.jpg' }]);
    expect(jobFraction(job(queue, 'b')!)).toBeCloseTo(0.25);
    expect(describeJob(job(queue, 'b')!)).toBe('Reading 1 of 3 files · 1.5 KiB of 2.9 KiB');
    queue = run(
      [
        { type: 'sending', id: 'b', payload: 4000 },
        { type: 'sent', id: 'b', bytes: 1000 },
      ],
      queue,
    );
    expect(jobFraction(job(queue, 'b')!)).toBeCloseTo(0.625);
    expect(job(queue, 'b')?.read).toMatchObject({ files: 3, bytes: 3000 });
    expect(describeJob(job(queue, 'b')!)).toBe('Uploading 1000 B of 3.9 KiB');
    queue = run([{ type: 'storing', id: 'b' }], queue);
    expect([jobFraction(job(queue, 'b')!), describeJob(job(queue, 'b')!)]).toEqual([1, 'Storing on the service…']);

    queue = run(
      [
        { type: 'sending', id: 'a', payload: 1000 },
        { type: 'sent', id: 'a', bytes: 250 },
      ],
      queue,
    );
    expect(jobFraction(job(queue, 'a')!)).toBe(0.25);
    // Progress never goes backwards and never past the payload.
    queue = run([{ type: 'sent', id: 'a', bytes: 100 }], queue);
    expect(job(queue, 'a')?.sent).toBe(250);
    queue = run([{ type: 'sent', id: 'a', bytes: 5000 }], queue);
    expect(job(queue, 'a')?.sent).toBe(1000);
  });

  it('keeps finished jobs in the total until the run is over, so the total never goes backwards', () => {
    let queue = run([ADDED, { type: 'sending', id: 'a', payload: 1000 }, { type: 'sent', id: 'a', bytes: 1000 }]);
    const before = uploadTotals(queue).fraction;
    queue = run([{ type: 'finished', id: 'a' }], queue);
    expect(job(queue, 'a')).toBeUndefined();
    const after = uploadTotals(queue);
    expect(after.fraction).toBeCloseTo(before);
    expect(after).toMatchObject({ jobs: 3, done: 1, bytes: 3000 });
    queue = run(
      [
        { type: 'sending', id: 'c', payload: 0 },
        { type: 'storing', id: 'c' },
        { type: 'finished', id: 'c' },
        { type: 'sending', id: 'b', payload: 4000 },
        { type: 'finished', id: 'b' },
      ],
      queue,
    );
    // The run is over: the next drop starts a new total.
    expect(queue).toEqual(EMPTY_UPLOAD_QUEUE);
    expect(uploadTotals(queue)).toEqual({ fraction: 0, jobs: 0, done: 0, bytes: 0 });
  });

  it('a cancelled or failed job leaves the total, keeps its reason, ignores late progress, and can be retried or dismissed', () => {
    let queue = run([ADDED, { type: 'sending', id: 'a', payload: 1000 }, { type: 'sent', id: 'a', bytes: 500 }, { type: 'cancelled', id: 'a' }]);
    expect(job(queue, 'a')).toMatchObject({ phase: 'cancelled', sent: 500 });
    expect(describeJob(job(queue, 'a')!)).toBe('Cancelled. Nothing was stored.');
    // The request's last progress event and its abort arrive after the cancel: nothing changes.
    expect(
      run(
        [
          { type: 'sent', id: 'a', bytes: 900 },
          { type: 'failed', id: 'a', error: 'aborted' },
          { type: 'finished', id: 'a' },
        ],
        queue,
      ),
    ).toBe(queue);
    expect(uploadTotals(queue).jobs).toBe(2);
    queue = run(
      [
        { type: 'reading', id: 'b' },
        { type: 'failed', id: 'b', error: 'Photos/x.jpg could not be read.' },
      ],
      queue,
    );
    expect(describeJob(job(queue, 'b')!)).toBe('Photos/x.jpg could not be read.');
    queue = run([{ type: 'retried', id: 'a' }], queue);
    expect(job(queue, 'a')).toMatchObject({ phase: 'waiting', sent: 0, payload: 0, error: null });
    queue = run(
      [
        { type: 'dismissed', id: 'b' },
        { type: 'dismissed', id: 'a' },
      ],
      queue,
    );
    expect(queue.jobs.map((candidate) => candidate.id)).toEqual(['a', 'c']);
  });

  it('ignores events for unknown jobs and events that do not fit the phase', () => {
    const queue = run([ADDED]);
    for (const event of [
      { type: 'sent', id: 'a', bytes: 10 },
      { type: 'storing', id: 'a' },
      { type: 'finished', id: 'a' },
      { type: 'read', id: 'b', files: 1, bytes: 1, path: 'x' },
      { type: 'retried', id: 'a' },
      { type: 'dismissed', id: 'a' },
      { type: 'cancelled', id: 'zzz' },
    ] satisfies UploadEvent[]) {
      expect(uploadQueueReducer(queue, event), event.type).toBe(queue);
    }
  });

  it('a Cancel is cancelling until the service said: then cancelled, or kept with its CID (no retry), or failed when it could not say', () => {
    const queue = run([ADDED, { type: 'sending', id: 'a', payload: 1000 }, { type: 'storing', id: 'a' }, { type: 'cancelling', id: 'a' }]);
    expect([job(queue, 'a')?.phase, describeJob(job(queue, 'a')!)]).toEqual(['cancelling', 'Cancelling…']);
    // The step-2 answer or its abort arrives meanwhile: only the service's verdict moves it on.
    expect(run([{ type: 'finished', id: 'a' }], queue)).toBe(queue);
    const kept = run([{ type: 'kept', id: 'a', cid: 'bafkqaaa' }], queue);
    expect(job(kept, 'a')).toMatchObject({ phase: 'kept', cid: 'bafkqaaa' });
    expect(describeJob(job(kept, 'a')!)).toBe('Not cancelled: the service had stored it already, as bafkqaaa.');
    expect(run([{ type: 'retried', id: 'a' }], kept)).toBe(kept);
    expect(run([{ type: 'dismissed', id: 'a' }], kept).jobs.map((candidate) => candidate.id)).toEqual(['b', 'c']);
    expect(job(run([{ type: 'cancelled', id: 'a' }], queue), 'a')?.phase).toBe('cancelled');
    expect(job(run([{ type: 'failed', id: 'a', error: 'Cancelled, but…' }], queue), 'a')?.phase).toBe('failed');
    // A verdict without a cancel (no `cancelling` first) changes nothing.
    expect(run([{ type: 'kept', id: 'b', cid: 'bafkqaaa' }], queue)).toBe(queue);
  });

  it('says what a waiting job is', () => {
    const queue = run([ADDED]);
    expect(describeJob(job(queue, 'a')!)).toBe('Waiting · 1000 B');
    expect(describeJob(job(queue, 'b')!)).toBe('Waiting · 3 files, 2.9 KiB');
  });
});

describe('stepTwoUrl', () => {
  it("sends step 2 to the page's origin with the address's path and query", () => {
    expect(stepTwoUrl('http://127.0.0.1:5080/ipfs/?sargs=a-b_c&ssig=d', 'http://localhost:5080')).toBe('http://localhost:5080/ipfs/?sargs=a-b_c&ssig=d');
    expect(stepTwoUrl('http://127.0.0.1:5080/api/v0/dag/import?sargs=a&ssig=b', 'http://127.0.0.1:5080/')).toBe(
      'http://127.0.0.1:5080/api/v0/dag/import?sargs=a&ssig=b',
    );
  });

  it('refuses an answer that is no upload address', () => {
    expect(() => stepTwoUrl('/ipfs/?sargs=a&ssig=b', 'http://x')).toThrow('not a URL');
    expect(() => stepTwoUrl('http://127.0.0.1:5080/ipfs/?sargs=a', 'http://x')).toThrow('without its signature');
  });
});

const entry = (cid: string, extra: Partial<RecentUpload> = {}): RecentUpload => ({
  cid,
  name: `${cid}.txt`,
  kind: 'file',
  size: 12,
  files: 1,
  uploadedAt: 1_700_000_000,
  pinStatus: 'unpinned',
  ...extra,
});

describe('recent uploads', () => {
  it('round-trips through storage, newest first, and is kept per account', () => {
    const list = addRecentUpload(addRecentUpload([], entry('bafy1')), entry('bafy2', { kind: 'folder', files: 3, pinStatus: 'pinned' }));
    expect(list.map((upload) => upload.cid)).toEqual(['bafy2', 'bafy1']);
    expect(parseRecentUploads(serializeRecentUploads(list))).toEqual(list);
    expect(recentUploadsKey('u-1')).not.toBe(recentUploadsKey('u-2'));
    // Never anything but the fields it knows (no secret can ride along).
    expect(Object.keys((JSON.parse(serializeRecentUploads(list)) as object[])[0] ?? {}).sort()).toEqual([
      'cid',
      'files',
      'kind',
      'name',
      'pinStatus',
      'size',
      'uploadedAt',
    ]);
  });

  it('moves a CID uploaded again to the top, and keeps at most the limit', () => {
    let list: RecentUpload[] = [];
    for (let i = 0; i < RECENT_UPLOADS_LIMIT + 5; i++) list = addRecentUpload(list, entry(`bafy${i}`));
    expect(list).toHaveLength(RECENT_UPLOADS_LIMIT);
    expect(list[0]?.cid).toBe(`bafy${RECENT_UPLOADS_LIMIT + 4}`);
    list = addRecentUpload(list, entry('bafy20', { name: 'again.txt', uploadedAt: 1_800_000_000 }));
    expect(list[0]).toMatchObject({ cid: 'bafy20', name: 'again.txt', uploadedAt: 1_800_000_000 });
    expect(list.filter((upload) => upload.cid === 'bafy20')).toHaveLength(1);
    expect(removeRecentUpload(list, 'bafy20').some((upload) => upload.cid === 'bafy20')).toBe(false);
  });

  it('updates a pin state, and answers the same list when nothing changes', () => {
    const list = [entry('bafy1'), entry('bafy2')];
    const pinning = withPinStatus(list, 'bafy1', 'pinning');
    expect(pinning.map((upload) => upload.pinStatus)).toEqual(['pinning', 'unpinned']);
    expect(withPinStatus(pinning, 'bafy1', 'pinning')).toBe(pinning);
    expect(withPinStatus(pinning, 'bafy-unknown', 'pinned')).toBe(pinning);
  });

  it('reads nothing it does not recognise: bad JSON, another shape, bad entries, duplicates, too many', () => {
    for (const text of [null, '', '{', '{"cid":"x"}', '"text"', '42']) expect(parseRecentUploads(text), String(text)).toEqual([]);
    const good = entry('bafy1');
    const bad = [
      { ...good, cid: '' },
      { ...good, kind: 'link' },
      { ...good, size: -1 },
      { ...good, files: 1.5 },
      { ...good, uploadedAt: '2026' },
      { ...good, pinStatus: 'removed' },
      { ...good, name: 7 },
      null,
      'bafy',
    ];
    expect(parseRecentUploads(JSON.stringify([...bad, good, { ...good, name: 'dup' }, { ...good, cid: 'bafy2', secret: 'x' }]))).toEqual([
      good,
      { ...good, cid: 'bafy2' },
    ]);
    const many = Array.from({ length: 80 }, (_, i) => entry(`bafy${i}`));
    expect(parseRecentUploads(JSON.stringify(many))).toHaveLength(RECENT_UPLOADS_LIMIT);
  });
});
