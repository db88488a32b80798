/**
 * `audit --mirror` over a mirror that follows the ledger (`mirror follow`, issue 26 "history from the
 * ledger"): the reference server with its Ledger API (`serve --ledger-api`: in this process, HS256
 * tokens, an auditor party observer of every reserve contract), the command line as a user runs it.
 * Honest traffic with follow rounds between audits passes, and the coverage says how many followed
 * contracts the history saw. A pool drained and refilled between two audits on the ledger itself
 * (the operator moves reserves without LP units; both audits see honest, matching snapshots) fails the
 * next audit with the LP-share finding naming the followed contracts — once: the audit after it passes.
 * Both backends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { Dec } from '../../src/core/money/decimal.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { formatMirrorFollowArgs, mintReaderToken } from '../helpers/followed-ledger.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';
import {
  type BackendName,
  describeBackends,
  openTestMirror,
  type TestMirror,
} from '../store/store-backends.js';

const SECRET = new TextEncoder().encode('the ledger api secret of the followed history test');
const AUDITOR = 'auditor::1220f0a1';
const dir = mkdtempSync(join(tmpdir(), 'audit-followed-'));

interface Finding {
  code: string;
  severity: string;
  pool: string | null;
  message: string;
  evidence: Record<string, unknown>;
}
interface Report {
  summary: {
    outcome: string;
    coverage: {
      followed?: {
        checked: boolean;
        contracts: number;
        text: string;
        streams: {
          throughOffset: number;
          newContracts: number;
          judged: { pool: string | null; through: number }[];
        }[];
      };
    };
  };
  findings: Finding[];
}

let s: AuditServer;
let tokenFile: string;
let ledgerUrl: string;
const rng = createSeededRng('audit-followed-traffic');

beforeAll(async () => {
  tokenFile = join(dir, 'auditor.jwt');
  writeFileSync(tokenFile, await mintReaderToken(SECRET, 'auditor', [AUDITOR]));
});

/** `count` executed swaps, each after a second of ledger time (past the 5 s pool cache at the end). */
function swap(count: number): void {
  let done = 0;
  for (let tries = 0; done < count && tries < count * 20; tries += 1) {
    s.clock.advanceMs(1000);
    if (simulateRandomSwap(s.ex, rng)?.status === 'executed') done += 1;
  }
  expect(done).toBe(count);
  s.clock.advanceMs(6000);
}

describeBackends('audit --mirror over the followed ledger', (backend: BackendName) => {
  let m: TestMirror;
  // a ledger of its own per test: a fresh mirror follows the whole ledger, earlier tests' drains included
  beforeEach(async () => {
    s = await startAuditServer({
      version: 'v12',
      seed: 'audit-followed',
      ledger: { secret: SECRET, auditorParty: AUDITOR },
    });
    ledgerUrl = s.ledgerUrl;
    m = await openTestMirror(backend);
  }, 30_000);
  afterEach(async () => {
    await m.dispose();
    await s.close();
  });

  const follow = async (): Promise<void> => {
    const r = await runCliForTest([
      ...formatMirrorFollowArgs({ mirror: m.target, ledgerUrl, party: AUDITOR, tokenFile }),
      '--once',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  };
  const audit = async (): Promise<{ code: number; report: Report }> => {
    const r = await runCliForTest(['audit', '--base-url', s.base, '--mirror', m.target, '--json']);
    return { code: r.code, report: JSON.parse(r.stdout) as Report };
  };
  const errors = (r: Report): Finding[] => r.findings.filter((f) => f.severity === 'error');

  it('honest traffic, follow rounds between audits: exit 0, every followed contract counted', async () => {
    swap(6);
    await follow();
    const first = await audit();
    expect(errors(first.report)).toEqual([]);
    expect(first.code).toBe(0);
    const cov = first.report.summary.coverage.followed!;
    expect(cov.checked).toBe(true);
    expect(cov.contracts).toBeGreaterThanOrEqual(s.ex.pools().length + 6);
    expect(cov.streams[0]).toMatchObject({ newContracts: cov.contracts, throughOffset: s.ex.ledgerEnd() });
    expect(cov.streams[0]!.judged).toHaveLength(s.ex.pools().length + 1);
    expect(cov.text).toMatch(
      /^followed ledger: \d+ contracts of \d+ pools, every reserve contract up to offset \d+/,
    );
    swap(8);
    await follow();
    swap(4);
    await follow();
    const second = await audit();
    expect(errors(second.report)).toEqual([]);
    expect(second.code).toBe(0);
    const cov2 = second.report.summary.coverage.followed!;
    expect(cov2.streams[0]!.newContracts).toBeGreaterThanOrEqual(12);
    expect(cov2.contracts).toBe(cov.contracts + cov2.streams[0]!.newContracts);
    // the text report says it under the verdict
    swap(1);
    await follow();
    const text = await runCliForTest(['audit', '--base-url', s.base, '--mirror', m.target]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /\n {2}followed ledger: \d+ contracts of \d+ pools, every reserve contract up to offset/,
    );
  }, 120_000);

  it('a pool drained and refilled between two audits: the next audit exits 1 with the LP-share finding, once', async () => {
    swap(3);
    await follow();
    const before = await audit();
    expect(before.code).toBe(0);
    const pool = s.ex.pools()[0]!;
    const half = (v: string): string => new Dec(v).div(2).toFixed(10, Dec.ROUND_DOWN);
    const drained = s.ex.moveReserves(pool.poolId, half(pool.reserveA), half(pool.reserveB));
    swap(2);
    await follow();
    const now = s.ex.pools().find((p) => p.poolId === pool.poolId)!;
    s.ex.moveReserves(
      pool.poolId,
      new Dec(now.reserveA).mul(2).toFixed(10, Dec.ROUND_DOWN),
      new Dec(now.reserveB).mul(2).toFixed(10, Dec.ROUND_DOWN),
    );
    swap(2);
    await follow();
    // an audit in between whose /pools/proof fails judges no pool: could not check, and it judges nothing
    s.setTamper((ctx) => (ctx.path === '/pools/proof' ? { status: 404 } : undefined));
    const blind = await audit();
    s.setTamper(undefined);
    expect(blind.code).toBe(2);
    expect(errors(blind.report)).toEqual([]);
    const after = await audit();
    expect(after.code).toBe(1);
    const lp = errors(after.report);
    expect(lp.map((f) => f.code)).toEqual(['HISTORY_LP_SHARE_VALUE_DECREASED']);
    expect(lp[0]!.pool).toBe(pool.poolId);
    expect(lp[0]!.evidence).toMatchObject({
      source: 'followed-ledger',
      contractId: drained.reserveContract.contractId,
      party: AUDITOR,
    });
    expect(typeof lp[0]!.evidence.offset).toBe('number');
    expect(typeof lp[0]!.evidence.previousOffset).toBe('number');
    // reported once: the next audit of the same mirror passes
    swap(2);
    await follow();
    const later = await audit();
    expect(errors(later.report)).toEqual([]);
    expect(later.code).toBe(0);
  }, 120_000);

  it('a mirror that follows nothing: the coverage says the history is sampled snapshots', async () => {
    const r = await audit();
    expect(r.code).toBe(0);
    expect(r.report.summary.coverage.followed).toMatchObject({ checked: false, contracts: 0, streams: [] });
    expect(r.report.summary.coverage.followed!.text).toContain('the history is sampled snapshots');
  }, 60_000);
});
