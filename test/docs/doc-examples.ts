/**
 * Reads the documentation (README.md, docs/**\/*.md, examples/README.md) for the docs test: the shell
 * examples of fenced blocks, the relative links, the headings they may point at, and the imports of
 * code snippets. The convention the examples follow is described at the top of examples.test.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Fence languages whose `$ ` lines are commands the test runs. */
const SHELL_LANGUAGES: ReadonlySet<string> = new Set(['sh', 'bash', 'console', 'shell']);

export interface DocCommand {
  /** repo-relative path of the markdown file */
  readonly file: string;
  /** 1-based line of the `$ ` line */
  readonly line: number;
  /** the command as bash runs it (prompt, trailing comment and trailing `&` removed) */
  readonly command: string;
  /** the first line of output the document shows under the command, if any */
  readonly expected: string | null;
  readonly exitCode: number;
  /** `cmd &`: a server started in the background, kept until the file's last command */
  readonly background: boolean;
  /** `# not run: reason` */
  readonly skip: string | null;
  /** `# needs the Splice DARs`: runs only when the DARs are present */
  readonly needsDars: boolean;
}

/** A problem with the document itself (a convention broken), reported by the test. */
export interface DocProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface DocFence {
  readonly file: string;
  /** line of the opening fence */
  readonly line: number;
  readonly lang: string;
  readonly lines: readonly string[];
}

/** The benchmarks' logbook: earlier runs' output, kept as recorded. */
const HISTORY = 'docs/bench/history.md';

/** The markdown files the docs test reads, repo-relative, sorted. */
export function listDocFiles(repoRoot: string): string[] {
  const out = ['README.md'];
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(repoRoot, dir)).sort()) {
      const rel = `${dir}/${name}`;
      if (statSync(join(repoRoot, rel)).isDirectory()) walk(rel);
      // the benchmark logbook quotes past runs as they were printed (options of their day): not run
      else if (name.endsWith('.md') && rel !== HISTORY) out.push(rel);
    }
  };
  walk('docs');
  if (existsSync(join(repoRoot, 'examples', 'README.md'))) out.push('examples/README.md');
  return out;
}

