// Sign-in state: the API token lives in sessionStorage (this browser tab's session only) and
// every request carries it. A token the API refuses signs the tab out with a message.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createHooklineClient, LiveConnection, type LiveSnapshot } from './client';

const TOKEN_KEY = 'hookline.apiToken';

interface Auth {
  token: string | null;
  /** Why the last session ended, when it was not the user's choice. */
  notice: string | null;
  signIn(token: string): void;
  signOut(notice?: string): void;
}

const AuthContext = createContext<Auth | null>(null);
const LiveContext = createContext<LiveConnection>(new LiveConnection());

/** The state of the live (WebSocket) connection. */
export function useLive(): LiveSnapshot {
  const live = useContext(LiveContext);
  return useSyncExternalStore(live.subscribe, live.get);
}

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

function storedToken(): string | null {
  try {
    return window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState<string | null>(storedToken);
  const [notice, setNotice] = useState<string | null>(null);

  // Once signed out, a later refusal (a request that was in flight) keeps the first reason.
  const signedIn = useRef(token !== null);
  const signOut = useCallback((message?: string) => {
    if (!signedIn.current) return;
    signedIn.current = false;
    window.sessionStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setNotice(message ?? null);
  }, []);

  const signIn = useCallback((next: string) => {
    signedIn.current = true;
    window.sessionStorage.setItem(TOKEN_KEY, next);
    setNotice(null);
    setToken(next);
  }, []);

  const hookline = useMemo(
    () => (token ? createHooklineClient(token, () => signOut('Your API token was refused. Sign in again with a valid token.')) : null),
    [token, signOut],
  );
  useEffect(() => () => hookline?.dispose(), [hookline]);

  const auth = useMemo(() => ({ token, notice, signIn, signOut }), [token, notice, signIn, signOut]);
  return (
    <AuthContext.Provider value={auth}>
      {hookline ? (
        <UrqlProvider value={hookline.client}>
          <LiveContext.Provider value={hookline.live}>{children}</LiveContext.Provider>
        </UrqlProvider>
      ) : (
        children
      )}
    </AuthContext.Provider>
  );
}
