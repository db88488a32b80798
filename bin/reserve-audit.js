#!/usr/bin/env node
// The launcher of src/cli, bundled to dist/bundle/ (scripts/build-cli.mjs); a CLI that cannot even load is an internal error (exit 3).
import('../dist/bundle/cli.js').then(
  (m) => m.main(process.argv.slice(2)),
  (e) => {
    process.stderr.write(
      `reserve-audit: internal error: cannot load dist/bundle/cli.js (run npm run build): ${e.message}\n`,
    );
    process.exitCode = 3;
  },
);
