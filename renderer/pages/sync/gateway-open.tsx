import { useId } from 'react';
import { useGatewayAccess } from '../../app/gateway-access.js';
import { ContentLink } from '../../components/content-link.js';
import { CopyButton } from '../../components/copy-button.js';
import { Icon } from '../../components/icons.js';

export interface GatewayOpenProps {
  /** `/ipfs/<cid>/` or `/ipns/<name>/`. */
  path: string;
  /** The control's accessible name: "Open the root of photos in the gateway". */
  label: string;
  /** The service runs with --public-gateway: a plain link opens. Unknown counts as not. */
  publicGateway: boolean;
}

/**
 * Opens a root or a name in this service's gateway, as Open does on the Files, Pins and Names pages: a link
 * to a new tab, to which the gateway worker adds this window's key (or none is needed: --public-gateway).
 * Where the worker cannot run (the window is not at a localhost address) a link would be refused, so the
 * control explains that instead, with the address and a curl command to copy.
 */
export function GatewayOpen({ path, label, publicGateway }: GatewayOpenProps) {
  const popoverId = useId();
  const access = useGatewayAccess();
  const url = `${window.location.origin}${path}`;
  if (publicGateway || access === 'ready') return <ContentLink href={path} label={label} size="sm" />;
  const separator = path.includes('?') ? '&' : '?';
  const curl = `curl -H "X-Access-Key: $PINFOLD_KEY" -H "X-Access-Secret: $PINFOLD_SECRET" "${url}${separator}ts=$(date +%s)"`;
  return (
    <>
      <button type="button" className="button button-ghost icon-button button-sm" popoverTarget={popoverId} aria-label={label} title={label}>
        <Icon name="external" />
      </button>
      <div id={popoverId} popover="auto" className="gateway-popover card" role="dialog" aria-label={label}>
        <p>
          <strong>This gateway needs an access key.</strong> A browser link cannot carry one, so opening it here would be refused.
        </p>
        <div className="command">
          <code>{url}</code>
          <CopyButton value={url} what="gateway address" compact size="sm" />
        </div>
        <p className="muted">With a key of yours in PINFOLD_KEY and PINFOLD_SECRET:</p>
        <div className="command">
          <code>{curl}</code>
          <CopyButton value={curl} what="curl command" compact size="sm" />
        </div>
        <p className="muted">
          To open such links in any browser on this computer, start the service with <code>--public-gateway</code>.
        </p>
        <div className="gateway-popover-actions">
          <button type="button" className="button button-secondary button-sm" popoverTarget={popoverId} popoverTargetAction="hide">
            Close
          </button>
        </div>
      </div>
    </>
  );
}
