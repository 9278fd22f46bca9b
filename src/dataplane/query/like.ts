/**
 * GSQL's `LIKE`: `%` matches any run of characters (none included), `_` one character,
 * `[abc]`, `[a-z]` one of a set, `[^abc]` one not in it, and `\` makes the next character
 * literal. The whole string must match.
 *
 * Matching walks the string once per `%` it has to retry at most, never by backtracking
 * recursion: a pattern costs at most the string's length times its own, however written (a
 * regular expression built from `%a%a%a%b` could take far longer on a long string).
 */

/** One position of a pattern: a literal character, any one character, a set, or a run (`%`). */
type Atom =
  | { k: 'char'; c: string }
  | { k: 'any' }
  | { k: 'set'; negated: boolean; chars: Set<string>; ranges: [string, string][] }
  | { k: 'run' };

function atomsOf(pattern: string): Atom[] {
  const chars = [...pattern];
  const atoms: Atom[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) atoms.push({ k: 'char', c: chars[++i]! });
    else if (c === '%') {
      // Runs next to each other match what one does.
      if (atoms.at(-1)?.k !== 'run') atoms.push({ k: 'run' });
    } else if (c === '_') atoms.push({ k: 'any' });
    else if (c === '[' && chars.indexOf(']', i + 2) > i) {
      const end = chars.indexOf(']', i + 2);
      let body = chars.slice(i + 1, end);
      const negated = body[0] === '^';
      if (negated) body = body.slice(1);
      const set: Atom & { k: 'set' } = { k: 'set', negated, chars: new Set(), ranges: [] };
      for (let j = 0; j < body.length; j++) {
        if (body[j + 1] === '-' && j + 2 < body.length) {
          set.ranges.push([body[j]!, body[j + 2]!]);
          j += 2;
        } else set.chars.add(body[j]!);
      }
      atoms.push(set);
      i = end;
    } else atoms.push({ k: 'char', c });
  }
  return atoms;
}

function matchesOne(atom: Atom, c: string): boolean {
  switch (atom.k) {
    case 'char':
      return atom.c === c;
    case 'any':
      return true;
    case 'set': {
      const inSet = atom.chars.has(c) || atom.ranges.some(([lo, hi]) => c >= lo && c <= hi);
      return inSet !== atom.negated;
    }
    case 'run':
      return false;
  }
}

/** A matcher for one pattern, to be made once and asked for many strings. */
export function likeMatcher(pattern: string): (text: string) => boolean {
  const atoms = atomsOf(pattern);
  return (text) => {
    const s = [...text];
    // Greedy with one retry point: the last `%` seen and where in the string it stood.
    let si = 0;
    let pi = 0;
    let runAt = -1;
    let runFrom = 0;
    while (si < s.length) {
      const atom = atoms[pi];
      if (atom?.k === 'run') {
        runAt = pi++;
        runFrom = si;
      } else if (atom && matchesOne(atom, s[si]!)) {
        pi++;
        si++;
      } else if (runAt >= 0) {
        pi = runAt + 1;
        si = ++runFrom;
      } else return false;
    }
    while (atoms[pi]?.k === 'run') pi++;
    return pi === atoms.length;
  };
}
