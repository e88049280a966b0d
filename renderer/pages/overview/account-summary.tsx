import type { AccountUsage } from '../../../shared/api-types.js';
import { formatDate } from '../../lib/format.js';

/** Plan, billing period and balance at a glance. */
export function AccountSummary({ usage }: { usage: AccountUsage }) {
  const items = [
    { label: 'Account', value: usage.name || usage.email || '—', testId: 'account' },
    { label: 'Plan', value: usage.plan, testId: 'plan' },
    ...(usage.next_plan && usage.next_plan !== usage.plan ? [{ label: 'Next period', value: `${usage.next_plan} plan`, testId: 'next-plan' }] : []),
    { label: 'Period ends', value: formatDate(usage.next_bill_at), testId: 'next-bill' },
    ...(usage.token_amount !== undefined ? [{ label: 'Balance', value: usage.token_amount, testId: 'balance' }] : []),
  ];
  return (
    <dl className="summary card" data-testid="summary">
      {items.map((item) => (
        <div key={item.label}>
          <dt>{item.label}</dt>
          <dd data-testid={item.testId}>{item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
