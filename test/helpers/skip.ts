import * as nodeTest from 'node:test';

type It = typeof nodeTest.it;
type Hook = typeof nodeTest.before;

/**
 * The test functions of a suite that can run only where `skip` is false: otherwise every test
 * is reported skipped with the reason (node's runner counts none of a skipped `describe`'s
 * tests), and the suite's hooks do nothing.
 */
export function suiteUnless(skip: string | false | undefined): { it: It; before: Hook; after: Hook } {
  if (!skip) return { it: nodeTest.it, before: nodeTest.before, after: nodeTest.after };
  const it = ((name: string) => nodeTest.it(name, { skip })) as unknown as It;
  const none = (() => undefined) as unknown as Hook;
  return { it, before: none, after: none };
}
