/**
 * Every reference a reader meets points inside the repository (docs/architecture.md "Protocol documents").
 * Scans src/, test/, scripts/, bench/, wasm/, proto/, docs/, README.md, BENCHMARKS.md and examples/README.md:
 *  - no document outside the repository is cited: `spec/<name>.md` (other than `docs/protocol/<name>.md`),
 *    `design/style.md`, or `../shared/…` — except the DARs, vectors and recordings beside the repository,
 *    and Canton's OpenAPI description in `../shared/spec/ledger-api/`, which tests and benchmarks read
 *    (and skip without);
 *  - every citation of a protocol document names a part it has: `docs/protocol/<name>.md §N` (also as a
 *    markdown link, or in the short form `<name> §N`) needs a heading `## N. …` / `### N.M …` there, and
 *    `docs/protocol/public-api.md "Heading"` a heading that starts with that text;
 *  - the protocol documents number their sections one way, `## N. Title` (public-api.md, cited by heading
 *    name, excepted).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/shared.js';

const SCANNED_DIRS = ['src', 'test', 'scripts', 'bench', 'wasm', 'proto', 'docs'];
const SCANNED_FILES = ['README.md', 'BENCHMARKS.md', 'examples/README.md'];
const TEXT_EXTENSIONS = new Set([
  '.ts',
  '.mts',
  '.mjs',
  '.cjs',
  '.js',
  '.json',
  '.md',
  '.proto',
  '.sql',
  '.html',
]);
/** Upstream data copied unchanged (its own comment names the upstream layout); never edited. */
const UPSTREAM_COPIES = new Set(['test/vectors/contract-id-test-vectors.json']);
const THIS_FILE = 'test/docs/references.test.ts';
/** Material beside the repository that tests and benchmarks may read (and skip without). */
const SHARED_ALLOWED = new Set(['dars', 'vectors', 'recordings']);
const SHARED_ALLOWED_IN = ['test/', 'bench/'];
/** Besides tests, the generator of the ledger client's types reads Canton's OpenAPI document. */
const SHARED_DATA_IN = ['scripts/gen-ledger-types.mjs'];

const PROTOCOL_DIR = 'docs/protocol';
const SHORT_NAMES = ['contract-id', 'blob-format', 'dar-format', 'public-api', 'api-decisions'];
/** Protocol documents cited by heading name rather than by number. */
const CITED_BY_HEADING = new Set(['public-api']);

function listScannedFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(repoRoot, dir)).sort()) {
      if (name === 'node_modules' || name === 'generated') continue;
      const rel = `${dir}/${name}`;
      if (statSync(join(repoRoot, rel)).isDirectory()) walk(rel);
      else if (TEXT_EXTENSIONS.has(extname(name)) && !UPSTREAM_COPIES.has(rel) && rel !== THIS_FILE)
        out.push(rel);
    }
  };
  for (const d of SCANNED_DIRS) if (existsSync(join(repoRoot, d))) walk(d);
  for (const f of SCANNED_FILES) if (existsSync(join(repoRoot, f))) out.push(f);
  return out;
}

interface Problem {
  readonly at: string;
  readonly message: string;
}

/** `spec/x.md` not under docs/protocol/, the old style guide, and the shared folders beside the repo. */
function findOutsideReferences(file: string, text: string): Problem[] {
  const problems: Problem[] = [];
  const sharedAllowedHere = SHARED_ALLOWED_IN.some((p) => file.startsWith(p));
  text.split('\n').forEach((line, i) => {
    const at = `${file}:${i + 1}`;
    for (const m of line.matchAll(/(?<![\w.-]|shared\/)spec\/[\w.-]+\.md/g)) {
      problems.push({ at, message: `cites ${m[0]}, a document outside the repository (docs/protocol/?)` });
    }
    for (const m of line.matchAll(/design\/style\.md/g)) {
      problems.push({
        at,
        message: `cites ${m[0]}, outside the repository (docs/architecture.md "Code style")`,
      });
    }
    for (const m of line.matchAll(/(?:\.\.\/)?\bshared\/(spec|design)\b(\/ledger-api\b)?/g)) {
      // Canton's OpenAPI description is test input (responses are checked against it) and the source
      // of the ledger client's generated types, not a citation
      if (m[2] !== undefined && (sharedAllowedHere || SHARED_DATA_IN.some((p) => file.startsWith(p))))
        continue;
      problems.push({
        at,
        message: `cites ${m[0]}, outside the repository (docs/protocol/, docs/architecture.md)`,
      });
    }
    for (const m of line.matchAll(/\.\.\/shared\b(?:\/([\w.-]+))?/g)) {
      const sub = m[1];
      if (sub === 'spec' || sub === 'design') continue; // reported above
      if (sub !== undefined && SHARED_ALLOWED.has(sub) && sharedAllowedHere) continue;
      problems.push({
        at,
        message: `names ${m[0]}: only tests and benchmarks may read ../shared/{${[...SHARED_ALLOWED].join(',')}}`,
      });
    }
  });
  return problems;
}

