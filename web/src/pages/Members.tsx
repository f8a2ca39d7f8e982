// The organization's members (OWNERs only): invite someone by link (one use, 7 days), the invites
// not yet accepted (cancel one: its link is refused from then on), change a member's role, remove a
// member. The server keeps an owner: it refuses to demote or remove the last.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useAuth } from '../auth';
import { ConfirmButton, CopyField, Empty, ErrorAlert, FieldError, Loading, PageHeader, TableWrap } from '../components';
import { formErrors } from '../errors';
import { formatDateTime } from '../format';
import { graphql } from '../gql';
import type { Role } from '../gql/graphql';

const ROLES: Role[] = ['VIEWER', 'MEMBER', 'ADMIN', 'OWNER'];
const MEMBER_CONTEXT = { additionalTypenames: ['Member'] };
// An invite made, cancelled or accepted changes the pending list (empty, it names no type to watch).
const INVITE_CONTEXT = { additionalTypenames: ['Member', 'Invite'] };

const PENDING_INVITES = graphql(`
  query PendingInvites {
    pendingInvites { id email role createdAt expiresAt invitedBy { id name } }
  }
`);

const CANCEL_INVITE = graphql(`
  mutation CancelInvite($id: ID!) {
    cancelInvite(id: $id) { id }
  }
`);

const MEMBERS = graphql(`
  query Members {
    members(first: 100) {
      edges { node { id role joinedAt person { id email name } } }
      pageInfo { hasNextPage }
    }
  }
`);

const INVITE_MEMBER = graphql(`
  mutation InviteMember($email: String!, $role: Role!) {
    inviteMember(email: $email, role: $role) { inviteUrl expiresAt }
  }
`);

const CHANGE_MEMBER_ROLE = graphql(`
  mutation ChangeMemberRole($personId: ID!, $role: Role!) {
    changeMemberRole(personId: $personId, role: $role) { id role }
  }
`);

const REMOVE_MEMBER = graphql(`
  mutation RemoveMember($personId: ID!) {
    removeMember(personId: $personId)
  }
`);

export function MembersPage() {
  const { me } = useAuth();
  const [{ data, fetching, error }] = useQuery({ query: MEMBERS, context: MEMBER_CONTEXT });
  const [changed, changeRole] = useMutation(CHANGE_MEMBER_ROLE);
  const [removed, remove] = useMutation(REMOVE_MEMBER);
  const members = data?.members.edges.map((edge) => edge.node) ?? [];
  return (
    <>
      <PageHeader title="Members" />
      <InviteForm />
      <PendingInvites />
      <h2>Everyone in {me?.organization.name}</h2>
      {error && <ErrorAlert error={error} />}
      {changed.error && <ErrorAlert error={changed.error} />}
      {removed.error && <ErrorAlert error={removed.error} />}
      {!data && fetching && <Loading what="Loading members" />}
      {data && members.length === 0 && (
        <Empty>
          <p>No members yet.</p>
        </Empty>
      )}
      {members.length > 0 && (
        <TableWrap label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.id} data-person-id={member.person.id}>
                <td>{member.person.name}</td>
                <td>{member.person.email}</td>
                <td>
                  <select
                    aria-label={`Role of ${member.person.name}`}
                    value={member.role}
                    disabled={changed.fetching}
                    onChange={(e) => void changeRole({ personId: member.person.id, role: e.target.value as Role }, MEMBER_CONTEXT)}
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                </td>
                <td>{formatDateTime(member.joinedAt)}</td>
                <td>
                  <ConfirmButton
                    label="Remove"
                    title={`Remove ${member.person.name}?`}
                    confirmLabel="Remove"
                    danger
                    onConfirm={() => remove({ personId: member.person.id }, MEMBER_CONTEXT).then(() => undefined)}
                  >
                    <p>They lose access to this organization at once (their sessions here end); their account stays.</p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </>
  );
}

function InviteForm() {
  const id = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('MEMBER');
  const [{ data, fetching, error }, invite] = useMutation(INVITE_MEMBER);
  const api = formErrors(error, ['email', 'role']);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await invite({ email: email.trim(), role }, INVITE_CONTEXT);
    if (result.data) setEmail('');
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invite someone</h2>
      <div className="field-row">
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input id={`${id}-email`} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          <FieldError id={`${id}-email-error`} message={api.fields.email} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
      </div>
      {api.general && <ErrorAlert>{api.general}</ErrorAlert>}
      <div className="button-row">
        <button type="submit" className="primary" disabled={fetching}>
          {fetching ? 'Making…' : 'Make an invite link'}
        </button>
      </div>
      {data && (
        <div className="success" role="status">
          <CopyField label="Invite link (one use; send it to them)" value={data.inviteMember.inviteUrl} />
          <p className="help">Valid until {formatDateTime(data.inviteMember.expiresAt)}.</p>
        </div>
      )}
    </form>
  );
}

function PendingInvites() {
  const [{ data, error }] = useQuery({ query: PENDING_INVITES, context: INVITE_CONTEXT });
  const [cancelled, cancel] = useMutation(CANCEL_INVITE);
  const invites = data?.pendingInvites ?? [];
  if (!error && invites.length === 0) return null;
  return (
    <>
      <h2>Pending invites</h2>
      {error && <ErrorAlert error={error} />}
      {cancelled.error && <ErrorAlert error={cancelled.error} />}
      {invites.length > 0 && (
        <TableWrap label="Pending invites">
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Invited by</th>
              <th scope="col">Expires</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invites.map((invite) => (
              <tr key={invite.id} data-invite-id={invite.id}>
                <td>{invite.email}</td>
                <td>{invite.role}</td>
                <td>{invite.invitedBy?.name ?? <span className="subtle">unknown</span>}</td>
                <td>{formatDateTime(invite.expiresAt)}</td>
                <td>
                  <ConfirmButton
                    label="Cancel invite"
                    title={`Cancel the invite of ${invite.email}?`}
                    confirmLabel="Cancel invite"
                    danger
                    onConfirm={() => cancel({ id: invite.id }, INVITE_CONTEXT).then(() => undefined)}
                  >
                    <p>Its link stops working at once. You can invite them again later.</p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
    </>
  );
}
