import { useState } from 'react';
import { useLocation } from 'wouter';
import { useAccount } from '../../app/account.js';
import { useAction } from '../../app/hooks/use-action.js';
import { useListPage } from '../../app/hooks/use-list-page.js';
import { useResource } from '../../app/hooks/use-resource.js';
import { useApi } from '../../app/session.js';
import { Button } from '../../components/button.js';
import { Page } from '../../components/page.js';
import { Section } from '../../components/section.js';
import { useToasts } from '../../components/toasts.js';
import { useEvent } from '../../events/events-provider.js';
import { formatCount } from '../../lib/format.js';
import { formatMoney, parseMoney } from '../../lib/money.js';
import { partnersHref, type NewUserFields } from '../../lib/partner-users.js';
import { NewUserForm } from './new-user-form.js';
import { useCoalesced } from './use-coalesced.js';
import { UserDetail } from './user-detail.js';
import { UsersList } from './users-list.js';
import './partners.css';

/** A busy partner's users can send many `event: partner` a second; the list is fetched again at most this often. */
const LIST_REFRESH_MS = 1000;

/**
 * The partner interface in the window (partner accounts only; the shell tells others why there is
 * nothing here): the users this partner created, a page at a time, and creating one; `?user=<uuid>`
 * opens one user: its usage, a plan change with its fee and the balance it leaves, and its keys.
 * Live: `event: partner` names the user that changed; `event: usage` keeps the balance current.
 */
export function PartnersPage() {
  const api = useApi();
  const { usage } = useAccount();
  const list = useListPage();
  const { position, params } = list;
  const selected = params.get('user');
  const listHref = partnersHref(params, null);

  const users = useResource((signal) => api.partners.users(position, signal), [api, position]);
  const plans = useResource((signal) => api.account.plans(signal), [api]);
  const reloadList = useCoalesced(() => users.reload(), LIST_REFRESH_MS);
  useEvent('partner', () => reloadList());

  const [, navigate] = useLocation();
  const toasts = useToasts();
  const [creating, setCreating] = useState(false);
  const createUser = useAction((signal, user: NewUserFields) => api.partners.createUser(user, signal));
  const startCreating = () => {
    createUser.clearError();
    setCreating(true);
  };
  const submitUser = async (user: NewUserFields) => {
    const result = await createUser.run(user);
    if (!result.ok) return;
    setCreating(false);
    toasts.show(`Created ${user.name} on the Free plan. Give them a key below.`);
    users.reload();
    // Straight to the new user: its plan and its first key are the next steps.
    navigate(partnersHref(new URLSearchParams(), user.uuid));
  };

  const balanceCents = usage ? parseMoney(usage.token_amount) : null;
  const summary = (
    <p className="partner-summary" data-testid="partner-summary">
      <span>
        Balance <strong className="numeric">{balanceCents === null ? '—' : formatMoney(balanceCents)}</strong>
      </span>
      {users.data ? (
        <span>
          <strong className="numeric">{formatCount(users.data.total)}</strong> {users.data.total === 1 ? 'user' : 'users'}
        </span>
      ) : null}
    </p>
  );

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
      {summary}
      {selected !== null ? (
        <UserDetail key={selected} uuid={selected} listHref={listHref} plans={plans} balance={usage?.token_amount} />
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
