import { useLayoutEffect } from 'react';
import { Link, useSearch } from 'wouter';
import { expectGatewayNavigation, useGatewayAccess } from '../../app/gateway-access.js';
import { OPEN_NEEDS_LOCALHOST } from '../../app/hooks/use-open-content.js';
import { ContentLink } from '../../components/content-link.js';
import { CopyButton } from '../../components/copy-button.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icons.js';
import { InlineError } from '../../components/inline-error.js';
import { OptionText } from '../../components/option-text.js';
import { Page } from '../../components/page.js';
import { usePublicGateway } from '../../data/gateway.js';
import { readViewPath, type ViewTarget } from '../../lib/view-path.js';
import './view-page.css';

/**
 * One piece of content inside the window (`/view?path=/ipfs/<cid>/…`), where the desktop app's ipfs://
 * and ipns:// links land through a sign-in link's `next`. Not in the navigation.
 */
export function ViewPage() {
  const input = readViewPath(new URLSearchParams(useSearch()).get('path'));
  if ('problem' in input) {
    return (
      <Page title="Cannot show this content">
        <EmptyState icon="alert" title={input.problem} actions={<Link href="/pins">Go to Pins</Link>}>
          Open content from the Pins, Names or Files page, or use an ipfs:// or ipns:// link.
        </EmptyState>
      </Page>
    );
  }
  return <ContentView key={input.target.path} target={input.target} />;
}

type Showing = 'yes' | 'waiting' | 'no';

/** Said as the Pins and Names pages say it of Open; what can be copied here is the path. */
const NEEDS_LOCALHOST = `${OPEN_NEEDS_LOCALHOST.replace(/ Copy the CID instead\.$/, '')} Copy the path instead.`;

/** What the root of a content path is, in words: a CID, an IPNS name, or a DNSLink domain. */
function rootKind(target: ViewTarget): string {
  if (target.namespace === 'ipfs') return 'CID';
  return target.root.includes('.') ? 'Domain' : 'IPNS name';
}

/**
 * The heading is the file or folder's name, its path inside the root under it, then the root (the CID)
 * in full with Copy, and the whole content path with Copy.
 */
function ContentView({ target }: { target: ViewTarget }) {
  const showing = useShowing(target.path);
  const what = target.namespace === 'ipfs' ? 'content path' : 'IPNS path';
  const kind = rootKind(target);
  return (
    <div className="view-page">
      <Page
        title={target.title}
        description={target.within === '' ? undefined : <span className="view-within">{target.within}</span>}
        actions={showing.state === 'yes' ? <ContentLink href={target.path} label={`Open in new tab: ${target.title}`} text="Open in new tab" /> : null}
      >
        <dl className="view-facts">
          <div>
            <dt>{kind}</dt>
            <dd>
              <code className="view-root-text">{target.root}</code>
              <CopyButton value={target.root} what={kind} size="sm" />
            </dd>
          </div>
          <div>
            <dt>Path</dt>
            <dd>
              <code className="view-path-text">{target.path}</code>
              <CopyButton value={target.path} what={what} size="sm" />
            </dd>
          </div>
        </dl>
        <p className="muted view-sandbox">As the gateway serves it, in a sandbox: scripts inside it do not run.</p>
        {showing.state === 'yes' ? (
          <ContentFrame path={target.path} />
        ) : showing.state === 'waiting' ? (
          <p className="view-note" role="status">
            <Icon name="spinner" className="spin" /> Preparing the gateway…
          </p>
        ) : showing.error ? (
          <InlineError message={`Could not check whether this content can be shown: ${showing.error}`} onRetry={showing.retry} />
        ) : (
          <div className="view-note" role="alert">
            <Icon name="alert" />
            <p>
              <OptionText text={NEEDS_LOCALHOST} />
            </p>
          </div>
        )}
      </Page>
    </div>
  );
}

/**
 * The content in a frame, through the gateway worker: the frame's address is announced to it in the
 * commit that inserts the frame (a layout effect runs before the worker's question can arrive), so its
 * first navigation carries this window's key, and the pages it opens from there do too.
 */
function ContentFrame({ path }: { path: string }) {
  useLayoutEffect(() => expectGatewayNavigation(path), [path]);
  return (
    // `sandbox="allow-same-origin"`: no script runs in the frame even if a response lacked the gateway's
    // own `Content-Security-Policy: sandbox` (which gives the document an opaque origin as well). A bare
    // `sandbox` would also make the frame's navigations opaque-origin, and Chromium then sends them past
    // the gateway worker, without the key (tried: 400/401 instead of the content).
    <iframe className="view-frame" src={path} title={`Content of ${path}`} sandbox="allow-same-origin" />
  );
}

/**
 * Whether the frame can show the content: yes once the gateway worker (app/gateway-access.tsx) adds this
 * window's key to its navigations; where no worker runs (not a localhost address), only when the gateway
 * is public, which the window asks as the Pins page's Open does.
 */
function useShowing(path: string): { state: Showing; error: string | null; retry: () => void } {
  const access = useGatewayAccess();
  const publicGateway = usePublicGateway(path, access === 'unavailable');
  if (access === 'ready') return { state: 'yes', error: null, retry: publicGateway.reload };
  if (access === 'starting') return { state: 'waiting', error: null, retry: publicGateway.reload };
  if (publicGateway.loading || publicGateway.waiting) return { state: 'waiting', error: null, retry: publicGateway.reload };
  if (publicGateway.data === true) return { state: 'yes', error: null, retry: publicGateway.reload };
  return { state: 'no', error: publicGateway.error, retry: publicGateway.reload };
}
