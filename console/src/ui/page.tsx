import type { ReactNode } from 'react';
import type { ApiError } from '../api/http.js';
import { Link } from '../router.js';

export interface Crumb {
  label: string;
  to?: string;
}

export function PageHeader({
  title,
  crumbs,
  badge,
  actions,
  children,
}: {
  title: string;
  crumbs?: Crumb[];
  badge?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <header className="page-header">
      {crumbs?.length ? (
        <nav aria-label="Breadcrumb" className="crumbs">
          <ol>
            {crumbs.map((c) => (
              <li key={c.label}>{c.to ? <Link to={c.to}>{c.label}</Link> : c.label}</li>
            ))}
          </ol>
        </nav>
      ) : null}
      <div className="page-title">
        <h1>{title}</h1>
        {badge}
        {actions ? <div className="actions page-actions">{actions}</div> : null}
      </div>
      {children}
    </header>
  );
}

export function Section({
  title,
  actions,
  children,
  id,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <div className="card-head">
        <h2 id={headingId}>{title}</h2>
        {actions ? <div className="actions">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}

/** Loading, failed, or the content. */
export function LoadState({ error, loading, children }: { error?: ApiError; loading: boolean; children: ReactNode }) {
  if (error)
    return (
      <div className="banner banner-error" role="alert">
        <p>
          {error.details.map((d) => `${d.FieldName ? `${d.FieldName}: ` : ''}${d.Reason}`).join(' ') || error.message}
        </p>
      </div>
    );
  if (loading)
    return (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  return <>{children}</>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** The last cell of a table row: its buttons, side by side (wrapping at phone width). */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <td className="row-actions">
      <div className="row-actions-inner">{children}</div>
    </td>
  );
}
