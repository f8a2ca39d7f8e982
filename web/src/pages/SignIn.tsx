// Signing in with an email and a password, and the two links that make a person: the first
// owner's set-up link (/setup?token=…, printed by the first `npm start`) and an invite
// (/invite?token=…). Each posts to /api/auth/…, whose answer sets the session cookie; the
// dashboard then reads who is signed in. Nothing is kept in the browser's storage.
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { useAuth } from '../auth';
import { FieldError } from '../components';

interface AuthAnswer {
  ok: boolean;
  message: string | null;
}

/** Posts to an /api/auth route; a refusal's message in the server's words. */
async function postAuth(path: string, body: Record<string, string>): Promise<AuthAnswer> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    return { ok: false, message: 'Hookline is not answering. Try again in a moment.' };
  }
  if (response.ok) return { ok: true, message: null };
  const answer = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  if (answer?.error?.code === 'invalid_credentials' && path === '/api/auth/sign-in')
    return { ok: false, message: 'That email and password do not match an account.' };
  return { ok: false, message: answer?.error?.message ?? `Refused (HTTP ${response.status}).` };
}

/** Where single sign-on starts, when the server has it configured (GET /api/auth/methods); null otherwise. */
function useSingleSignOnStart(): string | null {
  const [startUrl, setStartUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    fetch('/api/auth/methods', { credentials: 'same-origin' })
      .then((response) => (response.ok ? (response.json() as Promise<{ oidc: { startUrl: string } | null }>) : null))
      .then((methods) => current && setStartUrl(methods?.oidc?.startUrl ?? null))
      // Without an answer, the password form is still there.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return startUrl;
}

function Frame({ title, notice, children }: { title: string; notice?: string | null; children: ReactNode }) {
  return (
    <main id="main" className="signin">
      <div className="signin-card">
        <h1 id="signin-title">{title}</h1>
        {notice && (
          <p className="notice" role="status">
            {notice}
          </p>
        )}
        {children}
      </div>
    </main>
  );
}

export function SignInPage() {
  const { signedIn, notice } = useAuth();
  const id = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const singleSignOnStart = useSingleSignOnStart();
  // The provider sends the browser back to the page the visitor was going to (a same-origin path).
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your email and your password.');
      return;
    }
    setBusy(true);
    setError(null);
    const answer = await postAuth('/api/auth/sign-in', { email: email.trim(), password });
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    // Signed in, the app's /signin route sends the visitor where they were going.
    signedIn();
  };

  return (
    <Frame title="Sign in to Hookline" notice={notice}>
      <form onSubmit={submit} noValidate aria-labelledby="signin-title">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <FieldError id={`${id}-error`} message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {singleSignOnStart && (
          <a className="button" href={`${singleSignOnStart}?returnTo=${encodeURIComponent(from)}`}>
            Sign in with single sign-on
          </a>
        )}
        <p className="help">
          No account yet? The first <code>npm start</code> prints a set-up link for the first owner; owners invite everyone else from the
          Members page. Scripts and CI use API tokens instead.
        </p>
      </form>
    </Frame>
  );
}

/** The set-up link's page (first owner) or an invite's: a name, an email (set-up only) and a password. */
export function JoinPage({ kind }: { kind: 'setup' | 'invite' }) {
  const { signedIn } = useAuth();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const id = useId();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((kind === 'setup' && !email.trim()) || !name.trim() || !password) {
      setError(kind === 'setup' ? 'Enter your email, your name and a password.' : 'Enter your name and a password.');
      return;
    }
    setBusy(true);
    setError(null);
    const answer =
      kind === 'setup'
        ? await postAuth('/api/auth/setup', { token, email: email.trim(), name: name.trim(), password })
        : await postAuth('/api/auth/invites/accept', { token, name: name.trim(), password });
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    signedIn();
  };

  if (!token)
    return (
      <Frame title="This link is incomplete">
        <p>The address has no token: copy the whole link you were given.</p>
      </Frame>
    );
  return (
    <Frame title={kind === 'setup' ? 'Set up Hookline' : 'Join your team on Hookline'}>
      <form onSubmit={submit} noValidate aria-labelledby="signin-title">
        <p className="help">
          {kind === 'setup'
            ? 'You become the owner of the organization. If this email has an account already, enter its password.'
            : 'Choose your name and password. If you have an account already, enter its password.'}
        </p>
        {kind === 'setup' && (
          <>
            <label htmlFor={`${id}-email`}>Email</label>
            <input id={`${id}-email`} type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
          </>
        )}
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor={`${id}-password`}>Password</label>
        <input
          id={`${id}-password`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <FieldError id={`${id}-error`} message={error} />
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Signing in…' : kind === 'setup' ? 'Set up and sign in' : 'Join and sign in'}
        </button>
      </form>
    </Frame>
  );
}
