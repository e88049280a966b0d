import { useState } from 'react';
import type { PartnerUserUsage, Plan } from '../../../shared/api-types.js';
import { ActionConfirmDialog } from '../../app/action-confirm-dialog.js';
import { Button } from '../../components/button.js';
import { InlineError } from '../../components/inline-error.js';
import { Section } from '../../components/section.js';
import { Select } from '../../components/select.js';
import { useToasts } from '../../components/toasts.js';
import { useChangeUserPlan, usePlans } from '../../data/partners.js';
import { quotePlanChange } from '../../lib/money.js';
import { otherPlans } from '../../lib/partner-users.js';
import { PlanQuote } from './plan-quote.js';

export interface PlanChangeProps {
  uuid: string;
  stats: PartnerUserUsage;
  /** This partner account's balance (`token_amount` of its own stats, kept current by `event: usage`). */
  balance: string | undefined;
}

/**
 * Moves a user to another plan. Before confirming, the fee, the balance now and after, and the limits
 * before and after are shown; a balance that does not cover the fee is said plainly and the change is
 * not offered. The service has the last word: its 402 (the balance moved meanwhile) shows in the dialog.
 */
export function PlanChange({ uuid, stats, balance }: PlanChangeProps) {
  const toasts = useToasts();
  const plans = usePlans();
  const change = useChangeUserPlan(uuid);
  const choices = plans.data ? otherPlans(plans.data, stats.plan) : [];
  const [chosenId, setChosenId] = useState<string>('');
  const chosen = choices.find((plan) => String(plan.id) === chosenId) ?? choices[0];
  const [confirming, setConfirming] = useState<Plan | null>(null);
  const quote = confirming && balance !== undefined ? quotePlanChange(balance, confirming.price) : null;

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
      {plans.error ? <InlineError message={plans.error} onRetry={plans.reload} /> : null}
      {plans.data && choices.length === 0 ? <p className="muted">There is no other plan to move to.</p> : null}
      {chosen ? (
        <div className="plan-picker">
          <Select
            label="Move to"
            value={String(chosen.id)}
            options={choices.map((plan) => ({ value: String(plan.id), label: `${plan.name} (fee ${plan.price})` }))}
            onChange={setChosenId}
          />
          <Button onClick={() => setConfirming(chosen)}>Change plan…</Button>
        </div>
      ) : null}
      <ActionConfirmDialog
        target={confirming}
        action={change}
        onDone={(_result, plan) => toasts.show(`${stats.name} is on the ${plan.name} plan now; ${plan.price} was charged to this partner account.`)}
        onClose={() => setConfirming(null)}
        title={`Move ${stats.name} to ${confirming?.name ?? ''}?`}
        confirmLabel={`Move to ${confirming?.name ?? ''}`}
        busyLabel="Changing…"
        tone="primary"
        confirmDisabled={!quote?.covered}
      >
        {confirming ? <PlanQuote stats={stats} chosen={confirming} balance={balance} quote={quote} /> : null}
      </ActionConfirmDialog>
    </Section>
  );
}
