// The signed-in person's sessions (each browser signed in), the most recently used first, with
// this one marked; revoking one signs that browser out at its next request. Revoking this one
// signs this tab out. Changing one's password (the current one asked) signs every other browser out.
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { useAuth } from '../auth';
import { ConfirmButton, ErrorAlert, FieldError, Loading, PageHeader, TableWrap } from '../components';
import { formErrors } from '../errors';
import { formatDateTime, timeAgo } from '../format';
import { graphql } from '../gql';

const SESSIONS = graphql(`
  query Sessions {
    sessions { id current createdAt lastSeenAt expiresAt absoluteExpiresAt ip userAgent }
  }
`);

const REVOKE_SESSION = graphql(`
  mutation RevokeSession($id: ID!) {
    revokeSession(id: $id) { id }
  }
`);

const CHANGE_PASSWORD = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)
  }
`);

const SESSION_CONTEXT = { additionalTypenames: ['Session'] };
const PASSWORD_MIN_LENGTH = 12;

export function SessionsPage() {
  const { signOut } = useAuth();
  const [{ data, fetching, error }] = useQuery({ query: SESSIONS, context: SESSION_CONTEXT });
  const [revoked, revoke] = useMutation(REVOKE_SESSION);
  const sessions = data?.sessions ?? [];
  return (
    <>
      <PageHeader title="Sessions">
        <ConfirmButton
          label="Sign out everywhere…"
          title="Sign out everywhere?"
          confirmLabel="Sign out everywhere"
          danger
          onConfirm={() => signOut({ everywhere: true })}
        >
          <p>Every browser signed in as you is signed out, this one included.</p>
        </ConfirmButton>
      </PageHeader>
      <p className="help">Each browser where you signed in. Revoke one you do not recognise: it is signed out at its next request.</p>
      {error && <ErrorAlert error={error} />}
      {revoked.error && <ErrorAlert error={revoked.error} />}
      {!data && fetching && <Loading what="Loading sessions" />}
      {sessions.length > 0 && (
        <TableWrap label="Sessions">
          <thead>
            <tr>
              <th scope="col">Browser</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">Ends</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((session) => (
              <tr key={session.id} data-session-id={session.id}>
                <td>
                  {session.userAgent ?? 'unknown'} {session.current && <span className="tag">this browser</span>}
                </td>
                <td className="mono">{session.ip ?? '—'}</td>
                <td>{formatDateTime(session.createdAt)}</td>
                <td>{timeAgo(session.lastSeenAt)}</td>
                <td>{formatDateTime(session.expiresAt)}</td>
                <td>
                  <ConfirmButton
                    label="Revoke"
                    title="Revoke this session?"
                    confirmLabel="Revoke"
                    danger
                    onConfirm={async () => {
                      const result = await revoke({ id: session.id }, SESSION_CONTEXT);
                      if (result.data && session.current) await signOut();
                    }}
                  >
                    <p>
                      {session.current
                        ? 'This is this browser: it is signed out at once.'
                        : 'That browser is signed out at its next request.'}
                    </p>
                  </ConfirmButton>
                </td>
              </tr>
            ))}
          </tbody>
        </TableWrap>
      )}
      <ChangePasswordForm />
    </>
  );
}

function ChangePasswordForm() {
  const id = useId();
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const [ended, setEnded] = useState<number | null>(null);
  const [{ fetching, error }, changePassword] = useMutation(CHANGE_PASSWORD);
  const api = formErrors(error, ['currentPassword', 'newPassword']);
  const newError = localError ?? api.fields.newPassword;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setEnded(null);
    if (newPassword.length < PASSWORD_MIN_LENGTH) {
      setLocalError(`Must be at least ${PASSWORD_MIN_LENGTH} characters.`);
      return;
    }
    setLocalError(null);
    const result = await changePassword({ currentPassword, newPassword }, SESSION_CONTEXT);
    if (result.data) {
      setCurrentPassword('');
      setNewPassword('');
      setEnded(result.data.changePassword);
    }
  };
  return (
    <form className="card form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Change your password</h2>
      <p className="help">Every other browser signed in as you is signed out; this one stays signed in.</p>
      <div className="field">
        <label htmlFor={`${id}-current`}>Current password</label>
        <input
          id={`${id}-current`}
          type="password"
          autoComplete="current-password"
          value={currentPassword}
          onChange={(e) => setCurrentPassword(e.target.value)}
          aria-invalid={api.fields.currentPassword ? true : undefined}
          aria-describedby={api.fields.currentPassword ? `${id}-current-error` : undefined}
        />
        <FieldError id={`${id}-current-error`} message={api.fields.currentPassword} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-new`}>New password</label>
        <input
          id={`${id}-new`}
          type="password"
          autoComplete="new-password"
          value={newPassword}
          onChange={(e) => setNewPassword(e.target.value)}
          aria-invalid={newError ? true : undefined}
          aria-describedby={`${id}-new-help${newError ? ` ${id}-new-error` : ''}`}
        />
        <p className="help" id={`${id}-new-help`}>
          At least {PASSWORD_MIN_LENGTH} characters; a few words you will remember are good.
        </p>
        <FieldError id={`${id}-new-error`} message={newError} />
      </div>
      {api.general && <ErrorAlert>{api.general}</ErrorAlert>}
      <div className="button-row">
        <button type="submit" className="primary" disabled={fetching}>
          {fetching ? 'Changing…' : 'Change password'}
        </button>
      </div>
      {ended !== null && (
        <p className="success" role="status">
          Password changed. {ended === 1 ? '1 other session was' : `${ended} other sessions were`} signed out.
        </p>
      )}
    </form>
  );
}
