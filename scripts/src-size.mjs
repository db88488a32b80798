#!/usr/bin/env node
/**
 * The size of src/ in lines of TypeScript, generated files left out (src/**\/generated/**): the measure of
 * docs/bench/source-size.md.
 *
 *   node scripts/src-size.mjs                 # the working tree
 *   node scripts/src-size.mjs REV [REV ...]   # committed revisions (any git revision name)
 *   node scripts/src-size.mjs --log A..B      # each first-parent commit of the range with its net change
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const isCounted = (path) => path.startsWith('src/') && path.endsWith('.ts') && !path.includes('/generated/');
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', maxBuffer: 1 << 28 });
const lineCount = (text) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

function countWorkingTree(dir = 'src') {
  let lines = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) lines += countWorkingTree(path);
    else if (isCounted(path)) lines += lineCount(readFileSync(path, 'utf8'));
  }
  return lines;
}

function countRevision(rev) {
  const paths = git('ls-tree', '-r', '--name-only', rev, 'src').split('\n').filter(isCounted);
  return paths.reduce((sum, path) => sum + lineCount(git('show', `${rev}:${path}`)), 0);
}

/** Net lines each first-parent commit of `range` added to the counted files (a merge counts as one change). */
function logRange(range) {
  const out = git(
    'log',
    '--reverse',
    '--first-parent',
    '--diff-merges=first-parent',
    '--no-renames',
    '--format=@%h %s',
    '--numstat',
    range,
    '--',
    'src',
  );
  let current = null;
  const rows = [];
  for (const line of out.split('\n')) {
    if (line.startsWith('@')) {
      current = { head: line.slice(1, 100), net: 0 };
      rows.push(current);
    } else if (current !== null) {
      const [added, deleted, path] = line.split('\t');
      if (path !== undefined && isCounted(path) && added !== '-')
        current.net += Number(added) - Number(deleted);
    }
  }
  for (const row of rows) {
    process.stdout.write(`${String(row.net >= 0 ? `+${row.net}` : row.net).padStart(7)}  ${row.head}\n`);
  }
}

process.stdout.on('error', () => process.exit(0)); // a closed pipe (| head) ends the listing quietly
const args = process.argv.slice(2);
if (args[0] === '--log') {
  if (args[1] === undefined) throw new Error('expected a range after --log (A..B), got nothing');
  logRange(args[1]);
} else if (args.length === 0) {
  process.stdout.write(`${countWorkingTree()}  working tree\n`);
} else {
  for (const rev of args) process.stdout.write(`${countRevision(rev)}  ${rev}\n`);
}
