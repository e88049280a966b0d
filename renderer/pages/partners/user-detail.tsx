import { Link } from 'wouter';
import { CopyableFact } from '../../components/copyable-fact.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icons.js';
import { InlineError } from '../../components/inline-error.js';
import { Facts, Section } from '../../components/section.js';
import { UsageMeter } from '../../components/usage-meter.js';
import { usePartnerUserStats } from '../../data/partners.js';
import { formatDate, usageRows } from '../../lib/format.js';
import { PlanChange } from './plan-change.js';
import { UserKeys } from './user-keys.js';

export interface UserDetailProps {
  uuid: string;
  /** Back to the list, on the page it was on. */
  listHref: string;
  balance: string | undefined;
}

/**
 * One user of this partner: who it is, its usage against its plan's limits, a plan change, its keys.
 * Mounted per user (keyed by uuid), so nothing of another user shows while this one loads. Live:
 * `event: partner` loads its stats and keys again (the request cache does: renderer/data/partners.ts).
 */
export function UserDetail({ uuid, listHref, balance }: UserDetailProps) {
  const stats = usePartnerUserStats(uuid);
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
      <PlanChange uuid={uuid} stats={user} balance={balance} />
      <UserKeys uuid={uuid} userName={user.name} />
    </>
  );
}
