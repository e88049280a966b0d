import { IconButton } from '../components/button.js';
import { Icon } from '../components/icons.js';
import type { ContentTarget, OpenContent } from './hooks/use-open-content.js';
import '../components/button.css';

/**
 * A row's Open: a real link to the gateway in a new tab where the gateway worker adds the key (so it can
 * be middle-clicked or copied, as on the Files page), else a button that asks whether the gateway is public.
 */
export function OpenContentControl({ target, opener, name }: { target: ContentTarget; opener: OpenContent; name: string }) {
  const label = `Open ${name} in a new tab`;
  if (opener.linkable) {
    return (
      <a className="button button-ghost icon-button" href={target.path} target="_blank" rel="noopener noreferrer" aria-label={label} title={label}>
        <Icon name="external" />
      </a>
    );
  }
  return <IconButton icon="external" label={label} busy={opener.opening === target.key} onClick={() => opener.open(target)} />;
}
