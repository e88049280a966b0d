import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../api/api-error.js';
import { describeError } from '../../lib/messages.js';
import { expectGatewayNavigation, useGatewayAccess } from '../gateway-access.js';
import { useApi } from '../session.js';

export interface ContentTarget {
  /** Which control asked (a row's CID or name), so a failure is shown beside it. */
  key: string;
  /** `/ipfs/<cid>` (lib/gateway-links.ts contentPath) or `/ipns/<name>`. */
  path: string;
  /** What the user calls it (a pin's name; may be ''), for the message when it cannot be opened. */
  label: string;
}

export interface OpenContent {
  /** A plain link opens content (the gateway worker adds the key): render a link, not a button. */
  linkable: boolean;
  /** Where a link cannot carry the key: asks whether the gateway is public, and opens or says why not. */
  open: (target: ContentTarget) => void;
  /** The key of the target being opened, while the window checks how. */
  opening: string | null;
  /** Why the last open failed, for the control whose key it names. */
  failure: { key: string; message: string } | null;
  dismiss: () => void;
}

export const OPEN_NEEDS_LOCALHOST =
  'Open needs this window at a localhost address, where the browser adds its key to the link, or the service started with --public-gateway. Copy the CID instead.';

/**
 * "Open" for content on the gateway, as the Files page does it: a new tab at /ipfs/… or /ipns/…, to which
 * the gateway service worker (app/gateway-access.tsx) adds this window's key, so the content streams in
 * as from a plain link (folders browsable) and no secret is ever in a URL; the gateway serves it with
 * `Content-Security-Policy: sandbox`, so nothing in it runs with the window's origin. Where the worker
 * cannot run (the window is not at a localhost address), a link works only if the gateway is public
 * (`--public-gateway`): the window asks it, and otherwise says why it cannot open.
 */
export function useOpenContent(): OpenContent {
  const api = useApi();
  const access = useGatewayAccess();
  const [opening, setOpening] = useState<string | null>(null);
  const [failure, setFailure] = useState<OpenContent['failure']>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const open = useCallback(
    (target: ContentTarget) => {
      setFailure(null);
      if (access !== 'unavailable') {
        expectGatewayNavigation(target.path);
        window.open(target.path, '_blank', 'noopener');
        return;
      }
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setOpening(target.key);
      api.gateway
        .isPublic(target.path, current.signal)
        .then(
          (isPublic) => {
            if (isPublic) window.open(target.path, '_blank', 'noopener');
            else setFailure({ key: target.key, message: OPEN_NEEDS_LOCALHOST });
          },
          (error: unknown) => {
            if (current.signal.aborted || isAbortError(error)) return;
            setFailure({ key: target.key, message: `Could not open ${target.label || 'this content'}: ${describeError(error)}` });
          },
        )
        .finally(() => {
          if (!current.signal.aborted) setOpening(null);
        });
    },
    [api, access],
  );

  const dismiss = useCallback(() => setFailure(null), []);
  return { linkable: access !== 'unavailable', open, opening, failure, dismiss };
}
