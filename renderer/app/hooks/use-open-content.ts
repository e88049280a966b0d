import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../../api/api-error.js';
import type { ContentPath } from '../../api/gateway.js';
import { useToasts } from '../../components/toasts.js';
import { downloadName, downloadNote, openPlan } from '../../lib/content-view.js';
import { describeError } from '../../lib/messages.js';
import { useApi, useSession } from '../session.js';

export interface ContentTarget {
  /** Which control asked (a row's CID or name), so a failure is shown beside it. */
  key: string;
  path: ContentPath;
  /** What the user calls it (a pin's name; may be ''), for the file name and the messages. */
  label: string;
}

export interface OpenContent {
  open: (target: ContentTarget) => void;
  /** The key of the target being opened, while it is. */
  opening: string | null;
  /** Why the last open failed, for the control whose key it names. */
  failure: { key: string; message: string } | null;
  dismiss: () => void;
}

/** Object URLs handed to tabs and downloads; the oldest are let go, not all at once (a video still seeks in its tab). */
const KEPT_URLS = 8;
const keptUrls: string[] = [];
function keepUrl(url: string): void {
  keptUrls.push(url);
  while (keptUrls.length > KEPT_URLS) URL.revokeObjectURL(keptUrls.shift() ?? '');
}

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  keepUrl(url);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * "Open" for content on the gateway, which asks for a key (a plain link would get 401, and a secret never
 * goes into a URL):
 * - when the gateway is public (`--public-gateway`), a new tab at /ipfs/… or /ipns/…, where the gateway's
 *   `Content-Security-Policy: sandbox` keeps the content's scripts away from this window;
 * - else the window fetches it with the key headers: images, video, audio, PDF and text open in a new tab
 *   from a blob: URL (text as plain text), and what could run script there (a web page, SVG, XML), other
 *   types and folders (as .tar) are saved as files, with a note saying why (lib/content-view.ts).
 * The new tab is opened at the click, before the content arrives, so the browser does not block it.
 */
export function useOpenContent(): OpenContent {
  const api = useApi();
  const { credentials } = useSession();
  const toasts = useToasts();
  const [opening, setOpening] = useState<string | null>(null);
  const [failure, setFailure] = useState<OpenContent['failure']>(null);
  const running = useRef(false);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const open = useCallback(
    (target: ContentTarget) => {
      if (running.current) return;
      running.current = true;
      const current = new AbortController();
      controller.current = current;
      const { signal } = current;
      setOpening(target.key);
      setFailure(null);
      let tab: Window | null = null;
      const run = async () => {
        if (await api.gateway.isPublic(target.path, signal)) {
          window.open(target.path, '_blank', 'noopener,noreferrer');
          return;
        }
        const head = await api.gateway.head(credentials, target.path, signal);
        // The gateway sends a folder to its address with a trailing slash (relative links need it).
        const isFolder = new URL(head.url).pathname.endsWith('/');
        const plan = openPlan(head.headers.get('content-type'), isFolder);
        if (plan.kind === 'view') {
          tab = window.open('', '_blank');
          if (tab) {
            tab.document.title = 'Opening…';
            tab.document.body.textContent = `Opening ${target.label || target.path}…`;
            const blob = await (await api.gateway.get(credentials, target.path, {}, signal)).blob();
            const url = URL.createObjectURL(new Blob([blob], { type: plan.type }));
            keepUrl(url);
            // The content's tab keeps no handle on this window.
            tab.opener = null;
            tab.location.replace(url);
            return;
          }
        }
        const reason = plan.kind === 'download' ? plan.reason : 'other';
        const fallback = target.path.split('/')[2] ?? 'content';
        const fileName = downloadName(target.label, fallback, reason);
        const response = await api.gateway.get(credentials, target.path, reason === 'folder' ? { format: 'tar' } : {}, signal);
        save(await response.blob(), fileName);
        toasts.show(plan.kind === 'view' ? `Saved ${fileName}: the browser did not open a new tab.` : downloadNote(fileName, reason, true), 'info');
      };
      run()
        .catch((error: unknown) => {
          tab?.close();
          if (signal.aborted || isAbortError(error) || (error instanceof ApiError && error.isUnauthorized)) return;
          setFailure({ key: target.key, message: `Could not open ${target.label || 'this content'}: ${describeError(error)}` });
        })
        .finally(() => {
          running.current = false;
          if (!signal.aborted) setOpening(null);
        });
    },
    [api, credentials, toasts],
  );

  const dismiss = useCallback(() => setFailure(null), []);
  return { open, opening, failure, dismiss };
}
