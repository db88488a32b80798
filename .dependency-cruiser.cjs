/**
 * The layering rules of reserve-audit (docs/architecture.md), checked in CI by
 * `npm run check:deps` (dependency-cruiser). Arrows point inward only:
 *   cli → run → io / sim → core;  server → sim → core;  errors is shared by all.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles in src/ (type-only imports count: a reader follows them all the same).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core runs in a browser: no node:* built-ins.',
      from: { path: '^src/core/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'core-imports-only-core',
      severity: 'error',
      comment: 'src/core imports only src/core and src/errors (no io, run, sim, server, cli).',
      from: { path: '^src/core/' },
      to: { path: '^src/(io|run|sim|server|cli)/' },
    },
    {
      name: 'web-imports-only-core',
      severity: 'error',
      comment: 'src/web is browser code bundled into the pages: it imports only src/core and src/errors (and pure npm packages).',
      from: { path: '^src/web/' },
      to: { path: '^src/(io|run|sim|server|cli)/' },
    },
    {
      name: 'web-is-pure',
      severity: 'error',
      comment: 'src/web runs in a browser: no node:* built-ins.',
      from: { path: '^src/web/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'errors-are-leaves',
      severity: 'error',
      from: { path: '^src/errors/' },
      to: { path: '^src/(core|io|run|sim|server|cli)/' },
    },
    {
      name: 'io-is-an-edge',
      severity: 'error',
      comment: 'src/io holds edges only: it never reaches up into pipelines, the simulator, the server or the CLI.',
      from: { path: '^src/io/' },
      to: { path: '^src/(run|sim|server|cli)/' },
    },
    {
      name: 'store-plan-is-pure',
      severity: 'error',
      comment: 'src/io/store/plan is the pure half of the store (what rows a snapshot writes): no node:*, no driver, no other store module but the row types.',
      from: { path: '^src/io/store/plan/' },
      to: {
        pathNot: '^src/(core|errors)/|^src/io/store/(plan/|types\\.ts$)',
        dependencyTypesNot: ['npm'],
      },
    },
    {
      name: 'store-plan-has-no-driver',
      severity: 'error',
      from: { path: '^src/io/store/plan/' },
      to: { path: 'node_modules/(pg|better-sqlite3)/' },
    },
    {
      name: 'mirror-connection-is-private',
      severity: 'error',
      comment: 'No raw SQLite handle leaves the mirror store: only src/io/store reaches its connection.',
      from: { path: '^src/', pathNot: '^src/io/store/' },
      to: { path: '^src/io/store/mirror-db\\.ts$' },
    },
    {
      name: 'pg-connection-is-private',
      severity: 'error',
      comment: 'No raw PostgreSQL pool leaves the mirror store: only src/io/store/postgres reaches its connection module.',
      from: { path: '^src/', pathNot: '^src/io/store/postgres/' },
      to: { path: '^src/io/store/postgres/connection\\.ts$' },
    },
    {
      name: 'pg-driver-only-in-store',
      severity: 'error',
      comment: 'node-postgres is the PostgreSQL backend of the mirror: only src/io/store/postgres imports it.',
      from: { path: '^src/', pathNot: '^src/io/store/postgres/' },
      to: { path: 'node_modules/pg/' },
    },
    {
      name: 'run-below-cli',
      severity: 'error',
      comment: 'Pipelines return reports; they never import the CLI or the server.',
      from: { path: '^src/run/' },
      to: { path: '^src/(cli|server)/' },
    },
    {
      name: 'sim-below-server',
      severity: 'error',
      comment: 'The simulated ledger knows nothing of HTTP, pipelines or the CLI.',
      from: { path: '^src/sim/' },
      to: { path: '^src/(server|run|cli)/' },
    },
    {
      name: 'server-uses-exchange-view',
      severity: 'error',
      comment:
        'The server reads the simulated ledger only through its interface (sim/exchange.ts, and the injected clock); only serve.ts, the composition root, constructs it.',
      from: { path: '^src/server/', pathNot: '^src/server/serve\\.ts$' },
      to: { path: '^src/sim/', pathNot: '^src/sim/(exchange|clock)\\.ts$' },
    },
    {
      name: 'server-below-cli',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/(cli|run)/' },
    },
    {
      name: 'no-dev-dependencies-in-src',
      severity: 'error',
      comment:
        'Production code never loads a dev dependency (tsx, vitest, fast-check, ...). The optional peers ' +
        '(better-sqlite3, pg, ws: dev dependencies for the tests, optional for users) are the next rule.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['npm-peer'] },
    },
    {
      name: 'optional-peers-load-on-use',
      severity: 'error',
      comment:
        'The optional peers are imported for their types only; their code is loaded where it is used, ' +
        'through src/io/optional-package.ts, so a verify-only install needs none (docs/decisions/install.md).',
      from: { path: '^src/' },
      to: { path: 'node_modules/(better-sqlite3|pg|ws)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
