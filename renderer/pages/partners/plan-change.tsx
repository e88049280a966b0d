import { useId, useState } from 'react';
import type { PartnerUserUsage, Plan } from '../../../shared/api-types.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { ConfirmDialog } from '../../components/confirm-dialog.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import { Select } from '../../components/select.js';
import { useToasts } from '../../components/toasts.js';
import { formatMoney, quotePlanChange } from '../../lib/money.js';
import { compareLimits, otherPlans } from '../../lib/partner-users.js';

export interface PlanChangeProps {
  uuid: string;
  stats: PartnerUserUsage;
  plans: readonly Plan[] | undefined;
  plansError: string | null;
  onPlansRetry: () => void;
  /** This partner account's balance (`token_amount` of its own stats, kept current by `event: usage`). */
  balance: string | undefined;
  onChanged: () => void;
}

/**
 * Moves a user to another plan. Before confirming, the fee, the balance now and after, and the limits
 * before and after are shown; a balance that does not cover the fee is said plainly and the change is
 * not offered. The service has the last word: its 402 (the balance moved meanwhile) shows in the dialog.
 */
export function PlanChange({ uuid, stats, plans, plansError, onPlansRetry, balance, onChanged }: PlanChangeProps) {
  const api = useApi();
  const toasts = useToasts();
  const choices = plans ? otherPlans(plans, stats.plan) : [];
  const [chosenId, setChosenId] = useState<string>('');
  const chosen = choices.find((plan) => String(plan.id) === chosenId) ?? choices[0];
  const [confirming, setConfirming] = useState(false);
  const change = useAction((signal, plan: Plan) => api.partners.updatePlan(uuid, plan.id, signal));
  const quote = chosen && balance !== undefined ? quotePlanChange(balance, chosen.price) : null;
  const comparisonId = useId();

  const confirm = async () => {
    if (!chosen) return;
    const result = await change.run(chosen);
    if (!result.ok) return;
    setConfirming(false);
    toasts.show(`${stats.name} is on the ${chosen.name} plan now; ${chosen.price} was charged to this partner account.`);
    onChanged();
  };

  return (
    <Section
      title="Plan"
      description={
        <>
          On <strong>{stats.plan}</strong>
          {stats.next_plan && stats.next_plan !== stats.plan ? `; the next period starts on ${stats.next_plan}` : ''}. A change takes effect at once, and its
          fee is charged to this partner account.
        </>
      }
    >
      {plansError ? <InlineError message={plansError} onRetry={onPlansRetry} /> : null}
      {plans && choices.length === 0 ? <p className="muted">There is no other plan to move to.</p> : null}
      {chosen ? (
        <div className="plan-picker">
          <Select
            label="Move to"
            value={String(chosen.id)}
            options={choices.map((plan) => ({ value: String(plan.id), label: `${plan.name} (fee ${plan.price})` }))}
            onChange={setChosenId}
          />
          <Button
            onClick={() => {
              change.clearError();
              setConfirming(true);
            }}
          >
            Change plan…
          </Button>
        </div>
      ) : null}
      {chosen ? (
        <ConfirmDialog
          open={confirming}
          title={`Move ${stats.name} to ${chosen.name}?`}
          confirmLabel={`Move to ${chosen.name}`}
          busyLabel="Changing…"
          tone="primary"
          busy={change.pending}
          error={change.error}
          confirmDisabled={!quote?.covered}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(false)}
        >
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
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