/** Every fenced block of a markdown text, with its language (empty when none). */
export function parseFences(file: string, text: string): DocFence[] {
  const fences: DocFence[] = [];
  const lines = text.split('\n');
  let open: { line: number; lang: string; lines: string[] } | null = null;
  lines.forEach((raw, i) => {
    const m = /^```(\S*)\s*$/.exec(raw);
    if (open === null) {
      if (m !== null) open = { line: i + 1, lang: m[1] ?? '', lines: [] };
    } else if (m !== null && m[1] === '') {
      fences.push({ file, line: open.line, lang: open.lang, lines: open.lines });
      open = null;
    } else {
      open.lines.push(raw);
    }
  });
  return fences;
}

/** Splits `cmd   # comment` into the command and the comment (null when there is none). */
function splitComment(line: string): { command: string; comment: string | null } {
  const m = /\s+#\s(.*)$/.exec(line);
  if (m === null) return { command: line.trimEnd(), comment: null };
  return { command: line.slice(0, m.index).trimEnd(), comment: (m[1] ?? '').trim() };
}

/** The commands of one markdown file, and the places where it breaks the convention. */
export function parseDocCommands(
  file: string,
  text: string,
): { commands: DocCommand[]; problems: DocProblem[] } {
  const commands: DocCommand[] = [];
  const problems: DocProblem[] = [];
  for (const fence of parseFences(file, text)) {
    const isShell = SHELL_LANGUAGES.has(fence.lang);
    if (!isShell) {
      fence.lines.forEach((l, i) => {
        if (l.startsWith('$ ')) {
          problems.push({
            file,
            line: fence.line + 1 + i,
            message: `a "$ " command in a \`\`\`${fence.lang} block: use \`\`\`console (run) or drop the prompt`,
          });
        }
      });
      continue;
    }
    if (!fence.lines.some((l) => l.startsWith('$ '))) {
      problems.push({
        file,
        line: fence.line,
        message: `a \`\`\`${fence.lang} block without any "$ " command`,
      });
      continue;
    }
    let i = 0;
    while (i < fence.lines.length) {
      const first = fence.lines[i] ?? '';
      const line = fence.line + 1 + i;
      if (!first.startsWith('$ ')) {
        if (first.trim() !== '') {
          problems.push({ file, line, message: 'output before the first "$ " command of the block' });
        }
        i++;
        continue;
      }
      let text = first.slice(2);
      while (text.endsWith('\\') && i + 1 < fence.lines.length) {
        i++;
        text = `${text.slice(0, -1)} ${(fence.lines[i] ?? '').trim()}`;
      }
      i++;
      let expected: string | null = null;
      while (i < fence.lines.length && !(fence.lines[i] ?? '').startsWith('$ ')) {
        const out = fence.lines[i] ?? '';
        if (expected === null && out.trim() !== '') expected = out;
        i++;
      }
      const { command: rawCommand, comment } = splitComment(text);
      const background = rawCommand.endsWith('&') && !rawCommand.endsWith('&&');
      const command = background ? rawCommand.slice(0, -1).trimEnd() : rawCommand;
      const exit = comment === null ? null : /(?:^|;\s*)exit (\d+)\b/.exec(comment);
      const skip = comment === null ? null : /(?:^|;\s*)not run(?::\s*(.*))?$/.exec(comment);
      commands.push({
        file,
        line,
        command,
        expected,
        exitCode: exit === null ? 0 : Number(exit[1]),
        background,
        skip: skip === null ? null : (skip[1] ?? 'marked not run').trim() || 'marked not run',
        needsDars: comment !== null && /needs the Splice DARs?\b/.test(comment),
      });
    }
  }
  return { commands, problems };
}

/** `…` in a documented line stands for any text; everything else must match exactly. */
export function matchesExpectedLine(expected: string, actual: string): boolean {
  const parts = expected
    .trimEnd()
    .split('…')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[\\s\\S]*')}$`).test(actual.trimEnd());
}

/** The first line a command printed: stdout's, or stderr's when stdout is empty. */
export function firstOutputLine(stdout: string, stderr: string): string {
  const text = stdout.length > 0 ? stdout : stderr;
  return (text.split('\n')[0] ?? '').replace(/\r$/, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function computeHeadingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of every heading of a markdown text (duplicates numbered as GitHub does). */
export function listHeadingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const m = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m === null) continue;
    const base = computeHeadingAnchor(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    anchors.add(n === 0 ? base : `${base}-${n}`);
    seen.set(base, n + 1);
  }
  return anchors;
}

export interface DocLink {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The relative links of a markdown text (outside code): `[text](target)`, no scheme, no bare anchor. */
export function listRelativeLinks(file: string, text: string): DocLink[] {
  const links: DocLink[] = [];
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (/^```/.test(line)) {
      inFence = !inFence;
      return;
    }
    if (inFence) return;
    const noCode = line.replace(/`[^`]*`/g, '');
    for (const m of noCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ file, line: i + 1, target });
    }
  });
  return links;
}

/** `import { a, b as c } from 'spec'` statements of a code snippet. */
export function listSnippetImports(code: string): { specifier: string; names: string[] }[] {
  const out: { specifier: string; names: string[] }[] = [];
  for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    const names = (m[1] ?? '')
      .split(',')
      .map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] ?? '',
      )
      .filter((n) => n !== '');
    out.push({ specifier: m[2] ?? '', names });
  }
  for (const m of code.matchAll(/(?:import|from)\s*['"]([^'"]+)['"]/g)) {
    const specifier = m[1] ?? '';
    if (!out.some((o) => o.specifier === specifier)) out.push({ specifier, names: [] });
  }
  return out;
}

export function readDoc(repoRoot: string, file: string): string {
  return readFileSync(join(repoRoot, file), 'utf8');
}
