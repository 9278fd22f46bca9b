import { GsqlSyntaxError, parseGsql } from '../../src/dataplane/gsql-parser.js';

/** The statements GSQL text parses to, without their positions, for comparison. */
export const parseWithoutPositions = (text: string) => parseGsql(text).map(({ line: _l, column: _c, ...rest }) => rest);

/** The syntax error GSQL text raises; fails the test when it parses. */
export function gsqlSyntaxError(text: string): GsqlSyntaxError {
  try {
    parseGsql(text);
  } catch (err) {
    if (err instanceof GsqlSyntaxError) return err;
    throw err;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}
