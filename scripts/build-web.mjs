// Bundles the browser pages' scripts (src/web/*/main.ts) with esbuild into dist/web/: the
// verifier (the pure core + fflate) and the report's table and charts (uPlot and its CSS). The
// CLI inlines these files into the one self-contained HTML page it writes (docs/decisions.md,
// "Browser pages are bundled at build time"). Run by `npm run build` after tsc.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');
mkdirSync(out, { recursive: true });
for (const page of ['verifier', 'report']) {
  await build({
    entryPoints: [join(root, 'src', 'web', page, 'main.ts')],
    outfile: join(out, `${page}.js`),
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    legalComments: 'inline',
    logLevel: 'warning',
  });
}
const require = createRequire(import.meta.url);
copyFileSync(require.resolve('uplot/dist/uPlot.min.css'), join(out, 'uplot.css'));
