import { inspectDarCommand } from './src/cli/commands/inspect-dar.js';
import { typesCommand } from './src/cli/commands/types.js';
const ctx = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, cwd: process.cwd(), env: process.env };
const [cmd, ...rest] = process.argv.slice(2);
const args: Record<string, unknown> = {};
for (let i = 0; i < rest.length; i++) { const a = rest[i]!; if (a.startsWith('--')) { const n = rest[i + 1]; if (n === undefined || n.startsWith('--')) args[a.slice(2)] = true; else { args[a.slice(2)] = n; i++; } } else args.file = a; }
const c = cmd === 'types' ? typesCommand : inspectDarCommand;
console.error('exit', await c.run(args, ctx as never));
