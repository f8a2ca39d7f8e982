// Sign-in state. The server's session cookie (HttpOnly: no script can read it) signs in every
// request of this origin, so the dashboard holds no token: a deep link opened in a new tab is
// signed in as this one. Who is signed in, and with which role, is `me`, read at start and after
// a sign-in. A request refused as unauthenticated (a revoked or expired session), or the live
// connection closed with 4401, signs the tab out with a message. Switching to another of the
// person's organizations starts a new client too, so every page reads the new organization's data.
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createHooklineClient, LiveConnection, type LiveSnapshot } from './client';
import { errorMessage } from './errors';
import { graphql } from './gql';
import type { MeQuery, Role } from './gql/graphql';

const ME = graphql(`
  query Me {
    me { role person { id email name } organization { id name } organizations { organizationId name role } }
  }
`);

export type Me = MeQuery['me'];

interface Auth {
  /** null while signed out; undefined while the first check runs. */
  me: Me | null | undefined;
  /** Why the last session ended, when it was not the person's choice. */
  notice: string | null;
  /** After the server set the session cookie (sign-in, set-up, invite): reads who is signed in. */
  signedIn(): void;
  /** Ends this browser's session on the server; `everywhere`: every session of the person. */
  signOut(options?: { everywhere?: boolean }): Promise<void>;
  /** Makes this session act for another of the person's organizations; resolves to an error message, or null once switched. */
  switchOrganization(id: string): Promise<string | null>;
}

const AuthContext = createContext<Auth | null>(null);
const LiveContext = createContext<LiveConnection>(new LiveConnection());

/** Roles in order: each may do all that the ones before it may. */
const ROLES: Role[] = ['VIEWER', 'MEMBER', 'ADMIN', 'OWNER'];

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

/**
 * Whether the signed-in caller's role is at least `role` (the server decides; this only hides
 * what it would refuse).
 */
export function useCan(role: Role): boolean {
  const { me } = useAuth();
  return !!me && ROLES.indexOf(me.role) >= ROLES.indexOf(role);
}

const REFUSED = 'Your session ended (signed out elsewhere, revoked, or expired). Sign in again.';

export function AuthProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  // A new client for each signed-in session: nothing cached or subscribed crosses sessions.
  const [generation, setGeneration] = useState(0);
  // Once signed out, a later refusal (a request that was in flight) keeps the first reason.
  const signedInRef = useRef(false);
  const refused = useCallback(() => {
    if (!signedInRef.current) return;
    signedInRef.current = false;
    setMe(null);
    setNotice(REFUSED);
  }, []);

  // A refusal that arrives after the client was replaced (signed out, or signed in again)
  // concerns a session that is over.
  const currentGeneration = useRef(generation);
  currentGeneration.current = generation;
  const hookline = useMemo(
    () =>
      createHooklineClient(() => {
        if (currentGeneration.current === generation) refused();
      }),
    [generation, refused],
  );
  useEffect(() => () => hookline.dispose(), [hookline]);

  // Who is signed in, read by each new client: at start, and after a sign-in (not after a sign-out).
  const readOnNewClient = useRef(true);
  useEffect(() => {
    if (!readOnNewClient.current) return;
    readOnNewClient.current = false;
    void hookline.client
      .query(ME, {}, { requestPolicy: 'network-only' })
      .toPromise()
      .then((result) => {
        // No answer: not signed in (401), or the server not answering; the sign-in page tells which when used.
        signedInRef.current = !!result.data;
        setMe(result.data?.me ?? null);
      });
  }, [hookline]);

  const signedIn = useCallback(() => {
    setNotice(null);
    readOnNewClient.current = true;
    setGeneration((count) => count + 1);
  }, []);

  const signOut = useCallback(
    async ({ everywhere = false }: { everywhere?: boolean } = {}) => {
      signedInRef.current = false;
      if (everywhere) await hookline.client.mutation(SIGN_OUT_EVERYWHERE, {}).toPromise();
      else await fetch('/api/auth/sign-out', { method: 'POST', credentials: 'same-origin' });
      setNotice(null);
      setMe(null);
      setGeneration((count) => count + 1);
    },
    [hookline],
  );

  const switchOrganization = useCallback(
    async (id: string) => {
      const result = await hookline.client.mutation(SWITCH_ORGANIZATION, { id }).toPromise();
      if (!result.data) return errorMessage(result.error) ?? 'Could not switch organizations.';
      // Nothing read for the former organization is kept: a new client reads all again.
      signedIn();
      return null;
    },
    [hookline, signedIn],
  );

  const auth = useMemo(() => ({ me, notice, signedIn, signOut, switchOrganization }), [me, notice, signedIn, signOut, switchOrganization]);
  return (
    <AuthContext.Provider value={auth}>
      <UrqlProvider value={hookline.client}>
        <LiveContext.Provider value={hookline.live}>{children}</LiveContext.Provider>
      </UrqlProvider>
    </AuthContext.Provider>
  );
}

const SWITCH_ORGANIZATION = graphql(`
  mutation SwitchOrganization($id: ID!) {
    switchOrganization(id: $id) { role organization { id } }
  }
`);

const SIGN_OUT_EVERYWHERE = graphql(`
  mutation SignOutEverywhere {
    revokeAllSessions
  }
`);
