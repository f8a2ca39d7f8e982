// Sign in with an organization API token (hla_...). It is checked against the API before it
// is kept, and kept only in this tab's sessionStorage.
import { useState, type FormEvent } from 'react';
import { Client, fetchExchange } from 'urql';
import { useAuth } from '../auth';
import { FieldError } from '../components';
import { errorMessage } from '../errors';
import { graphql } from '../gql';

const SIGN_IN_CHECK = graphql(`
  query SignInCheck {
    viewer { id name }
  }
`);

const TOKEN_FORMAT = /^hla_[0-9A-Za-z]{40}$/;

export function SignInPage() {
  const { signIn, notice } = useAuth();
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const candidate = token.trim();
    if (!TOKEN_FORMAT.test(candidate)) {
      setError('An API token is hla_ followed by 40 letters and digits.');
      return;
    }
    setBusy(true);
    setError(null);
    const probe = new Client({
      url: '/graphql',
      exchanges: [fetchExchange],
      fetchOptions: { headers: { authorization: `Bearer ${candidate}` } },
      requestPolicy: 'network-only',
    });
    const result = await probe.query(SIGN_IN_CHECK, {}).toPromise();
    setBusy(false);
    if (result.error || !result.data) {
      const unauthenticated =
        result.error?.response?.status === 401 || result.error?.graphQLErrors.some((e) => e.extensions?.code === 'UNAUTHENTICATED');
      setError(
        unauthenticated ? 'Hookline does not know this token (or it was revoked).' : (errorMessage(result.error) ?? 'Sign-in failed.'),
      );
      return;
    }
    // Signed in, the app's /signin route sends the visitor where they were going.
    signIn(candidate);
  };

  return (
    <main id="main" className="signin">
      <form onSubmit={submit} noValidate aria-labelledby="signin-title">
        <h1 id="signin-title">Sign in to Hookline</h1>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        <label htmlFor="api-token">API token</label>
        <input
          id="api-token"
          name="token"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="hla_…"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'api-token-error api-token-help' : 'api-token-help'}
          autoFocus
        />
        <FieldError id="api-token-error" message={error} />
        <p className="help" id="api-token-help">
          <code>npm start</code> prints one on an empty database; <code>hookline tokens create --org ID</code> makes more, and so does the
          API tokens page once you are signed in. The token is kept for this browser tab only (sessionStorage) and forgotten when you sign
          out or close the tab.
        </p>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
