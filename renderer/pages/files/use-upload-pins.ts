import { useCallback, useState } from 'react';
import { ApiError } from '../../api/api-error.js';
import { usePinEachUpload, usePinUpload } from '../../data/uploads.js';
import { describeError } from '../../lib/messages.js';
import type { RecentUpload } from '../../lib/recent-uploads.js';

/** The "Pin…" dialog of an upload that is not pinned. */
export interface PinDialog {
  upload: RecentUpload | null;
  open: (upload: RecentUpload) => void;
  close: () => void;
  /** Pins the dialog's upload under `name`; the dialog closes once it is pinned, or shows why not. */
  pin: (name: string) => void;
  busy: boolean;
  error: string | null;
}

export interface UploadPins {
  /** Uploads the page is pinning now, by CID: shown as pinning until the service answers. */
  pinning: ReadonlySet<string>;
  /** Why pinning a finished upload failed, by CID: shown in its row. */
  errors: ReadonlyMap<string, string>;
  /** Pins a finished upload under its name, beside any other running. */
  pinFinished: (cid: string, name: string) => void;
  dialog: PinDialog;
}

/**
 * The pins the Files page makes of its uploads: each finished upload (when the page is set to) and the
 * one "Pin…" asks for. The request cache holds what the service then says (data/uploads.ts); this holds
 * what only the page knows: which are on their way, and why one was refused.
 */
export function useUploadPins(): UploadPins {
  const [pinning, setPinning] = useState<ReadonlySet<string>>(new Set());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const [target, setTarget] = useState<RecentUpload | null>(null);
  const pinEach = usePinEachUpload();
  const pinOne = usePinUpload();

  const setError = useCallback((cid: string, message: string | null) => setErrors((current) => withEntry(current, cid, message)), []);
  const tracked = useCallback(
    async <T>(cid: string, work: () => Promise<T>): Promise<T> => {
      setError(cid, null);
      setPinning((current) => new Set(current).add(cid));
      try {
        return await work();
      } finally {
        setPinning((current) => withoutItem(current, cid));
      }
    },
    [setError],
  );
  const pinFinished = useCallback(
    (cid: string, name: string) => {
      tracked(cid, () => pinEach({ cid, name })).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.isUnauthorized)) setError(cid, `Not pinned: ${describeError(error)}`);
      });
    },
    [tracked, pinEach, setError],
  );

  const dialog: PinDialog = {
    upload: target,
    open: (upload) => {
      pinOne.clearError();
      setTarget(upload);
    },
    close: () => setTarget(null),
    pin: (name) => {
      if (!target) return;
      const { cid } = target;
      void tracked(cid, () => pinOne.run({ cid, name })).then((result) => {
        if (result.ok) setTarget(null);
      });
    },
    busy: pinOne.pending,
    error: pinOne.error,
  };
  return { pinning, errors, pinFinished, dialog };
}

/** `map` with `key` set to `value`, or without it for null; the same map when nothing changes. */
function withEntry(map: ReadonlyMap<string, string>, key: string, value: string | null): ReadonlyMap<string, string> {
  if (value === null && !map.has(key)) return map;
  const next = new Map(map);
  if (value === null) next.delete(key);
  else next.set(key, value);
  return next;
}

function withoutItem(set: ReadonlySet<string>, item: string): ReadonlySet<string> {
  const next = new Set(set);
  next.delete(item);
  return next;
}
