// Bundles the command line (src/cli/main.ts) with esbuild into dist/bundle/, the code bin/reserve-audit.js
// loads: one file for the start (yargs and the command table) and one chunk per command, loaded only
// when a command line names it, so a command starts without resolving and compiling hundreds of
// modules (docs/decisions/install.md, docs/bench/cli.md). The optional packages (the SQLite and
// PostgreSQL drivers, the websocket server) and undici stay outside, loaded from node_modules
// by the chunks that use them. Run by `npm run build` after tsc.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');
rmSync(out, { recursive: true, force: true });
await build({
  entryPoints: { cli: join(root, 'src', 'cli', 'main.ts') },
  outdir: out,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  keepNames: true,
  external: ['better-sqlite3', 'pg', 'ws', 'undici'],
  // yargs' help layout measures text with string-width; ours needs no emoji tables (./cli-shims/)
  alias: { 'string-width': join(root, 'scripts', 'cli-shims', 'string-width.mjs') },
  // yargs (ESM) loads CommonJS helpers with require(); give the bundle one
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  legalComments: 'none',
  logLevel: 'warning',
});
