/**
 * A streaming reader of delimited text as TigerGraph's loader reads it: one separator
 * character, one end-of-line character (a `\r` before a `\n` end is dropped, for files written
 * on Windows), and, only when the job names a quote character, quoted fields in which the
 * separator and the line end are plain text and a doubled quote is one quote.
 *
 * Text is fed in chunks and complete records come back from each feed, so a file is read in
 * bounded memory: what is kept between feeds is the one record not yet ended. Each character
 * is looked at once.
 */
export class CsvRecords {
  private field = '';
  private fields: string[] = [];
  private inQuotes = false;
  /** A quote seen inside a quoted field: either its end or the first of a doubled quote. */
  private quotePending = false;
  /** Whether the current record has any character yet: a blank line is no record. */
  private started = false;

  constructor(
    private readonly separator: string,
    private readonly eol: string,
    private readonly quote: string | undefined,
  ) {}

  /** The records that end in `text` (after what earlier feeds left open). */
  feed(text: string): string[][] {
    const out: string[][] = [];
    const { separator, eol, quote } = this;
    let runStart = 0;
    const n = text.length;
    for (let i = 0; i < n; i++) {
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
        this.fields.push(this.field + text.slice(runStart, i));
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
        this.field = '';
        this.started = false;
        runStart = i + 1;
      } else if (ch === quote && i === runStart && this.field.length === 0) {
        // A quote opens a quoted part only at the start of a field; elsewhere it is plain text.
        this.inQuotes = true;
        this.started = true;
        runStart = i + 1;
      } else {
        this.started = true;
      }
    }
    this.field += text.slice(runStart, n);
    return out;
  }

  /** The last record, when the text does not end with the line end. */
  finish(): string[][] {
    const last = this.field;
    const open = this.started || last.length > 0 || this.fields.length > 0;
    this.field = '';
    this.inQuotes = false;
    this.quotePending = false;
    const fields = this.fields;
    this.fields = [];
    this.started = false;
    return open ? [[...fields, last]] : [];
  }
}
