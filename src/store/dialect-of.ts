export type DialectName = 'sqlite' | 'postgres';

const dialects = new WeakMap<object, DialectName>();

/** Records which store an executor (the database, or one transaction's connection) talks to. */
export function registerDialect(db: object, dialect: DialectName): void {
  dialects.set(db, dialect);
}

/**
 * The dialect of an executor the store handed out: repositories whose SQL differs by store
 * (JSON aggregation, row locks) choose it here rather than taking a dialect from the domain.
 */
export function dialectOf(db: object): DialectName {
  const dialect = dialects.get(db);
  if (!dialect) throw new Error('an executor that the store did not hand out');
  return dialect;
}
