/**
 * src/core holds no module state (docs/architecture.md "Core purity"): caches, memos and scratch
 * buffers belong to an object the caller creates and passes in (a `ProofContext`, a `HashContext`,
 * a `DecodeScratch`, the `TypeEnv` itself…), never to a module. Over every file of src/core
 * (generated files and the AssemblyScript sources of the WebAssembly engine excepted: those globals
 * are the wasm instance's own memory), this test fails on:
 *  - a module-level `let` or `var`;
 *  - a module-level `const` whose initialiser, as it runs at load, makes a mutable container —
 *    `new Map/WeakMap/Set/WeakSet/Array/ArrayBuffer/DataView/…Array(…)`, `Array.from/of`,
 *    `Uint8Array.from/of` and the like, or `new` of a class declared in src/core (a HashBuilder, a
 *    memo…) —, unless it is in the short allow-list below of immutable tables and sentinels;
 *  - a module-level object whose declared type has writable fields (a scratch record);
 *  - a static class field that is not readonly, or initialised so.
 * Function bodies are not looked into (they run per call), except immediately invoked ones.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';

/**
 * Module-level values built at load that are constants, not state: each is filled once while the
 * module loads and only read afterwards. An entry that no longer matches fails the test, so the list
 * only shrinks.
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ['src/core/amm/exact.ts POW10', 'powers of ten (frozen)'],
  ['src/core/audit/lp-share.ts POW10_18', 'powers of ten (frozen)'],
  ['src/core/codec/bytes.ts HEX_PAIRS', 'hex digits of each byte'],
  ['src/core/codec/bytes.ts B64_VALUE', 'base64 digit values'],
  ['src/core/codec/bytes.ts B64_PAIRS', 'base64 digit-pair values'],
  ['src/core/codec/fat-contract-decoder.ts CURRENT_COMMON', 'field numbers (ReadonlyMap)'],
  ['src/core/codec/fat-contract-decoder.ts LEGACY_COMMON', 'field numbers (ReadonlyMap)'],
  ['src/core/hash/hex.ts HEX', 'hex digits of each byte'],
  ['src/core/hash/hex.ts HEX_PAIR', 'hex digit codes of each byte'],
  ['src/core/hash/hex.ts NIBBLE', 'value of each hex digit'],
  ['src/core/hash/typed-value-hash.ts STOP', 'a thrown sentinel without fields'],
  ['src/core/types/dar/archive.ts HEX', 'hex digits of each byte'],
  ['src/core/types/dar/crc32.ts TABLE', 'the CRC-32 table'],
  ['src/core/types/type-value.ts EMPTY', 'the empty substitution (ReadonlyMap, never written)'],
  ['src/core/verdict/wasm/type-layout.ts CANNOT', 'a thrown sentinel without fields'],
  ['src/core/verdict/wasm/type-layout.ts FULL', 'a thrown sentinel without fields'],
]);

/** Built-in constructors whose instances are mutable containers. */
const CONTAINERS = new Set([
  'Map',
  'WeakMap',
  'Set',
  'WeakSet',
  'Array',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
]);

function listCoreFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(repoRoot, dir)).sort()) {
    const rel = `${dir}/${name}`;
    if (statSync(join(repoRoot, rel)).isDirectory()) {
      if (name !== 'generated' && rel !== 'src/core/verdict/wasm/assembly') out.push(...listCoreFiles(rel));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Names of the classes declared in `sources` (their instances count as state when made at load). */
function classNames(sources: readonly { file: string; text: string }[]): Set<string> {
  const names = new Set<string>();
  for (const { file, text } of sources) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    for (const st of sf.statements)
      if (ts.isClassDeclaration(st) && st.name !== undefined) names.add(st.name.text);
  }
  return names;
}

/** What in `e` (evaluated at load) makes a mutable container, or null. */
function stateMadeBy(e: ts.Node, classes: ReadonlySet<string>): string | null {
  let found: string | null = null;
  const visit = (n: ts.Node): void => {
    if (found !== null) return;
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression)) {
      const c = n.expression.text;
      if (CONTAINERS.has(c) || classes.has(c)) {
        found = `new ${c}(…)`;
        return;
      }
    }
    if (
      ts.isCallExpression(n) &&
      ts.isPropertyAccessExpression(n.expression) &&
      ts.isIdentifier(n.expression.expression) &&
      CONTAINERS.has(n.expression.expression.text) &&
      (n.expression.name.text === 'from' || n.expression.name.text === 'of')
    ) {
      found = `${n.expression.expression.text}.${n.expression.name.text}(…)`;
      return;
    }
    if (ts.isFunctionLike(n)) {
      // a function made at load runs later, per call — unless it is invoked right here
      const parent = n.parent;
      const invoked =
        parent !== undefined &&
        ((ts.isCallExpression(parent) && parent.expression === n) ||
          (ts.isParenthesizedExpression(parent) &&
            parent.parent !== undefined &&
            ts.isCallExpression(parent.parent) &&
            parent.parent.expression === parent));
      if (!invoked) return;
    }
    ts.forEachChild(n, visit);
  };
  visit(e);
  return found;
}