interface ProtocolDoc {
  /** section numbers of its headings: "6", "6.4", "4b" */
  readonly sections: ReadonlySet<string>;
  /** heading texts without the leading number */
  readonly headings: readonly string[];
  /** `##` headings that do not follow `## N. Title` */
  readonly unnumbered: readonly string[];
}

function readProtocolDoc(name: string): ProtocolDoc | null {
  const path = join(repoRoot, PROTOCOL_DIR, `${name}.md`);
  if (!existsSync(path)) return null;
  const sections = new Set<string>();
  const headings: string[] = [];
  const unnumbered: string[] = [];
  let inFence = false;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const h = /^(#{2,6})\s+(.*?)\s*$/.exec(line);
    if (h === null) continue;
    const level = h[1] ?? '';
    const title = h[2] ?? '';
    const numbered = /^(\d+[a-z]?(?:\.\d+)*)\.?\s+(.*)$/.exec(title);
    if (numbered !== null) {
      sections.add(numbered[1] ?? '');
      headings.push(numbered[2] ?? '');
    } else {
      headings.push(title);
      if (level === '##') unnumbered.push(title);
    }
  }
  return { sections, headings, unnumbered };
}

const protocolDocs = new Map<string, ProtocolDoc | null>();
function protocolDoc(name: string): ProtocolDoc | null {
  if (!protocolDocs.has(name)) protocolDocs.set(name, readProtocolDoc(name));
  return protocolDocs.get(name) ?? null;
}

/** A comment or list continuation prefix, removed when a citation continues on the next line. */
const CONTINUATION = /^\s*(?:\*|\/\/|#+|-|\|)?\s*/;
/** `§6.4`, `§4b`, `§1–§6`, `§6.1, §6.5`, `§2 and §8` right after a reference. */
const SECTION_LIST = /^\s*(§\s?\d+[a-z]?(?:\.\d+)*(?:(?:\s*[–-]\s*|,\s*|\s+and\s+)§\s?\d+[a-z]?(?:\.\d+)*)*)/;
/** `"Limits"`, `"Pool", "Pool state"` right after a reference. */
const HEADING_LIST = /^\s*("[^"\n]+"(?:,\s*"[^"\n]+")*)/;

interface Citation {
  readonly at: string;
  readonly doc: string;
  /** the text right after the reference (and the next line, when the reference ends its line) */
  readonly rest: string;
}

/** Every reference to a protocol document: path, markdown link or short form, with what follows it. */
function findCitations(file: string, text: string): Citation[] {
  const lines = text.split('\n');
  const out: Citation[] = [];
  const names = SHORT_NAMES.join('|');
  const patterns = [
    new RegExp(
      `(?:docs\\/protocol|(?<=[(\`\\s])(?:\\.\\.\\/)?protocol)\\/(${names}|[\\w-]+)\\.md(?:#[\\w-]*)?\\)?`,
      'g',
    ),
    new RegExp(`(?<![\\w/.#-])(${names})(?=\\s(?:§\\s?\\d|"))`, 'g'),
  ];
  if (file.startsWith(`${PROTOCOL_DIR}/`)) {
    // links between the protocol documents: [x](contract-id.md) §2
    patterns.push(new RegExp(`\\]\\((${names})\\.md(?:#[\\w-]*)?\\)`, 'g'));
  }
  lines.forEach((line, i) => {
    const seen = new Set<number>();
    for (const re of patterns) {
      for (const m of line.matchAll(re)) {
        const start = m.index ?? 0;
        if (seen.has(start)) continue;
        seen.add(start);
        const end = start + m[0].length;
        let rest = line.slice(end);
        const next = lines[i + 1];
        if (rest.trim() === '' && next !== undefined) rest = ` ${next.replace(CONTINUATION, '')}`;
        out.push({ at: `${file}:${i + 1}`, doc: m[1] ?? '', rest });
      }
    }
  });
  return out;
}

