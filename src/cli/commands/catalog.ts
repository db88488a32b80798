/**
 * The names and one-line descriptions of the CLI commands, in help order — all that `--help` and
 * the parse of a command line need before a command runs. It imports nothing, so listing the
 * commands loads none of them: ./index.ts loads the one module a command line names
 * (docs/decisions/install.md).
 */

export const COMMAND_CATALOG = {
  decode: {
    command: 'decode <blob>',
    describe: 'decode a created_event_blob (base64, @file, or - for stdin) and print it as JSON',
  },
  'verify-contract': {
    command: 'verify-contract',
    describe:
      'recompute contract IDs from created_event_blobs and compare, one or a batch (exit 0 verified, 1 mismatch, 2 could not check)',
  },
  verifier: {
    command: 'verifier',
    describe: 'write a self-contained HTML page that verifies contract IDs in any browser, offline',
  },
  'inspect-dar': {
    command: 'inspect-dar <file>',
    describe: 'list the packages of a DAR/DALF (recomputed ids, names, versions, LF) and a template’s types',
  },
  types: {
    command: 'types',
    describe: 'write the JSON type file of the data types one template reaches, read from a DAR',
  },
  serve: {
    command: 'serve',
    describe: 'run the reference server of the exchange public API (HTTP + websocket) on a simulated ledger',
  },
  'ledger-token': {
    command: 'ledger-token',
    describe: "print a bearer token (JWT) for the reference server's Ledger API (serve --ledger-api)",
  },
  audit: {
    command: 'audit',
    describe:
      "audit an exchange's published reserves over its public API (exit 0 passed, 1 failed, 2 could not check)",
  },
  snapshot: {
    command: 'snapshot',
    describe: 'record snapshots of an exchange API into the local mirror (verifying new reserve contracts)',
  },
  watch: {
    command: 'watch',
    describe:
      'the long-running auditor: scheduled snapshots and audits, Prometheus metrics, webhook alerts, a bounded mirror',
  },
  replay: {
    command: 'replay',
    describe: 're-verify every contract stored in a mirror and re-run the history checks (exit 0/1/2)',
  },
  history: {
    command: 'history',
    describe: "print one pool's recorded history from a mirror (CSV or JSON)",
  },
  mirror: {
    command: 'mirror <action>',
    describe:
      "mirror maintenance: stats (size by table, snapshots, pools, time span), prune --keep-raw <duration>, or follow --ledger-api <url> (the reserve contracts' ledger events, chain-checked)",
  },
  report: {
    command: 'report',
    describe: 'write a self-contained HTML report (latest audit, pool table, per-pool charts) from a mirror',
  },
  demo: {
    command: 'demo',
    describe: 'the main job (npm start): bundled server + pre-filled history + snapshots + a full audit',
  },
} as const;

export type CommandName = keyof typeof COMMAND_CATALOG;
