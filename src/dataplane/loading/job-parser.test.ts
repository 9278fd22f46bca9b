import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gsqlSyntaxError as syntaxError } from '../../../test/helpers/gsql-parse.js';
import { parseGsql } from '../gsql-parser.js';
import { CsvRecords } from './csv-records.js';
import { jobText } from './job-text.js';

describe('loading job parser', () => {
  it('reads files, targets, values and USING options', () => {
    const [st] = parseGsql(`CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f = "people.csv";
  DEFINE FILENAME e;
  LOAD f TO VERTEX P VALUES ($0, $"age", _, "x", gsql_concat($1, "-", gsql_trim($2)))
    USING SEPARATOR="\\t", HEADER="true", QUOTE="single", EOL="\\n";
  LOAD e TO EDGE k VALUES ($0, $1), TO VERTEX P VALUES ($0, _, _, _, _);
}`);
    assert.equal(st?.kind, 'createLoadingJob');
    if (st?.kind !== 'createLoadingJob') return;
    const { job } = st;
    assert.deepEqual(job.files, [{ name: 'f', path: 'people.csv' }, { name: 'e' }]);
    assert.deepEqual(job.loads[0]!.options, { separator: '\t', eol: '\n', header: true, quote: "'" });
    assert.deepEqual(job.loads[0]!.targets[0]!.values, [
      { kind: 'column', index: 0 },
      { kind: 'columnName', name: 'age' },
      { kind: 'skip' },
      { kind: 'literal', value: 'x' },
      {
        kind: 'call',
        fn: 'gsql_concat',
        args: [
          { kind: 'column', index: 1 },
          { kind: 'literal', value: '-' },
          { kind: 'call', fn: 'gsql_trim', args: [{ kind: 'column', index: 2 }] },
        ],
      },
    ]);
    assert.deepEqual(
      job.loads[1]!.targets.map((t) => [t.kind, t.type, t.line, t.column]),
      [
        ['edge', 'k', 6, 10],
        ['vertex', 'P', 6, 37],
      ],
    );
    assert.deepEqual(job.loads[1]!.options, { separator: ',', eol: '\n', header: false });
  });

  it('reads RUN, DROP and SHOW JOB', () => {
    const sts = parseGsql(
      'RUN LOADING JOB -noprint j USING f="a.csv", EOF="true"\nDROP JOB a, b\nDROP JOB ALL\nSHOW JOB *',
    );
    assert.deepEqual(
      sts.map(({ line: _l, column: _c, ...rest }) => rest),
      [
        { kind: 'runLoadingJob', name: 'j', files: { f: 'a.csv' } },
        { kind: 'dropJob', names: ['a', 'b'], all: false },
        { kind: 'dropJob', names: [], all: true },
        { kind: 'showJob', name: '*' },
      ],
    );
  });

  it('reads a WHERE condition with TigerGraph loader precedence', () => {
    const [st] = parseGsql(`CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;
  LOAD f TO VERTEX P VALUES ($0) WHERE NOT $1 IS EMPTY AND to_int($1) * 2 + 1 > 7 OR $2 IN ("a", "b"),
    TO VERTEX P VALUES ($1) WHERE to_float($"x") BETWEEN -1 AND 2.5 USING HEADER="true"; }`);
    assert.equal(st?.kind, 'createLoadingJob');
    if (st?.kind !== 'createLoadingJob') return;
    const [first, second] = st.job.loads[0]!.targets;
    const col = (index: number) => ({ kind: 'token', value: { kind: 'column', index } });
    const toInt = { kind: 'call', fn: 'to_int', args: [col(1)] };
    assert.deepEqual(first!.where, {
      kind: 'binary',
      op: 'OR',
      left: {
        kind: 'binary',
        op: 'AND',
        left: { kind: 'unary', op: 'NOT', arg: { kind: 'is', test: 'EMPTY', arg: col(1) } },
        right: {
          kind: 'binary',
          op: '>',
          left: {
            kind: 'binary',
            op: '+',
            left: { kind: 'binary', op: '*', left: toInt, right: { kind: 'number', value: 2, int: true } },
            right: { kind: 'number', value: 1, int: true },
          },
          right: { kind: 'number', value: 7, int: true },
        },
      },
      right: {
        kind: 'in',
        arg: col(2),
        set: [
          { kind: 'string', value: 'a' },
          { kind: 'string', value: 'b' },
        ],
      },
    });
    assert.deepEqual(second!.where, {
      kind: 'between',
      arg: { kind: 'call', fn: 'to_float', args: [{ kind: 'token', value: { kind: 'columnName', name: 'x' } }] },
      low: { kind: 'unary', op: '-', arg: { kind: 'number', value: 1, int: true } },
      high: { kind: 'number', value: 2.5, int: false },
    });
  });

  it('reads nested JSON keys and the JSON_FILE option', () => {
    const [st] = parseGsql(`CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f;
  LOAD f TO VERTEX P VALUES ($"id", gsql_upper($"a":"b":"c")) WHERE $"x":"y" == "z" USING JSON_FILE="true";
}`);
    if (st?.kind !== 'createLoadingJob') return assert.fail('not a loading job');
    const [target] = st.job.loads[0]!.targets;
    assert.deepEqual(st.job.loads[0]!.options, { separator: ',', eol: '\n', header: false, json: true });
    assert.deepEqual(target!.values, [
      { kind: 'columnName', name: 'id' },
      { kind: 'call', fn: 'gsql_upper', args: [{ kind: 'columnName', name: 'a:b:c', path: ['a', 'b', 'c'] }] },
    ]);
    assert.deepEqual(target!.where, {
      kind: 'binary',
      op: '==',
      left: { kind: 'token', value: { kind: 'columnName', name: 'x:y', path: ['x', 'y'] } },
      right: { kind: 'string', value: 'z' },
    });
  });

  it('prints a job as GSQL that reads back as the same job, conditions and JSON keys included', () => {
    const jobOf = (text: string) => {
      const [st] = parseGsql(text);
      if (st?.kind !== 'createLoadingJob') return assert.fail('not a loading job');
      // Where each target was written is all that may differ.
      for (const l of st.job.loads) for (const t of l.targets) Object.assign(t, { line: 0, column: 0 });
      for (const d of st.job.deletes ?? []) Object.assign(d, { line: 0, column: 0 });
      return st.job;
    };
    const job = jobOf(`CREATE LOADING JOB j FOR GRAPH g {
  DEFINE FILENAME f = "a.json";
  DEFINE FILENAME e;
  LOAD f TO VERTEX P VALUES ($"id", gsql_upper($"a":"b")) WHERE NOT $"x":"y" IS EMPTY AND (to_float($"n") > -2.0
    OR to_int($"n") / 2 BETWEEN 1 AND 3 * 2 ^ 2) AND $"c" IN ("u", concat($"c", "v")) USING JSON_FILE="true";
  LOAD e TO EDGE k VALUES ($0, $1, _) WHERE token_len($2) >= 1, TO EDGE k VALUES ($0 P, $1 $2, _),
    TO EDGE k VALUES ($0 "P", $1 "Q r", _) USING SEPARATOR="|", QUOTE="single";
  DELETE VERTEX P (PRIMARY_ID gsql_trim($0)) FROM e WHERE $1 == "gone";
  DELETE EDGE k (FROM $0, TO $1) FROM e;
  DELETE EDGE k (FROM $0) FROM e WHERE $2 IS EMPTY;
  DELETE EDGE * (FROM $0 P) FROM e;
  LOAD e TO VERTEX C VALUES ($0, SPLIT($1, "#"), split(gsql_trim($2), ":", ";"), List($3, "x"), SET(T($4, "1")),
    ($5 -> T($6, $7)), MAP(($8 -> "a"), (gsql_upper($9) -> $10)), T($11, $12),
    REDUCE(add(($13 -> T($14, "z")))), reduce(Ignore_If_Exists(gsql_trim($15)))) USING SEPARATOR="|", QUOTE="single";
}`);
    assert.deepEqual(
      job.loads[1]!.targets.slice(1).map((t) => [t.fromType, t.toType]),
      [
        [
          { kind: 'literal', value: 'P' },
          { kind: 'column', index: 2 },
        ],
        [
          { kind: 'literal', value: 'P' },
          { kind: 'literal', value: 'Q r' },
        ],
      ],
    );
    const collections = job.loads[2]!.targets[0]!.values;
    assert.deepEqual(collections.slice(1, 4), [
      { kind: 'split', arg: { kind: 'column', index: 1 }, separators: ['#'] },
      {
        kind: 'split',
        arg: { kind: 'call', fn: 'gsql_trim', args: [{ kind: 'column', index: 2 }] },
        separators: [':', ';'],
      },
      {
        kind: 'collection',
        of: 'LIST',
        items: [
          { kind: 'column', index: 3 },
          { kind: 'literal', value: 'x' },
        ],
      },
    ]);
    assert.deepEqual(collections[5], {
      kind: 'pair',
      key: { kind: 'column', index: 5 },
      value: {
        kind: 'tuple',
        name: 'T',
        fields: [
          { kind: 'column', index: 6 },
          { kind: 'column', index: 7 },
        ],
      },
    });
    assert.deepEqual(collections[9], {
      kind: 'reduce',
      fn: 'ignore_if_exists',
      arg: { kind: 'call', fn: 'gsql_trim', args: [{ kind: 'column', index: 15 }] },
    });
    assert.deepEqual(
      job.deletes!.map((d) => [d.kind, d.type, d.from, d.to]),
      [
        ['vertex', 'P', { kind: 'call', fn: 'gsql_trim', args: [{ kind: 'column', index: 0 }] }, undefined],
        ['edge', 'k', { kind: 'column', index: 0 }, { kind: 'column', index: 1 }],
        ['edge', 'k', { kind: 'column', index: 0 }, undefined],
        ['anyEdge', 'P', { kind: 'column', index: 0 }, undefined],
      ],
    );
    assert.deepEqual(jobOf(jobText(job)), job);
  });

  it('names the line and column of what it refuses', () => {
    // A LOAD whose WHERE condition starts at line 2, column 38.
    // A LOAD of vertex P, its VALUES list starting at line 2, column 27.
    // A DELETE statement at line 2, column 1.
    const del = (rest: string) => `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nDELETE ${rest}; }`;
    const loadP = (rest: string) =>
      `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES ${rest}; }`;
    const where = (condition: string) =>
      `CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES ($0) WHERE ${condition}; }`;
    const cases: [string, RegExp, number, number][] = [
      ['CREATE LOADING JOB j FOR GRAPH g {\n  LOAD f TO VERTEX P VALUES ($0);\n}', /file name f is not defined/, 2, 8],
      ['CREATE LOADING JOB j FOR GRAPH g {\n DEFINE FILENAME f;\n DEFINE FILENAME f;\n}', /defined twice/, 3, 18],
      [where('$1 > 3'), /compares STRING with a number; convert with to_int or to_float/, 2, 41],
      [where('to_int($1) + 1'), /needs a condition here, not a number/, 2, 49],
      [where('$1 AND $2 == "x"'), /needs a condition here, not STRING/, 2, 38],
      [where('to_int(3) > 1'), /needs text here, not a number/, 2, 45],
      [where('concat($1) == "a"'), /concat takes 2 argument\(s\), not 1/, 2, 38],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES (gsql_substring($0)); }',
        /gsql_substring takes 2 to 3 argument\(s\), not 1/,
        2,
        28,
      ],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES (gsql_substring($0, $1)); }',
        /Argument 2 of gsql_substring must be a whole number written in the job/,
        2,
        28,
      ],
      [loadP('(gsql_nope($0))'), /The token function gsql_nope is not supported/, 2, 28],
      [loadP('($0, SPLIT($1))'), /SPLIT takes a value and one or two separators, not 1 argument/, 2, 32],
      [loadP('($0, SPLIT($1, $2))'), /separators of SPLIT must be non-empty strings written in the job/, 2, 32],
      [loadP('($0, SPLIT($1, ""))'), /separators of SPLIT must be non-empty strings/, 2, 32],
      [loadP('($0, SPLIT(LIST($1), "|"))'), /arguments of SPLIT must be tokens, literals or token functions/, 2, 32],
      [loadP('($0, MAP($1))'), /MAP takes one or more \(key -> value\) pairs/, 2, 32],
      [loadP('($0, LIST(($1 -> $2)))'), /LIST takes one or more tokens, literals, token functions or tuples/, 2, 32],
      [loadP('($0, SET())'), /SET takes one or more/, 2, 32],
      [loadP('($0, T(_))'), /arguments of T must be tokens, literals or token functions/, 2, 32],
      [
        loadP('($0, gsql_upper(SPLIT($1, "|")))'),
        /SPLIT\(…\) builds an attribute's value; it cannot be used here/,
        2,
        43,
      ],
      [loadP('($0, ($1 $2))'), /Encountered "\$" at line 2, column 36/, 2, 36],
      [loadP('($0) WHERE SPLIT($1, "|") == "a"'), /it cannot be used here/, 2, 38],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES ($0) USING SEPARATOR="ab"; }',
        /SEPARATOR must be one character/,
        2,
        48,
      ],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES ($"a"); }',
        /needs USING HEADER="true"/,
        2,
        6,
      ],
      [loadP('($"a":"b") USING HEADER="true"'), /\$"a":"b" reads a JSON file: it needs USING JSON_FILE="true"/, 2, 6],
      [loadP('(gsql_trim($1)) USING JSON_FILE="true"'), /A JSON file is read by key: use \$"key", not \$0/, 2, 6],
      [loadP('($"a") USING JSON_FILE="true", HEADER="true"'), /HEADER="true" does not apply to a JSON file/, 2, 6],
      [loadP('($"a") USING JSON_FILE="yes"'), /JSON_FILE must be "true" or "false"/, 2, 50],
      ['CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f; }', /has no LOAD or DELETE statement/, 1, 56],
      [del('EDGE E (FROM $0, DISCRIMINATOR($1)) FROM f'), /DISCRIMINATOR is not supported/, 2, 25],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO EDGE E VALUES ($0 _, $1); }',
        /The vertex type of an edge end cannot be _/,
        2,
        29,
      ],
      [del('VERTEX P (PRIMARY_ID _) FROM f'), /An id to delete cannot be _/, 2, 29],
      [
        del('VERTEX P (PRIMARY_ID $0) FROM "x.csv"'),
        /DELETE needs a file variable from DEFINE FILENAME, not a path/,
        2,
        38,
      ],
      [del('VERTEX P (PRIMARY_ID $0) FROM g'), /The file name g is not defined/, 2, 38],
      [del('EDGE * (FROM $0) FROM f'), /Encountered "\)"/, 2, 23],
      [del('VERTEX P (PRIMARY_ID $0) FROM f WHERE $0 > 1'), /compares STRING with a number/, 2, 49],
      [
        'CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO VERTEX P VALUES ($x); }',
        /Encountered "x"/,
        2,
        29,
      ],
      ['CREATE LOADING JOB j FOR GRAPH g { DEFINE FILENAME f;\nLOAD f TO TABLE P VALUES ($0); }', /"TABLE"/, 2, 11],
    ];
    for (const [text, message, line, column] of cases) {
      const err = syntaxError(text);
      assert.match(err.message, message, text);
      assert.deepEqual([err.line, err.column], [line, column], text);
    }
  });
});

