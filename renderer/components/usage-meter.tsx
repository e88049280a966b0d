import { formatAmount, formatLimit, formatPercent, usageFraction, usageLevel, type UsageRow } from '../lib/format.js';

/** One usage figure against its plan limit: numbers as text, and a bar when there is a limit. */
export function UsageMeter({ row }: { row: UsageRow }) {
  const fraction = usageFraction(row.used, row.limit);
  const level = usageLevel(row.used, row.limit);
  const labelId = `usage-${row.key}-label`;
  return (
    <li className={`usage usage-${level}`} data-testid={`usage-${row.key}`} aria-labelledby={labelId}>
      <div className="usage-head">
        <h3 id={labelId} className="usage-label">
          {row.label}
        </h3>
        {fraction !== null ? <span className="usage-percent">{formatPercent(fraction)}</span> : null}
      </div>
      <p className="usage-figures">
        <span className="usage-used" data-testid="used">
          {formatAmount(row.used, row.unit)}
        </span>
        <span className="usage-of"> of </span>
        <span className="usage-limit" data-testid="limit">
          {formatLimit(row.limit, row.unit)}
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
          aria-valuetext={`${formatAmount(row.used, row.unit)} of ${formatLimit(row.limit, row.unit)}`}
        >
          {/* Any use at all shows a sliver, so 2 KiB of 1 GiB does not look like nothing. */}
          <div className="usage-bar-fill" style={{ width: fraction > 0 ? `max(${fraction * 100}%, 4px)` : '0' }} />
        </div>
      ) : (
        <div className="usage-bar usage-bar-unlimited" aria-hidden="true" />
      )}
      <p className="usage-description">{row.description}</p>
    </li>
  );
}
