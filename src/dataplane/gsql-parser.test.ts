import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseWithoutPositions as parse, gsqlSyntaxError as syntaxError } from '../../test/helpers/gsql-parse.js';
import { tokenize } from './gsql-lexer.js';
import { parseGsql, type GsqlSyntaxError } from './gsql-parser.js';

describe('tokenize', () => {
  it('reads words, numbers, both string quotes and two-character operators; drops comments', () => {
    const tokens = tokenize(`a_1 >= 3.5e2 "x\\"y" 'z' // gone\n# gone too\n/* and\nthis */ !=`);
    assert.deepEqual(
      tokens.map((t) => [t.kind, t.text]),
      [
        ['word', 'a_1'],
        ['punct', '>='],
        ['number', '3.5e2'],
        ['string', 'x"y'],
        ['string', 'z'],
        ['newline', '\n'],
        ['newline', '\n'],
        ['punct', '!='],
        ['end', ''],
      ],
    );
    assert.equal(tokens.at(-2)!.line, 4, 'lines are counted through block comments');
  });

  it('reads a dot after digits as part of the number only where no hop range or hop follows', () => {
    const texts = (source: string) => tokenize(source).map((t) => t.text);
    assert.deepEqual(texts('1..3'), ['1', '..', '3', '']);
    assert.deepEqual(texts('*2.E>'), ['*', '2', '.', 'E', '>', '']);
    assert.deepEqual(texts('1.e5 2.5 3. 4.E-2'), ['1.e5', '2.5', '3.', '4.E-2', '']);
  });

  it('refuses an unterminated string with its position', () => {
    assert.throws(
      () => tokenize('x = "open'),
      (err: GsqlSyntaxError) => err.line === 1 && err.column === 5,
    );
  });
});

describe('parseGsql: CREATE VERTEX', () => {
  it('reads the PRIMARY_ID form with defaults and WITH options', () => {
    assert.deepEqual(
      parse(`CREATE VERTEX Person (PRIMARY_ID name STRING, age INT DEFAULT -3, score DOUBLE DEFAULT 1.5,
               ok BOOL DEFAULT true, nick STRING DEFAULT "n/a")
               WITH STATS="OUTDEGREE_BY_EDGETYPE", primary_id_as_attribute="true"`),
      [
        {
          kind: 'createVertex',
          decl: {
            name: 'Person',
            primaryId: { name: 'name', type: 'STRING' },
            attributes: [
              { name: 'age', type: 'INT', default: { kind: 'number', value: -3 } },
              { name: 'score', type: 'DOUBLE', default: { kind: 'number', value: 1.5 } },
              { name: 'ok', type: 'BOOL', default: { kind: 'bool', value: true } },
              { name: 'nick', type: 'STRING', default: { kind: 'string', value: 'n/a' } },
            ],
            options: { STATS: 'OUTDEGREE_BY_EDGETYPE', PRIMARY_ID_AS_ATTRIBUTE: 'true' },
          },
        },
      ],
    );
  });

  it('reads the inline PRIMARY KEY form and the PRIMARY KEY (a) clause, keywords in any case', () => {
    const [inline] = parse('create vertex Account (id UINT primary key, balance double)');
    assert.deepEqual(inline, {
      kind: 'createVertex',
      decl: {
        name: 'Account',
        primaryKey: 'id',
        attributes: [
          { name: 'id', type: 'UINT', primaryKey: true },
          { name: 'balance', type: 'DOUBLE' },
        ],
        options: {},
      },
    });
    const [clause] = parse('CREATE VERTEX City (name STRING, pop UINT, PRIMARY KEY (name))');
    assert.equal(clause!.kind === 'createVertex' && clause.decl.primaryKey, 'name');
  });

  it('refuses discriminators with a clear reason', () => {
    assert.match(
      syntaxError('CREATE VERTEX A (PRIMARY_ID id STRING)\nCREATE DIRECTED EDGE e (FROM A, TO A, DISCRIMINATOR(x INT))')
        .message,
      /DISCRIMINATOR/,
    );
  });
});

