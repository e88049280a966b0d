import { useState } from 'react';
import { useLocation } from 'wouter';
import { useAccount } from '../../app/account.js';
import { useListPage } from '../../app/hooks/use-list-page.js';
import { Button } from '../../components/button.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useCreatePartnerUser, usePartnerUsers } from '../../data/partners.js';
import { formatCount } from '../../lib/format.js';
import { formatMoney, parseMoney } from '../../lib/money.js';
import { partnersHref, type NewUserFields } from '../../lib/partner-users.js';
import { NewUserForm } from './new-user-form.js';
import { UserDetail } from './user-detail.js';
import { UsersList } from './users-list.js';
import './partners.css';

/**
 * The partner interface in the window (partner accounts only; the shell tells others why there is
 * nothing here): the users this partner created, a page at a time, and creating one; `?user=<uuid>`
 * opens one user: its usage, a plan change with its fee and the balance it leaves, and its keys.
 * Live, through the request cache (renderer/data/partners.ts): `event: partner` loads what is shown of
 * the users again; `event: usage` keeps the balance current.
 */
export function PartnersPage() {
  const { usage } = useAccount();
  const list = useListPage();
  const { position, params } = list;
  const selected = params.get('user');
  const users = usePartnerUsers(position);

  const [, navigate] = useLocation();
  const toasts = useToasts();
  const [creating, setCreating] = useState(false);
  const createUser = useCreatePartnerUser();
  const startCreating = () => {
    createUser.clearError();
    setCreating(true);
  };
  const submitUser = async (user: NewUserFields) => {
    const result = await createUser.run(user);
    if (!result.ok) return;
    setCreating(false);
    toasts.show(`Created ${user.name} on the Free plan. Give them a key below.`);
    // Straight to the new user: its plan and its first key are the next steps.
    navigate(partnersHref(new URLSearchParams(), user.uuid));
  };

  return (
    <Page
      title="Partners"
      description="The user accounts this partner account created: their plans, usage and keys. Plan fees are charged to this account's balance."
      actions={
        selected === null && !creating ? (
          <Button variant="primary" icon="plus" onClick={startCreating}>
            Create user
          </Button>
        ) : null
      }
    >
      <PartnerSummary balance={usage?.token_amount} users={users.data?.total} />
      {selected !== null ? (
        <UserDetail key={selected} uuid={selected} listHref={partnersHref(params, null)} balance={usage?.token_amount} />
      ) : (
        <>
          {creating ? (
            <Section title="New user" description="The account starts on the Free plan, with no keys.">
              <NewUserForm busy={createUser.pending} error={createUser.error} onSubmit={(user) => void submitUser(user)} onCancel={() => setCreating(false)} />
            </Section>
          ) : null}
          <UsersList
            users={users}
            position={position}
            onPositionChange={(next) => list.setPosition(next)}
            params={params}
            onCreate={creating ? null : startCreating}
          />
        </>
      )}
    </Page>
  );
}

/** This partner account's balance, and how many users it has (once known). */
function PartnerSummary({ balance, users }: { balance: string | undefined; users: number | undefined }) {
  const balanceCents = balance === undefined ? null : parseMoney(balance);
  return (
    <p className="partner-summary" data-testid="partner-summary">
      <span>
        Balance <strong className="numeric">{balanceCents === null ? '—' : formatMoney(balanceCents)}</strong>
      </span>
      {users !== undefined ? (
        <span>
          <strong className="numeric">{formatCount(users)}</strong> {users === 1 ? 'user' : 'users'}
        </span>
      ) : null}
    </p>
  );
}