/** A type literal `{ a: T }` with a member that is not `readonly` (a scratch record). */
function hasWritableMember(t: ts.TypeLiteralNode): boolean {
  return t.members.some(
    (m) =>
      ts.isPropertySignature(m) &&
      !(ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword) ?? false),
  );
}

/** "file name: why" for every piece of module state in one file. */
function findModuleState(file: string, text: string, classes: ReadonlySet<string>): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: string[] = [];
  const nameOf = (d: ts.VariableDeclaration): string =>
    ts.isIdentifier(d.name) ? d.name.text : d.name.getText(sf);
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      const isConst = (flags & ts.NodeFlags.Const) !== 0;
      for (const d of st.declarationList.declarations) {
        if (!isConst)
          out.push(
            `${file} ${nameOf(d)}: a module-level ${(flags & ts.NodeFlags.Let) !== 0 ? 'let' : 'var'}`,
          );
        else if (d.initializer !== undefined) {
          const made = stateMadeBy(d.initializer, classes);
          if (made !== null) out.push(`${file} ${nameOf(d)}: a module-level const made with ${made}`);
          else if (d.type !== undefined && ts.isTypeLiteralNode(d.type) && hasWritableMember(d.type))
            out.push(`${file} ${nameOf(d)}: a module-level object with writable fields`);
        }
      }
    } else if (ts.isClassDeclaration(st)) {
      for (const m of st.members) {
        if (!ts.isPropertyDeclaration(m)) continue;
        const isStatic = ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.StaticKeyword) ?? false;
        if (!isStatic) continue;
        const readonly = ts.getModifiers(m)?.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword) ?? false;
        const name = `${st.name?.text ?? 'class'}.${m.name.getText(sf)}`;
        if (!readonly) out.push(`${file} ${name}: a static field that is not readonly`);
        else if (m.initializer !== undefined) {
          const made = stateMadeBy(m.initializer, classes);
          if (made !== null) out.push(`${file} ${name}: a static field made with ${made}`);
        }
      }
    }
  }
  return out;
}

describe('src/core holds no module state', () => {
  it('finds the kinds of module state it guards against (the detector itself)', () => {
    const classes = new Set(['HashBuilder']);
    const found = (text: string): string[] => findModuleState('x.ts', text, classes);
    expect(found('let slab = new Uint8Array(8);')).toEqual(['x.ts slab: a module-level let']);
    expect(found('var n = 0;')).toEqual(['x.ts n: a module-level var']);
    expect(found('const cache = new Map<string, number>();')).toHaveLength(1);
    expect(found('const seen = new WeakMap<object, string>();')).toHaveLength(1);
    expect(found('const shared = new HashBuilder(8192);')).toHaveLength(1);
    expect(found('const t = new Int16Array(128).fill(-1);')).toHaveLength(1);
    expect(found('const t = Uint16Array.from({ length: 4 }, (_, i) => i);')).toHaveLength(1);
    expect(found('const t = (() => { const x = new Uint8Array(4); return x; })();')).toHaveLength(1);
    expect(found("export const resolved: { type: string } = { type: 'unit' };")).toHaveLength(1);
    expect(found('const K: { readonly a: number } = { a: 1 };')).toEqual([]);
    expect(found('class A { static memo = new Map(); }')).toEqual([
      'x.ts A.memo: a static field that is not readonly',
    ]);
    expect(found('class A { static readonly memo = new Map(); }')).toHaveLength(1);
    // constants and per-call allocation are fine
    expect(found("const MAX = 4096;\nconst RE = /^a$/;\nconst utf8 = new TextDecoder('utf-8');")).toEqual([]);
    expect(found('export function f(): Map<string, number> { const m = new Map(); return m; }')).toEqual([]);
    expect(found('const make = () => new Map();')).toEqual([]);
    expect(found('class A { private readonly m = new Map(); }')).toEqual([]);
  });

  it('src/core: no module-level let, cache, memo or scratch buffer outside the allow-list', () => {
    const sources = listCoreFiles('src/core').map((file) => ({
      file,
      text: readFileSync(join(repoRoot, file), 'utf8'),
    }));
    expect(sources.length).toBeGreaterThan(100);
    const classes = classNames(sources);
    expect(classes.has('HashBuilder')).toBe(true);
    const found = sources.flatMap((s) => findModuleState(s.file, s.text, classes));
    const key = (f: string): string => f.slice(0, f.indexOf(':'));
    expect(found.filter((f) => !ALLOWED.has(key(f)))).toEqual([]);
    // every allow-list entry still names a table (a stale entry would hide a new one)
    const keys = new Set(found.map(key));
    expect([...ALLOWED.keys()].filter((k) => !keys.has(k))).toEqual([]);
  });
});