function checkCitation(c: Citation): Problem[] {
  const doc = protocolDoc(c.doc);
  if (doc === null) return [{ at: c.at, message: `cites ${PROTOCOL_DIR}/${c.doc}.md, which does not exist` }];
  const problems: Problem[] = [];
  const sections = SECTION_LIST.exec(c.rest);
  if (sections !== null) {
    for (const s of (sections[1] ?? '').matchAll(/§\s?(\d+[a-z]?(?:\.\d+)*)/g)) {
      const n = s[1] ?? '';
      if (!doc.sections.has(n)) {
        problems.push({
          at: c.at,
          message: `cites ${c.doc} §${n}, but ${PROTOCOL_DIR}/${c.doc}.md has no section ${n}`,
        });
      }
    }
  }
  const headings = HEADING_LIST.exec(c.rest);
  if (headings !== null && CITED_BY_HEADING.has(c.doc)) {
    for (const q of (headings[1] ?? '').matchAll(/"([^"\n]+)"/g)) {
      const h = q[1] ?? '';
      if (!doc.headings.some((x) => x.startsWith(h))) {
        problems.push({
          at: c.at,
          message: `cites ${c.doc} "${h}", but ${PROTOCOL_DIR}/${c.doc}.md has no such heading`,
        });
      }
    }
  }
  return problems;
}

const files = listScannedFiles();
const texts = new Map(files.map((f) => [f, readFileSync(join(repoRoot, f), 'utf8')]));

describe('references point inside the repository', () => {
  it('scans the source, tests, scripts, benchmarks and documentation', () => {
    expect(files.length).toBeGreaterThan(300);
    for (const must of ['src/core/hash/unicum.ts', 'README.md', `${PROTOCOL_DIR}/contract-id.md`]) {
      expect(files).toContain(must);
    }
  });

  it('cites no document outside the repository', () => {
    const problems = files.flatMap((f) => findOutsideReferences(f, texts.get(f) ?? ''));
    expect(problems.map((p) => `${p.at}: ${p.message}`)).toEqual([]);
  });

  it('cites only sections and headings the protocol documents have', () => {
    const citations = files.flatMap((f) => findCitations(f, texts.get(f) ?? ''));
    expect(citations.length).toBeGreaterThan(300);
    const problems = citations.flatMap(checkCitation);
    expect(problems.map((p) => `${p.at}: ${p.message}`)).toEqual([]);
  });

  it('numbers the sections of the protocol documents as "## N. Title"', () => {
    const docs = readdirSync(join(repoRoot, PROTOCOL_DIR))
      .filter((n) => n.endsWith('.md'))
      .map((n) => n.slice(0, -3));
    expect(docs.sort()).toEqual([...SHORT_NAMES].sort());
    for (const name of docs) {
      const doc = protocolDoc(name);
      expect(doc, name).not.toBeNull();
      if (CITED_BY_HEADING.has(name)) continue;
      expect(doc?.unnumbered, `${name}.md: headings without a number`).toEqual([]);
      expect(doc?.sections.size ?? 0, name).toBeGreaterThan(5);
    }
  });

  it('detects what it is meant to detect', () => {
    const outside = [
      'see spec/contract-id.md §4',
      'design/style.md "Errors"',
      'from ../shared/spec/blob-format.md',
      'read ../shared/dars',
    ].map((line) => findOutsideReferences('src/x.ts', line).length);
    expect(outside).toEqual([1, 1, 1, 1]);
    expect(findOutsideReferences('test/x.ts', 'read ../shared/dars and ../shared/vectors')).toEqual([]);
    expect(findOutsideReferences('test/x.ts', 'load ../shared/spec/ledger-api/openapi.yaml')).toEqual([]);
    expect(findOutsideReferences('src/x.ts', 'load ../shared/spec/ledger-api/openapi.yaml').length).toBe(1);
    expect(findOutsideReferences('src/x.ts', 'docs/protocol/contract-id.md §4')).toEqual([]);

    const check = (file: string, line: string): number =>
      findCitations(file, line).flatMap(checkCitation).length;
    expect(check('src/x.ts', '(docs/protocol/contract-id.md §6.4, §99)')).toBe(1);
    expect(check('src/x.ts', '(docs/protocol/contract-id.md §6.4; api-decisions §4b)')).toBe(0);
    expect(check('src/x.ts', 'api-decisions §9')).toBe(1);
    expect(check('src/x.ts', 'docs/protocol/public-api.md "Limits", "Pool state"')).toBe(0);
    expect(check('src/x.ts', 'docs/protocol/public-api.md "No such heading"')).toBe(1);
    expect(check('docs/x.md', '[x](protocol/dar-format.md) §6.3, §6.9')).toBe(1);
    expect(check('src/x.ts', '(docs/protocol/nothing.md)')).toBe(1);
    expect(check('src/x.ts', ' * (docs/protocol/blob-format.md\n * §2.9)')).toBe(1);
  });
});
