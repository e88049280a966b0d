import { formatAmount, formatLimit, formatPercent, usageFraction, usageLevel, type UsageRow } from '../lib/format.js';
import './usage-meter.css';

/**
 * One usage figure against its plan limit: the numbers as text, and a meter only when there is a limit
 * to measure against. An unlimited limit reads "Unlimited" and draws no bar (an empty bar would look
 * like something still loading).
 */
export function UsageMeter({ row }: { row: UsageRow }) {
  const fraction = usageFraction(row.used, row.limit);
  const level = usageLevel(row.used, row.limit);
  const labelId = `usage-${row.key}-label`;
  const used = formatAmount(row.used, row.unit);
  const limit = formatLimit(row.limit, row.unit);
  return (
    <li className={`usage usage-${level}`} data-testid={`usage-${row.key}`} aria-labelledby={labelId}>
      <div className="usage-head">
        <h3 id={labelId} className="usage-label">
          {row.label}
        </h3>
        {fraction !== null ? <span className="usage-percent numeric">{formatPercent(fraction)}</span> : null}
      </div>
      <p className="usage-figures numeric">
        <span className="usage-used" data-testid="used">
          {used}
        </span>
        <span className="usage-of">{fraction !== null ? ' of ' : ' · '}</span>
        <span className={fraction !== null ? 'usage-limit' : 'usage-limit usage-unlimited'} data-testid="limit">
          {limit}
        </span>
      </p>
      {fraction !== null ? (
        <div
          className="usage-bar"
          role="meter"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(fraction * 100)}
          aria-valuetext={`${used} of ${limit}`}
        >
          {/* Any use at all shows a sliver, so 2 KiB of 1 GiB does not look like nothing. */}
          <div className="usage-bar-fill" style={{ width: fraction > 0 ? `max(${fraction * 100}%, 4px)` : '0' }} />
        </div>
      ) : null}
      <p className="usage-description">{row.description}</p>
    </li>
  );
}
