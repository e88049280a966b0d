import { Button, IconButton } from '../components/button.js';
import { ContentLink } from '../components/content-link.js';
import type { ContentTarget, OpenContent } from './hooks/use-open-content.js';

/**
 * A row's Open: a link to the gateway in a new tab where the gateway worker adds the key (as on the Files
 * page), else a button that asks whether the gateway is public and opens it or says why it cannot.
 */
export function OpenContentControl({ target, opener, name, text }: { target: ContentTarget; opener: OpenContent; name: string; text?: string }) {
  const label = `Open ${name} in a new tab`;
  if (opener.linkable) return <ContentLink href={target.path} label={label} text={text} />;
  if (text !== undefined) {
    return (
      <Button icon="external" variant="ghost" aria-label={label} busy={opener.opening === target.key} onClick={() => opener.open(target)}>
        {text}
      </Button>
    );
  }
  return <IconButton icon="external" label={label} busy={opener.opening === target.key} onClick={() => opener.open(target)} />;
}
