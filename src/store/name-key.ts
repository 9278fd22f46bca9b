/**
 * The case-insensitive uniqueness key of a resource name (the `name_key` columns): lower
 * case, NFC. At most twice the name's length (only `İ` lowers to two code points), so it fits
 * its text column on both stores, which compare it byte for byte. The store's own: every
 * repository that writes or looks up a name derives the key here (the rule for names
 * themselves is src/domain/names.ts).
 */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase().normalize('NFC');
}
