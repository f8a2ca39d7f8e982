// The dashboard's frame: sign-in gate, navigation, and one route per page.
import { useEffect, useRef, useState } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation, useNavigate } from 'react-router';
import { AuthProvider, useAuth, useCan } from './auth';
import { ErrorAlert, Loading } from './components';
import { JoinPage, SignInPage } from './pages/SignIn';
import { SessionsPage } from './pages/Sessions';
import { MembersPage } from './pages/Members';
import { OnCallPage } from './pages/OnCall';
import { ServicesPage } from './pages/Services';
import { ServicePage } from './pages/Service';
import { DeploysPage } from './pages/Deploys';
import { DeployPage } from './pages/Deploy';
import { WebhooksPage } from './pages/Webhooks';
import { EndpointPage } from './pages/Endpoint';
import { IncidentsPage } from './pages/Incidents';
import { IncidentPage } from './pages/Incident';
import { DoraPage } from './pages/Dora';
import { EnvironmentsPage } from './pages/Environments';
import { ApiTokensPage } from './pages/ApiTokens';
import { AuditLogPage } from './pages/AuditLog';
import { AlertSourcesPage } from './pages/AlertSources';
import { DeliveriesPage } from './pages/Deliveries';
import { DeliveryPage } from './pages/Delivery';
import { EventPage, EventsPage } from './pages/Events';

export function App() {
  return (
    <AuthProvider>
      <Gate />
    </AuthProvider>
  );
}

/** Paths a person opens before having an account: the set-up link and invites. */
const JOIN_PATHS: Record<string, 'setup' | 'invite'> = { '/setup': 'setup', '/invite': 'invite' };

function Gate() {
  const { me } = useAuth();
  const location = useLocation();
  const join = JOIN_PATHS[location.pathname];
  if (me === undefined) return <Loading what="Signing in" />;
  if (!me) {
    if (join) return <JoinPage kind={join} />;
    if (location.pathname !== '/signin') return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />;
    return <SignInPage />;
  }
  if (join) return <Navigate to="/" replace />;
  return <Shell />;
}

function Shell() {
  const { me, signOut } = useAuth();
  const owner = useCan('OWNER');
  const location = useLocation();
  const main = useRef<HTMLElement>(null);
  // After a client-side navigation, move focus to the page (as a full page load would).
  const shownPath = useRef(location.pathname);
  useEffect(() => {
    if (shownPath.current === location.pathname) return;
    shownPath.current = location.pathname;
    main.current?.focus();
  }, [location.pathname]);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <NavLink to="/" className="brand">
          Hookline
        </NavLink>
        <nav aria-label="Main">
          <ul>
            <li>
              <NavLink to="/" end>
                On call
              </NavLink>
            </li>
            <li>
              <NavLink to="/services">Services</NavLink>
            </li>
            <li>
              <NavLink to="/deploys">Deploys</NavLink>
            </li>
            <li>
              <NavLink to="/incidents">Incidents</NavLink>
            </li>
            <li>
              <NavLink to="/dora">DORA</NavLink>
            </li>
            <li>
              <NavLink to="/webhooks">Integrations › Webhooks</NavLink>
            </li>
            <li>
              <NavLink to="/alert-sources">Alert sources</NavLink>
            </li>
            <li>
              <NavLink to="/deliveries">Deliveries</NavLink>
            </li>
            <li>
              <NavLink to="/events">Events</NavLink>
            </li>
            <li>
              <NavLink to="/api-tokens">API tokens</NavLink>
            </li>
            <li>
              <NavLink to="/audit-log">Audit log</NavLink>
            </li>
          </ul>
        </nav>
        <div className="account">
          <OrganizationSwitch />
          <details className="account-menu">
            <summary>{me!.person?.name ?? 'API token'}</summary>
            <ul>
              <li className="subtle">
                {me!.person?.email} · {me!.role}
              </li>
              <li>
                <NavLink to="/sessions">Sessions</NavLink>
              </li>
              {owner && (
                <li>
                  <NavLink to="/members">Members</NavLink>
                </li>
              )}
              <li>
                <button type="button" onClick={() => void signOut({ everywhere: true })}>
                  Sign out everywhere
                </button>
              </li>
            </ul>
          </details>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Routes>
          <Route path="/" element={<OnCallPage />} />
          <Route path="/signin" element={<AfterSignIn />} />
          <Route path="/services" element={<ServicesPage />} />
          <Route path="/services/:id" element={<ServicePage />} />
          <Route path="/deploys" element={<DeploysPage />} />
          <Route path="/deploys/:id" element={<DeployPage />} />
          <Route path="/incidents" element={<IncidentsPage />} />
          <Route path="/incidents/:id" element={<IncidentPage />} />
          <Route path="/dora" element={<DoraPage />} />
          <Route path="/environments" element={<EnvironmentsPage />} />
          <Route path="/webhooks" element={<WebhooksPage />} />
          <Route path="/webhooks/:id" element={<EndpointPage />} />
          <Route path="/alert-sources" element={<AlertSourcesPage />} />
          <Route path="/deliveries" element={<DeliveriesPage />} />
          <Route path="/deliveries/:id" element={<DeliveryPage />} />
          <Route path="/events" element={<EventsPage />} />
          <Route path="/events/:id" element={<EventPage />} />
          <Route path="/api-tokens" element={<ApiTokensPage />} />
          <Route path="/sessions" element={<SessionsPage />} />
          {owner && <Route path="/members" element={<MembersPage />} />}
          <Route path="/audit-log" element={<AuditLogPage />} />
          <Route path="*" element={<NotFound />} />
        </Routes>
      </main>
    </div>
  );
}

/**
 * The organization acted for, with the caller's role there; for a person in several, a menu of
 * them all to switch to. After a switch, a page of one object of the former organization (an
 * endpoint, an incident) gives way to its list.
 */
function OrganizationSwitch() {
  const { me, switchOrganization } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [error, setError] = useState<string | null>(null);
  const current = me!.organization;
  const label = `${current.name} · ${me!.role}`;
  if (me!.organizations.length < 2) {
    return (
      <span className="org" title={`Organization ${current.id}, as ${me!.role}`}>
        {label}
      </span>
    );
  }
  const choose = async (id: string) => {
    setError(null);
    const failure = await switchOrganization(id);
    if (failure) setError(failure);
    else navigate(`/${location.pathname.split('/')[1] ?? ''}`);
  };
  return (
    <details className="org-menu">
      <summary aria-label={`Organization: ${label}. Switch organization`}>{label}</summary>
      <ul aria-label="Your organizations">
        {me!.organizations.map((organization) => (
          <li key={organization.organizationId}>
            <button
              type="button"
              aria-current={organization.organizationId === current.id ? 'true' : undefined}
              disabled={organization.organizationId === current.id}
              onClick={() => void choose(organization.organizationId)}
            >
              {organization.name} <span className="subtle">{organization.role}</span>
            </button>
          </li>
        ))}
      </ul>
      {error && <ErrorAlert>{error}</ErrorAlert>}
    </details>
  );
}

/** Where a visitor who had to sign in was going (kept in the /signin location's state). */
function AfterSignIn() {
  const { state } = useLocation();
  const from = (state as { from?: string } | null)?.from;
  return <Navigate to={from && !from.startsWith('/signin') ? from : '/'} replace />;
}

function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. Go to <NavLink to="/">On call</NavLink>.
      </p>
    </>
  );
}