describe('CSV records', () => {
  const read = (chunks: string[], sep = ',', eol = '\n', quote?: string) => {
    const r = new CsvRecords(sep, eol, quote);
    return [...chunks.flatMap((c) => r.feed(c)), ...r.finish()];
  };

  it('splits fields and lines, dropping blank lines and the \\r of CRLF', () => {
    assert.deepEqual(read(['a,b\r\n\nc,,d\r\n\r', '\n\r\ne\r\n']), [['a', 'b'], ['c', '', 'd'], ['e']]);
    // Without a separator, a line is one field (a JSON line).
    const lines = new CsvRecords(undefined, '\n', undefined);
    assert.deepEqual([...lines.feed('{"a":1,"b":2}\r\n\r\n[3'), ...lines.finish()], [['{"a":1,"b":2}'], ['[3']]);
    assert.deepEqual(read(['a|b;c|d;'], '|', ';'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('reads quoted fields only when a quote is set, doubled quotes included', () => {
    assert.deepEqual(read(['"a,b","say ""hi""",x\n'], ',', '\n', '"'), [['a,b', 'say "hi"', 'x']]);
    assert.deepEqual(read(['"a,b"\n']), [['"a', 'b"']]);
    assert.deepEqual(read(["'x\ny',z\n"], ',', '\n', "'"), [['x\ny', 'z']]);
  });

  it('drops a record longer than its bound with the text up to the next line end, quoted or not', () => {
    const r = new CsvRecords(',', '\n', '"', 10);
    const chunks = ['a,b\n"xxxxx', 'xxxxxxxx\n', ...Array<string>(100).fill('y'.repeat(1000)), 'more"\nc,d\n'];
    assert.deepEqual(
      [...chunks.flatMap((c) => r.feed(c)), ...r.finish()],
      [
        ['a', 'b'],
        ['c', 'd'],
      ],
    );
    assert.equal(r.oversize, 1);
    // A record within the bound after it is read whole.
    assert.deepEqual(r.feed('"1234",5678\n'), [['1234', '5678']]);
    assert.equal(r.oversize, 1);
  });

  it('gives the same records however the text is cut into chunks', () => {
    const text = '"a,""b""",c\r\nd,"e\nf"\ng,h';
    const whole = read([text], ',', '\n', '"');
    assert.deepEqual(whole, [
      ['a,"b"', 'c'],
      ['d', 'e\nf'],
      ['g', 'h'],
    ]);
    for (let cut = 1; cut < text.length; cut++)
      assert.deepEqual(read([text.slice(0, cut), text.slice(cut)], ',', '\n', '"'), whole, `cut at ${cut}`);
    assert.deepEqual(read([...text], ',', '\n', '"'), whole);
  });
});
