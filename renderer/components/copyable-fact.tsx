import { CopyButton } from './copy-button.js';
import './copyable-fact.css';

/** A long value in a list of facts (a path, a URL, an ID) shown whole, with a small Copy button beside it. */
export function CopyableFact({ value, what }: { value: string; what: string }) {
  return (
    <span className="copyable-fact">
      <code>{value}</code>
      <CopyButton value={value} what={what} compact size="sm" />
    </span>
  );
}
