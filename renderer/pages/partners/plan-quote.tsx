import { useId } from 'react';
import type { PartnerUserUsage, Plan } from '../../../shared/api-types.js';
import { formatMoney, type PlanChangeQuote } from '../../lib/money.js';
import { compareLimits } from '../../lib/partner-users.js';

export interface PlanQuoteProps {
  stats: PartnerUserUsage;
  chosen: Plan;
  /** This partner account's balance; undefined while it loads. */
  balance: string | undefined;
  /** The fee against the balance (lib/money.ts); null while the balance is not known. */
  quote: PlanChangeQuote | null;
}

/** What a plan change costs and changes: the fee, the balance now and after (or that it does not cover the fee), and the limits before and after. */
export function PlanQuote({ stats, chosen, balance, quote }: PlanQuoteProps) {
  const comparisonId = useId();
  return (
    <>
      <dl className="plan-quote" data-testid="plan-quote">
        <div>
          <dt>Fee, charged now</dt>
          <dd className="numeric">{chosen.price}</dd>
        </div>
        <div>
          <dt>Balance now</dt>
          <dd className="numeric">{quote ? formatMoney(quote.balanceCents) : (balance ?? 'Loading…')}</dd>
        </div>
        <div>
          <dt>Balance after</dt>
          <dd className="numeric">
            <strong>{quote ? (quote.covered ? formatMoney(quote.afterCents) : 'Not enough') : '—'}</strong>
          </dd>
        </div>
      </dl>
      {quote && !quote.covered ? (
        <p className="plan-short" data-testid="plan-short">
          The balance ({formatMoney(quote.balanceCents)}) does not cover the {chosen.price} fee: the service would refuse this change. Add credit to this
          partner account first (the owner of this Pinfold runs <code>pinfold account credit</code>).
        </p>
      ) : null}
      <table className="plan-comparison" aria-describedby={comparisonId}>
        <caption id={comparisonId} className="visually-hidden">
          Limits of {stats.name} now and on {chosen.name}
        </caption>
        <thead>
          <tr>
            <th scope="col">Limit</th>
            <th scope="col">Now ({stats.plan})</th>
            <th scope="col">On {chosen.name}</th>
          </tr>
        </thead>
        <tbody>
          {compareLimits(stats, chosen).map((row) => (
            <tr key={row.label}>
              <th scope="row">{row.label}</th>
              <td className="numeric">{row.now}</td>
              <td className={`numeric plan-${row.change}`}>
                {row.after}
                {row.change === 'down' ? <span className="visually-hidden"> (less)</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
