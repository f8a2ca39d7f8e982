// The signed-in person's sessions (each browser signed in), the most recently used first, with
// this one marked; revoking one signs that browser out at its next request. Revoking this one
// signs this tab out.
import { useMutation, useQuery } from 'urql';
import { useAuth } from '../auth';
import { ConfirmButton, ErrorAlert, Loading, PageHeader, TableWrap } from '../components';
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

const SESSION_CONTEXT = { additionalTypenames: ['Session'] };

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
    </>
  );
}
