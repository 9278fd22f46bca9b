import { useEffect, useState } from 'react';
import { isReachable, onReachable } from './api/connectivity.js';
import type { LiveMode } from './live/feed.js';
import { AddonsPage } from './pages/addons.js';
import { AllowListPage } from './pages/allow-list.js';
import { ApiKeysPage } from './pages/api-keys.js';
import { BillingPage } from './pages/billing.js';
import { CloudProvidersPage } from './pages/cloud-providers.js';
import { OrganisationPage } from './pages/organisation.js';
import { SignInPage } from './pages/sign-in.js';
import { WorkgroupPage } from './pages/workgroup.js';
import { WorkgroupsPage } from './pages/workgroups.js';
import { WorkspacePage } from './pages/workspace.js';
import { Link, match, navigate, usePath } from './router.js';
import { useSession, useSessionState } from './session.js';
import { Empty, PageHeader } from './ui/page.js';

const nav = [
  { to: '/workgroups', label: 'Workgroups' },
  { to: '/addons', label: 'Add-ons' },
  { to: '/cloud-providers', label: 'Cloud providers' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/billing', label: 'Billing' },
  { to: '/organisation', label: 'Organisation' },
];

function Page({ path }: { path: string }) {
  let p: Record<string, string> | undefined;
  if (path === '/' || path === '/workgroups') return <WorkgroupsPage />;
  if ((p = match('/workgroups/:wg', path))) return <WorkgroupPage wg={p.wg!} />;
  if ((p = match('/workgroups/:wg/allow-list', path))) return <AllowListPage wg={p.wg!} />;
  if ((p = match('/workgroups/:wg/workspaces/:ws', path))) return <WorkspacePage wg={p.wg!} ws={p.ws!} />;
  if ((p = match('/workgroups/:wg/workspaces/:ws/graph', path)))
    return <WorkspacePage wg={p.wg!} ws={p.ws!} tab="graph" />;
  if (path === '/addons') return <AddonsPage />;
  if (path === '/cloud-providers') return <CloudProvidersPage />;
  if (path === '/api-keys') return <ApiKeysPage />;
  if (path === '/billing') return <BillingPage />;
  if (path === '/organisation') return <OrganisationPage />;
  return (
    <>
      <PageHeader title="Page not found" />
      <Empty>
        Nothing lives at this address. <Link to="/workgroups">Go to the workgroups</Link>.
      </Empty>
    </>
  );
}

/** Whether the server answers, kept current. */
function useReachable(): boolean {
  const [reachable, setReachable] = useState(isReachable);
  useEffect(() => {
    setReachable(isReachable());
    return onReachable(setReachable);
  }, []);
  return reachable;
}

function LiveIndicator() {
  const { feed } = useSession();
  const reachable = useReachable();
  const [mode, setMode] = useState<LiveMode>(feed.mode);
  useEffect(() => {
    setMode(feed.mode);
    return feed.onMode(setMode);
  }, [feed]);
  // Without a server the polls find nothing either: say so rather than promise updates.
  const text = !reachable
    ? 'Offline'
    : mode === 'stream'
      ? 'Live'
      : mode === 'polling'
        ? 'Updating every 3 s'
        : 'Connecting…';
  return (
    <span
      className={`live live-${reachable ? mode : 'offline'}`}
      title="How this page learns about changes"
      data-testid="live-mode"
    >
      {text}
    </span>
  );
}

/**
 * While the server cannot be reached: says so, keeps the pages as they were (their data may
 * be stale), and retries by itself (every page polls, the stream reconnects) or on request.
 */
function OfflineBanner() {
  const { feed } = useSession();
  if (useReachable()) return null;
  return (
    <div className="banner banner-offline" role="status" data-testid="offline-banner">
      <p>
        <strong>Offline: Acacia cannot be reached.</strong> Showing the last data the console had; reconnecting…
      </p>
      <button type="button" onClick={() => feed.retryNow()}>
        Retry now
      </button>
    </div>
  );
}

function Shell({ path }: { path: string }) {
  const session = useSession();
  const section = '/' + (path.split('/')[1] ?? '');
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/workgroups" className="brand">
          Acacia
        </Link>
        <nav aria-label="Main" className="mainnav">
          <ul>
            {nav.map((n) => (
              <li key={n.to}>
                <Link
                  to={n.to}
                  aria-current={section === n.to || (n.to === '/workgroups' && section === '/') ? 'page' : undefined}
                >
                  {n.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="whoami">
          <LiveIndicator />
          <span className="keyname" title={`Signed in with the key ${session.key.key_name}`}>
            {session.key.key_name} <span className="role">{session.key.role}</span>
          </span>
          <button type="button" onClick={() => session.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <OfflineBanner />
        <Page path={path} />
      </main>
    </>
  );
}

export function App() {
  const { session, restoring } = useSessionState();
  const path = usePath();
  useEffect(() => {
    if (path === '/') navigate('/workgroups', { replace: true });
  }, [path]);
  if (restoring && !session)
    return (
      <main id="main" className="center">
        <p role="status">Signing in…</p>
      </main>
    );
  if (!session) return <SignInPage />;
  return <Shell path={path} />;
}
