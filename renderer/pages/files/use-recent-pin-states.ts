import { useEffect, useMemo } from 'react';
import type { PinRecord } from '../../../shared/api-types.js';
import { usePinRecords } from '../../data/pin-records.js';
import { withPinStatus, type RecentPinStatus, type RecentUpload } from '../../lib/recent-uploads.js';
import type { RecentUploads } from './use-recent-uploads.js';

const statusOf = (record: PinRecord | null): RecentPinStatus => record?.status ?? 'unpinned';

/**
 * The recent uploads as the page shows them, each with its pin state: `pinning` while the page pins it,
 * else as the service has it (looked up when the page shows it, kept current by `event: pin` through the
 * request cache: data/pin-records.ts), else as it was stored. What the service says is written back to
 * the stored list, so the next visit starts from it even before the service answers.
 */
export function useRecentPinStates(recents: RecentUploads, pinning: ReadonlySet<string>): readonly RecentUpload[] {
  const { entries, change } = recents;
  const cids = useCidList(entries);
  const records = usePinRecords(cids);

  useEffect(() => {
    if (records.size > 0) change((list) => [...records].reduce((next, [cid, record]) => withPinStatus(next, cid, statusOf(record)), list));
  }, [records, change]);

  return useMemo(
    () =>
      entries.map((entry) => {
        const record = records.get(entry.cid);
        const pinStatus = pinning.has(entry.cid) ? 'pinning' : record === undefined ? entry.pinStatus : statusOf(record);
        return pinStatus === entry.pinStatus ? entry : { ...entry, pinStatus };
      }),
    [entries, records, pinning],
  );
}

/** The entries' CIDs, the same array while they are the same CIDs (a pin state written back changes the entries, not what is looked up). */
function useCidList(entries: readonly RecentUpload[]): readonly string[] {
  const text = entries.map((entry) => entry.cid).join(' ');
  return useMemo(() => (text === '' ? [] : text.split(' ')), [text]);
}
