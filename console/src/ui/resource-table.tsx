import type { ReactNode } from 'react';
import type { ApiError } from '../api/http.js';
import { Link } from '../router.js';
import { Empty, LoadState, RowActions, Section } from './page.js';

/** One column of a ResourceTable: its heading, and what a row shows under it. */
export interface Column<T> {
  /** The heading; at phone width, where rows stack, also each cell's label (`data-label`). */
  label: string;
  cell(row: T): ReactNode;
  className?: string;
  /** A test id for the row's cell, for tests that follow one resource's cell as it changes. */
  testId?(row: T): string;
}

/** The column of a resource's name, in bold, linking to the resource's own page. */
export function nameColumn<T extends { name?: string | undefined }>(page: (row: T) => string): Column<T> {
  return {
    label: 'Name',
    cell: (row) => (
      <Link to={page(row)} className="strong">
        {row.name}
      </Link>
    ),
  };
}

/** A cell's second line, smaller, under the first (a description, an error); nothing when empty. */
export function Note({ children, error }: { children: ReactNode; error?: boolean }) {
  return children ? <div className={error ? 'error-text small' : 'muted small'}>{children}</div> : null;
}

/**
 * What a table of one kind of resource is, declared once beside its page: a row's key, the
 * columns, the text for none, and the order when not the API's.
 */
export interface TableOf<T> {
  /** A row's React key: the resource's id. */
  key(row: T): string;
  empty: ReactNode;
  sort?(a: T, b: T): number;
  columns: ReadonlyArray<Column<T>>;
}

/**
 * A loaded list of resources as the table `of` declares: "Loading…" until its data is there
 * (or the load's error), then the empty text for none, or one row each. `actions`, when given,
 * adds a last column (headed "Actions" for screen readers only) of each row's buttons, kept
 * even where a row has none so that the columns line up; with `canEdit` false (a viewer's),
 * the column stays and every row's cell is empty. `title` puts the table in a Section of that
 * title, with `add` (the button that makes one) in its heading where `canEdit`. `card` frames
 * the table as a card of its own, for a list that is not inside a Section; its empty text
 * stays outside the frame.
 */
export function ResourceTable<T>({
  of,
  list,
  actions,
  canEdit = true,
  title,
  add,
  card,
  testId,
}: {
  of: TableOf<T>;
  /** A load (useLoad, useLiveLoad), or rows that came with another: data is undefined while loading. */
  list: { data: readonly T[] | undefined; error?: ApiError | undefined };
  actions?(row: T): ReactNode;
  /** Whether the viewer may use the actions (permissions.ts); true unless said. */
  canEdit?: boolean;
  title?: string;
  add?: ReactNode;
  card?: boolean;
  testId?: string;
}) {
  const rows = list.data && of.sort ? [...list.data].sort(of.sort) : list.data;
  const table = (
    <table className="table" data-testid={testId}>
      <thead>
        <tr>
          {of.columns.map((c) => (
            <th key={c.label} scope="col">
              {c.label}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {rows?.map((row) => (
          <tr key={of.key(row)}>
            {of.columns.map((c) => (
              <td key={c.label} data-label={c.label} className={c.className} data-testid={c.testId?.(row)}>
                {c.cell(row)}
              </td>
            ))}
            {actions ? <RowActions>{canEdit ? actions(row) : null}</RowActions> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
  const shown = (
    <LoadState error={list.error} loading={!rows}>
      {rows?.length === 0 ? <Empty>{of.empty}</Empty> : card ? <div className="card">{table}</div> : table}
    </LoadState>
  );
  return title === undefined ? (
    shown
  ) : (
    <Section title={title} actions={canEdit ? add : null}>
      {shown}
    </Section>
  );
}
