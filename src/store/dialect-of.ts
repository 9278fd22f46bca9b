export type DialectName = 'sqlite' | 'postgres';

const dialects = new WeakMap<object, DialectName>();

/** Records which store an executor (the database, or one transaction's connection) talks to. */
export function registerDialect(db: object, dialect: DialectName): void {
  dialects.set(db, dialect);
}

/**
 * The dialect of an executor the store handed out, so no caller has to pass one: the
 * capabilities (src/store/capabilities.ts) and the record views' JSON choose their SQL by it.
 */
export function dialectOf(db: object): DialectName {
  const dialect = dialects.get(db);
  if (!dialect) throw new Error('an executor that the store did not hand out');
  return dialect;
}
