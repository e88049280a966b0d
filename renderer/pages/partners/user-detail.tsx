import { Link } from 'wouter';
import type { Plan } from '../../../shared/api-types.js';
import { useResource, type Resource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { CopyableFact } from '../../components/copyable-fact.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icons.js';
import { InlineError } from '../../components/inline-error.js';
import { Facts, Section } from '../../components/section.js';
import { UsageMeter } from '../../components/usage-meter.js';
import { useEvent } from '../../events/events-provider.js';
import { formatDate, usageRows } from '../../lib/format.js';
import { PlanChange } from './plan-change.js';
import { UserKeys } from './user-keys.js';

export interface UserDetailProps {
  uuid: string;
  /** Back to the list, on the page it was on. */
  listHref: string;
  plans: Resource<Plan[]>;
  balance: string | undefined;
}

/**
 * One user of this partner: who it is, its usage against its plan's limits, a plan change, its keys.
 * Mounted per user (keyed by uuid), so nothing of another user shows while this one loads. Live:
 * `event: partner` with this uuid loads its stats and keys again.
 */
export function UserDetail({ uuid, listHref, plans, balance }: UserDetailProps) {
  const api = useApi();
  const stats = useResource((signal) => api.partners.userStats(uuid, signal), [api, uuid]);
  const keys = useResource((signal) => api.partners.userKeys(uuid, signal), [api, uuid]);
  useEvent('partner', (change) => {
    if (change.uuid !== uuid) return;
    stats.reload();
    keys.reload();
  });

  const back = (
    <Link href={listHref} className="partner-back">
      <Icon name="chevronLeft" size={14} /> All users
    </Link>
  );
  const user = stats.data;
  if (!user) {
    return (
      <>
        {back}
        {stats.error ? (
          <EmptyState icon="alert" title="This user could not be shown" actions={<Link href={listHref}>Back to all users</Link>}>
            <InlineError message={stats.error} onRetry={stats.reload} />
          </EmptyState>
        ) : (
          <p className="muted" role="status">
            {stats.waiting ? 'Waiting for the Pinfold service…' : 'Loading the user…'}
          </p>
        )}
      </>
    );
  }
  return (
    <>
      {back}
      {stats.error ? <InlineError message={stats.error} onRetry={stats.reload} /> : null}
      <Section title={user.name} description="A user account this partner account created.">
        <Facts
          items={[
            {
              label: 'User ID',
              testId: 'user-uuid',
              value: <CopyableFact value={uuid} what="user ID" />,
            },
            { label: 'E-mail', value: user.email || '—', testId: 'user-email' },
            { label: 'Plan', value: user.plan, testId: 'user-plan' },
            { label: 'Period ends', value: `${formatDate(user.next_bill_at)} (uploads and downloads count from zero again)`, testId: 'user-period' },
          ]}
        />
      </Section>
      <Section title="Usage" description={`Against the limits of the ${user.plan} plan. The figures update by themselves.`}>
        <ul className="usage-grid">
          {usageRows(user).map((row) => (
            <UsageMeter key={row.key} row={row} />
          ))}
        </ul>
      </Section>
      <PlanChange uuid={uuid} stats={user} plans={plans.data} plansError={plans.error} onPlansRetry={plans.reload} balance={balance} onChanged={stats.reload} />
      <UserKeys uuid={uuid} userName={user.name} keys={keys} />
    </>
  );
}
