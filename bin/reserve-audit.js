#!/usr/bin/env node
// The launcher of src/cli (built to dist/); a CLI that cannot even load is an internal error (exit 3).
import('../dist/cli/main.js').then(
  (m) => m.main(process.argv.slice(2)),
  (e) => {
    process.stderr.write(
      `reserve-audit: internal error: cannot load dist/cli/main.js (run npm run build): ${e.message}\n`,
    );
    process.exitCode = 3;
  },
);