describe('parseGsql: CREATE EDGE and GRAPH', () => {
  it('reads directed edges with REVERSE_EDGE, undirected edges and several FROM/TO pairs', () => {
    assert.deepEqual(
      parse(`CREATE DIRECTED EDGE follows (FROM Person, TO Person, since DATETIME) WITH REVERSE_EDGE="followed_by"
CREATE UNDIRECTED EDGE knows (FROM Person, TO Person | FROM Person, TO Robot)
CREATE EDGE near (FROM A, TO B)`),
      [
        {
          kind: 'createEdge',
          decl: {
            name: 'follows',
            directed: true,
            pairs: [{ from: 'Person', to: 'Person' }],
            attributes: [{ name: 'since', type: 'DATETIME' }],
            options: { REVERSE_EDGE: 'followed_by' },
          },
        },
        {
          kind: 'createEdge',
          decl: {
            name: 'knows',
            directed: false,
            pairs: [
              { from: 'Person', to: 'Person' },
              { from: 'Person', to: 'Robot' },
            ],
            attributes: [],
            options: {},
          },
        },
        {
          kind: 'createEdge',
          decl: { name: 'near', directed: false, pairs: [{ from: 'A', to: 'B' }], attributes: [], options: {} },
        },
      ],
    );
  });

  it('reads CREATE GRAPH with a list, with * and empty', () => {
    assert.deepEqual(parse('CREATE GRAPH g (Person, follows); CREATE GRAPH all_of_it(*); CREATE GRAPH empty()'), [
      { kind: 'createGraph', name: 'g', all: false, types: ['Person', 'follows'] },
      { kind: 'createGraph', name: 'all_of_it', all: true, types: [] },
      { kind: 'createGraph', name: 'empty', all: false, types: [] },
    ]);
  });
});

describe('parseGsql: statements', () => {
  it('splits on semicolons and on line ends, but not inside brackets or before WITH', () => {
    const statements = parse(`USE GLOBAL
CREATE VERTEX P (
  PRIMARY_ID id STRING,
  age INT
)
  WITH primary_id_as_attribute="true";
USE GRAPH g; LS
SHOW GRAPH *
DROP VERTEX a, b
DROP EDGE e
DROP GRAPH g CASCADE
DROP ALL
CLEAR GRAPH STORE -HARD`);
    assert.deepEqual(
      statements.map((s) => s.kind),
      [
        'useGlobal',
        'createVertex',
        'useGraph',
        'ls',
        'show',
        'dropVertex',
        'dropEdge',
        'dropGraph',
        'dropAll',
        'clearGraphStore',
      ],
    );
    assert.deepEqual(statements[1]!.kind === 'createVertex' && statements[1].decl.options, {
      PRIMARY_ID_AS_ATTRIBUTE: 'true',
    });
    assert.deepEqual(statements[5], { kind: 'dropVertex', names: ['a', 'b'] });
  });

  it('hands query statements to the query parser, names jobs as unsupported and reads past their bodies', () => {
    const statements = parse(`CREATE QUERY hello(VERTEX<Person> p) FOR GRAPH g {
  PRINT p;
}
INSTALL QUERY hello
RUN QUERY hello("x")
INTERPRET QUERY () FOR GRAPH g { PRINT 1; }
CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; LOAD f TO VERTEX P VALUES($0); }
CREATE GLOBAL SCHEMA_CHANGE JOB c { ADD VERTEX X (PRIMARY_ID id STRING); }
LS`);
    assert.deepEqual(
      statements.map((s) => (s.kind === 'unsupported' ? s.what : s.kind === 'query' ? s.query.kind : s.kind)),
      ['createQuery', 'installQuery', 'runQuery', 'interpretQuery', 'createLoadingJob', 'createSchemaJob', 'ls'],
    );
  });

  it("reports a syntax error in GSQL's words with line and column", () => {
    const err = syntaxError('LS\nCREATE VERTEX (x INT)');
    assert.equal(err.message, 'Encountered "(" at line 2, column 15.');
    assert.match(syntaxError('CREATE VERTEX P (PRIMARY_ID id STRING').message, /Encountered "<EOF>"/);
    assert.match(syntaxError('SELECT * FROM x').message, /Encountered "SELECT" at line 1, column 1/);
  });

  it('keeps the position of each statement', () => {
    const [, second] = parseGsql('LS\n  USE GRAPH g');
    assert.deepEqual([second!.line, second!.column], [2, 3]);
  });
});

describe('parseGsql: nesting', () => {
  it('refuses a statement nested past what the parsers descend as a syntax error, not a crash', () => {
    const deep = (inner: string) => `${'('.repeat(100_000)}${inner}${')'.repeat(100_000)}`;
    const query = syntaxError(`INTERPRET QUERY () FOR GRAPH g {\n  PRINT ${deep('1')};\n}`);
    assert.equal(query.message, 'The statement nests too deeply to be read.');
    const load = `LOAD f TO VERTEX P VALUES ($0) WHERE ${deep('$0 == "a"')};`;
    const job = syntaxError(`CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; ${load} }`);
    assert.equal(job.message, 'The statement nests too deeply to be read.');
    // A few hundred levels are read as usual.
    assert.equal(
      parseGsql(`INTERPRET QUERY () FOR GRAPH g { PRINT ${'('.repeat(300)}1${')'.repeat(300)}; }`).length,
      1,
    );
  });
});
