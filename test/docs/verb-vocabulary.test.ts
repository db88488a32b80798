/**
 * The verbs that promise something keep their promise (docs/architecture.md "Code style": a fixed
 * verb vocabulary). Over every exported function of src/ (declarations and exported arrow functions):
 *  - `compute*` derives a value and nothing else: it is synchronous and returns its value (no Promise,
 *    no iterator), and it does not build SQL (no `compute…Sql` / `compute…Column(s)`: `build*Sql`);
 *  - `is*` / `has*` answer a boolean (or narrow a type);
 *  - `assert*` throws or returns nothing (`void` or an `asserts` signature);
 *  - every verb this test holds to is one the vocabulary names.
 * It does not require every export to start with a listed verb: src/ exports ~640 functions with ~130
 * different first words (create, load, check, open, run, record, resolve, route handlers named after
 * their endpoint, `addFx`…); a list of them would be a dictionary, not a vocabulary.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';

/**
 * Exceptions, each with its reason. An entry that no longer matches a violation fails the test, so
 * the list only shrinks.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  // three answers on purpose: null when an input is not a decimal (the caller reports could-not-check)
  ['src/core/audit/lp-share.ts isLpShareDecreaseExact', 'boolean | null'],
]);

/** The verbs whose promise this test checks; each must be named in the vocabulary. */
const CHECKED_VERBS = ['compute', 'is', 'assert', 'build', 'check'];

interface ExportedFunction {
  readonly file: string;
  readonly name: string;
  readonly isAsync: boolean;
  /** the declared return type as written, or null */
  readonly returns: string | null;
}

function listSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repoRoot, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(repoRoot, rel)).isDirectory()) {
      if (name !== 'generated') out.push(...listSourceFiles(rel));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts') && !name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

const isExported = (n: ts.Node): boolean =>
  ts.canHaveModifiers(n) &&
  (ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false);
const isAsyncFn = (n: ts.Node): boolean =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n)?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword) ?? false);

function exportedFunctions(file: string): ExportedFunction[] {
  const sf = ts.createSourceFile(
    file,
    readFileSync(join(repoRoot, file), 'utf8'),
    ts.ScriptTarget.ES2022,
    true,
  );
  const out: ExportedFunction[] = [];
  for (const st of sf.statements) {
    if (!isExported(st)) continue;
    if (ts.isFunctionDeclaration(st) && st.name !== undefined)
      out.push({ file, name: st.name.text, isAsync: isAsyncFn(st), returns: st.type?.getText(sf) ?? null });
    else if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) {
        const f = d.initializer;
        if (
          f !== undefined &&
          ts.isIdentifier(d.name) &&
          (ts.isArrowFunction(f) || ts.isFunctionExpression(f))
        )
          out.push({ file, name: d.name.text, isAsync: isAsyncFn(f), returns: f.type?.getText(sf) ?? null });
      }
  }
  return out;
}

/** What is wrong with the name of `f`, or null. */
function problemOf(f: ExportedFunction): string | null {
  const r = f.returns ?? '';
  if (/^compute[A-Z0-9]/.test(f.name)) {
    if (f.isAsync || /\b(Promise|Iterable|Iterator|AsyncIterable|Generator)\b/.test(r))
      return `compute* derives a value; this one ${f.isAsync ? 'is async' : `returns ${r}`} (a read is read*)`;
    if (/(Sql|Columns?)$/.test(f.name)) return 'compute* derives a value; an SQL builder is build*Sql';
  }
  if (/^(is|has)[A-Z0-9]/.test(f.name) && r !== '' && r !== 'boolean' && !/^\w+ is /.test(r))
    return `is*/has* answer a boolean; this one returns ${r}`;
  if (/^assert[A-Z0-9]/.test(f.name) && r !== '' && r !== 'void' && !/^asserts /.test(r))
    return `assert* throws or returns nothing; this one returns ${r}`;
  return null;
}

describe('the verb vocabulary (docs/architecture.md "Code style")', () => {
  const functions = listSourceFiles('src').flatMap(exportedFunctions);

  it('finds the exported functions of src/', () => {
    expect(functions.length).toBeGreaterThan(300);
  });

  it('names only verbs that keep their promise (or are allowed, with a reason)', () => {
    const problems: string[] = [];
    const matched = new Set<string>();
    for (const f of functions) {
      const p = problemOf(f);
      if (p === null) continue;
      const key = `${f.file} ${f.name}`;
      if (ALLOWED.has(key)) matched.add(key);
      else problems.push(`${key}: ${p}`);
    }
    for (const key of ALLOWED.keys())
      if (!matched.has(key))
        problems.push(`${key}: allowed but no longer a violation — remove it from ALLOWED`);
    expect(problems).toEqual([]);
  });

  it('holds only verbs the vocabulary names', () => {
    const style = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
    const vocabulary = style.slice(style.indexOf('**A fixed verb vocabulary.**'));
    for (const verb of CHECKED_VERBS) expect(vocabulary, verb).toContain(`\`${verb}*`);
  });
});
