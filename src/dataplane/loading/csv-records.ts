/** The longest record a loading job reads (8 Mi characters, 16 MiB in memory). */
export const MAX_RECORD_CHARS = 8 * 1024 * 1024;

/**
 * A streaming reader of delimited text as TigerGraph's loader reads it: one separator
 * character, one end-of-line character (a `\r` before a `\n` end is dropped, for files written
 * on Windows), and, only when the job names a quote character, quoted fields in which the
 * separator and the line end are plain text and a doubled quote is one quote.
 *
 * Text is fed in chunks and complete records come back from each feed, so a file is read in
 * bounded memory: what is kept between feeds is the one record not yet ended, and a record
 * that outgrows `maxRecordChars` (a quote never closed, a file without line ends) is dropped
 * and counted in `oversize`, the text up to the next line end with it. Each character is
 * looked at once.
 */
export class CsvRecords {
  /** Records dropped for being longer than maxRecordChars. */
  oversize = 0;
  private field = '';
  private fields: string[] = [];
  /** The characters of `fields`, so that a record's size is known without adding them up. */
  private fieldsChars = 0;
  /** Dropping an oversize record's rest: everything up to the next line end, quoted or not. */
  private skipping = false;
  private inQuotes = false;
  /** A quote seen inside a quoted field: either its end or the first of a doubled quote. */
  private quotePending = false;
  /**
   * Whether the current record has a separator or an opened quote, which make it a record even
   * with no other character; a line whose only text is the `\r` of a CRLF end is blank, no record.
   */
  private started = false;

  constructor(
    /** Undefined: a line is one field (a JSON line). */
    private readonly separator: string | undefined,
    private readonly eol: string,
    private readonly quote: string | undefined,
    private readonly maxRecordChars = MAX_RECORD_CHARS,
  ) {}

  /** The records that end in `text` (after what earlier feeds left open). */
  feed(text: string): string[][] {
    const out: string[][] = [];
    const { separator, eol, quote } = this;
    let from = 0;
    if (this.skipping) {
      const end = text.indexOf(eol);
      if (end < 0) return out;
      this.skipping = false;
      from = end + 1;
    }
    let runStart = from;
    const n = text.length;
    for (let i = from; i < n; i++) {
      const ch = text[i]!;
      if (this.inQuotes) {
        if (this.quotePending) {
          this.quotePending = false;
          if (ch === quote) {
            // A doubled quote is one quote of the field.
            this.field += ch;
            runStart = i + 1;
            continue;
          }
          // The quote before this character closed the quoted part; go on unquoted.
          this.inQuotes = false;
        } else {
          if (ch === quote) {
            // Kept out of the field until the next character says what it is.
            this.field += text.slice(runStart, i);
            runStart = i + 1;
            this.quotePending = true;
          }
          continue;
        }
      }
      if (ch === separator) {
        const field = this.field + text.slice(runStart, i);
        this.fields.push(field);
        this.fieldsChars += field.length;
        this.field = '';
        this.started = true;
        runStart = i + 1;
      } else if (ch === eol) {
        let last = this.field + text.slice(runStart, i);
        if (eol === '\n' && last.endsWith('\r')) last = last.slice(0, -1);
        if (this.started || last.length > 0) {
          this.fields.push(last);
          out.push(this.fields);
        }
        this.fields = [];
        this.fieldsChars = 0;
        this.field = '';
        this.started = false;
        runStart = i + 1;
      } else if (ch === quote && i === runStart && this.field.length === 0) {
        // A quote opens a quoted part only at the start of a field; elsewhere it is plain text.
        this.inQuotes = true;
        this.started = true;
        runStart = i + 1;
      }
      // Other characters need nothing here: they are in the field's text, sliced at its end.
    }
    this.field += text.slice(runStart, n);
    // Checked once per feed: a record grows past the bound by at most one chunk.
    if (this.fieldsChars + this.field.length > this.maxRecordChars) {
      this.oversize++;
      this.reset();
      this.skipping = true;
    }
    return out;
  }

  /** The last record, when the text does not end with the line end. */
  finish(): string[][] {
    const last = this.field;
    const open = this.started || last.length > 0 || this.fields.length > 0;
    const fields = this.fields;
    this.reset();
    this.skipping = false;
    return open ? [[...fields, last]] : [];
  }

  private reset(): void {
    this.field = '';
    this.fields = [];
    this.fieldsChars = 0;
    this.inQuotes = false;
    this.quotePending = false;
    this.started = false;
  }
}
