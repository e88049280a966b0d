import { middleEllipsis } from '../lib/format.js';
import { CopyButton } from './copy-button.js';
import './identifiers.css';

export interface CidProps {
  value: string;
  /** Adds a compact copy button ("Copy CID"). */
  copy?: boolean;
  /** What the value is, for the copy button's name: "CID" (default), "IPNS name", "access key". */
  what?: string;
  /** Makes the shortened value a link (open in the gateway). */
  href?: string | undefined;
  /** Characters kept at each end. */
  head?: number;
  tail?: number;
}

/**
 * A content identifier (or any long identifier): monospace, shortened in the middle where people do
 * not compare, the full value in the tooltip, for screen readers, and in the copy button.
 */
export function Cid({ value, copy = false, what = 'CID', href, head, tail }: CidProps) {
  const short = middleEllipsis(value, head, tail);
  const text = (
    <>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{value}</span>
    </>
  );
  return (
    <span className="cid">
      {href ? (
        <a className="cid-value" href={href} title={value} target="_blank" rel="noreferrer">
          {text}
        </a>
      ) : (
        <span className="cid-value" title={value}>
          {text}
        </span>
      )}
      {copy ? <CopyButton value={value} what={what} compact size="sm" /> : null}
    </span>
  );
}
