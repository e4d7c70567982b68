// Hepic's Config page, 'Manage users from hepic' (spec 001 §2 Hepic, §5, §6): organization mode only; the list of
// users with name, email, a group select (hepic-role-confirm machine per row) and Remove; the add form of project
// members not yet listed; the admin-only auto-add switch (optimistic). Only admins see the controls; the superadmin
// is shown and locked; nobody removes themselves. Every change is a form intent posted to /{projectSlug}/stack/hepic.
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { css } from 'styled-system/css';
import { ALL_MEMBERS_ADDED_MESSAGE, AUTO_ADD_LABEL, HEPIC_GROUPS, ORGANIZATION_MODE_MESSAGE, SELECT_MEMBER_MESSAGE, type HepicGroup } from '../../../../contract/hepic';
import { useCurrentUser, useTokenOrganizationId } from '../../../app/auth-context';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field, NativeSelect } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import type { HepicConfigData } from '../../../services/hepic';
import { runHepicIntent } from '../../../services/hepic-intents';
import { HepicRoleSelect, type RoleCalls } from './hepic-role-select';
import { useHepicCandidates, useHepicIntent, useHepicUsers } from './use-hepic';

const ADMIN_GROUPS = new Set(['admin', 'superadmin']);

export function HepicConfigPage({ projectId, config }: { projectId: number; config: HepicConfigData }) {
  const organizationId = useTokenOrganizationId();
  if (organizationId === null) {
    return (
      <Card title="Manage users from hepic">
        <Alert status="info">
          {ORGANIZATION_MODE_MESSAGE} <Link to="/organization/create">Create an organization</Link>
        </Alert>
      </Card>
    );
  }
  return <ManageUsers projectId={projectId} config={config} />;
}

function ManageUsers({ projectId, config }: { projectId: number; config: HepicConfigData }) {
  const currentUser = useCurrentUser();
  const { projectSlug } = useParams();
  const users = useHepicUsers(projectId);
  const me = users.data?.find((u) => u.userId === currentUser.id);
  const isAdmin = Boolean(me && ADMIN_GROUPS.has(me.group));
  const candidates = useHepicCandidates(projectId, isAdmin);
  const remove = useHepicIntent(projectId);
  const action = `/${projectSlug}/stack/hepic`;

  // One row's calls: the intents of the role change, through the same dispatcher the route action uses.
  const roleCalls: RoleCalls = {
    request: (userId, group) => intentCall(projectId, 'UPDATE_HEPIC_USER_ROLE', userId, group, false),
    save: (userId, group) => intentCall(projectId, 'UPDATE_HEPIC_USER_ROLE', userId, group, true),
    restore: (userId, group) => intentCall(projectId, 'CANCEL_UPDATE_HEPIC_USER_ROLE', userId, group, false),
  };

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}>
      <Card title="Manage users from hepic">
        {users.isPending && <Spinner label="Loading the hepic users" />}
        {users.isError && <Alert status="error">We encountered an error while fetching some data.</Alert>}
        {users.data && (
          <table className={css({ w: 'full', borderCollapse: 'collapse', '& th, & td': { textAlign: 'left', py: '2', pr: '3' } })}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                {isAdmin && <th scope="col"><span className={css({ srOnly: true })}>Actions</span></th>}
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => {
                const locked = user.group === 'superadmin';
                const self = user.userId === me?.userId;
                return (
                  <tr key={user.userId}>
                    <td>{user.name}</td>
                    <td>{user.email}</td>
                    <td>
                      {isAdmin && !locked ? (
                        <HepicRoleSelect userId={user.userId} name={user.name} group={user.group as HepicGroup} calls={roleCalls} onChanged={() => void users.refetch()} />
                      ) : (
                        <span aria-label={`Role of ${user.name}`}>{user.group}{locked ? ' (locked)' : ''}</span>
                      )}
                    </td>
                    {isAdmin && (
                      <td>
                        {!locked && !self && (
                          <remove.Form method="post" action={action}>
                            <input type="hidden" name="intent" value="REMOVE_HEPIC_USER" />
                            <input type="hidden" name="user_id" value={user.userId} />
                            <Button type="submit" size="sm" variant="outline" aria-label={`Remove ${user.name}`} loading={remove.state !== 'idle' && remove.formData?.get('user_id') === user.userId}>
                              Remove
                            </Button>
                          </remove.Form>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </Card>
      {isAdmin && <AddUserCard projectId={projectId} candidates={candidates.data ?? null} loading={candidates.isPending} />}
      {isAdmin && <AutoAddSwitch projectId={projectId} enabled={config.autoAdd} />}
    </div>
  );
}

async function intentCall(projectId: number, intent: 'UPDATE_HEPIC_USER_ROLE' | 'CANCEL_UPDATE_HEPIC_USER_ROLE', userId: string, group: HepicGroup, hasConfirmed: boolean) {
  const form = new FormData();
  form.set('intent', intent);
  form.set('users[0][user_id]', userId);
  form.set('users[0][group]', group);
  form.set('hasConfirmed', String(hasConfirmed));
  const result = await runHepicIntent(projectId, form);
  if (!result.ok) throw Object.assign(new Error(result.error ?? Object.values(result.fieldErrors ?? {})[0]?.[0] ?? 'The role could not be changed.'), { description: result.description });
  return { message: result.message };
}

function AddUserCard({ projectId, candidates, loading }: { projectId: number; candidates: { userId: string; email: string; name: string }[] | null; loading: boolean }) {
  const { projectSlug } = useParams();
  const fetcher = useHepicIntent(projectId);
  const [userId, setUserId] = useState('');
  const [group, setGroup] = useState<HepicGroup>('user');
  const [error, setError] = useState<string | null>(null);
  const serverError = fetcher.data && !fetcher.data.ok ? (fetcher.data.fieldErrors?.user_id?.[0] ?? null) : null;
  // After an add the form starts over, role included: a kept role silently went to the next person added.
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data?.ok) {
      setUserId('');
      setGroup('user');
    }
  }, [fetcher.state, fetcher.data]);
  if (loading) return <Spinner label="Loading the project members" />;
  if (candidates && candidates.length === 0) {
    return (
      <Alert status="info">
        {ALL_MEMBERS_ADDED_MESSAGE} <Link to={`/${projectSlug}/settings`}>Project settings</Link> · <Link to="/organization">Organization</Link>
      </Alert>
    );
  }
  return (
    <Card title="Add a user">
      <form
        noValidate
        className={css({ display: 'flex', gap: '3', alignItems: 'flex-end', flexWrap: 'wrap' })}
        onSubmit={(event) => {
          event.preventDefault();
          if (!userId) return setError(SELECT_MEMBER_MESSAGE);
          setError(null);
          fetcher.submit({ intent: 'ADD_HEPIC_USER', 'users[0][user_id]': userId, 'users[0][group]': group }, { method: 'post', action: `/${projectSlug}/stack/hepic` });
        }}
      >
        <Field label="Member" errorText={error ?? serverError ?? undefined}>
          <NativeSelect value={userId} onChange={(e) => setUserId(e.target.value)}>
            <option value="">Select a member…</option>
            {(candidates ?? []).map((c) => (
              <option key={c.userId} value={c.userId}>
                {c.name} ({c.email})
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label="Role">
          <NativeSelect value={group} onChange={(e) => setGroup(e.target.value as HepicGroup)}>
            {HEPIC_GROUPS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Button type="submit" loading={fetcher.state !== 'idle'}>
          Add to HEPIC
        </Button>
      </form>
    </Card>
  );
}

/** Optimistic: the switch moves at once and goes back if the server refuses (spec §4). */
function AutoAddSwitch({ projectId, enabled }: { projectId: number; enabled: boolean }) {
  const { projectSlug } = useParams();
  const fetcher = useHepicIntent(projectId);
  const pending = fetcher.formData ? fetcher.formData.get('enabled') === 'true' : null;
  const failed = fetcher.state === 'idle' && fetcher.data && !fetcher.data.ok;
  const checked = pending ?? (fetcher.data?.ok && fetcher.data.enabled !== undefined ? fetcher.data.enabled : failed ? enabled : enabled);
  return (
    <Card title="Automatic adding">
      <Switch
        checked={checked}
        onCheckedChange={(next) => fetcher.submit({ intent: 'TOGGLE_HEPIC_AUTO_ADD_USERS', enabled: String(next) }, { method: 'post', action: `/${projectSlug}/stack/hepic` })}
      >
        {AUTO_ADD_LABEL}
      </Switch>
    </Card>
  );
}
