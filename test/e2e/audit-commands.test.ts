/**
 * The mirror commands on a real recorded history: two honest audits around a swap, then
 * `history` (CSV and JSON), `report --html` (self-contained page, uPlot inlined), and `replay`
 * (exit 0; exit 1 after a stored reserve is tampered with in the mirror; exit 2 without a mirror).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Agent, type Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/cli/exit-codes.js';
import { createHttpClient } from '../../src/io/http/index.js';
import { runAudit } from '../../src/run/audit.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

let s: AuditServer;
let dir: string;
let mirror: string;
let poolId: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'commands' });
  dir = mkdtempSync(join(tmpdir(), 'audit-cmd-'));
  mirror = join(dir, 'm.sqlite');
  expect((await runAudit({ baseUrl: s.base, mirrorPath: mirror, exitCodeOf })).summary.exitCode).toBe(0);
  const p = s.ex.pools()[0]!;
  poolId = p.poolId;
  const cc = s.ex.cc();
  s.clock.advanceMs(120_000);
  const buy = p.tokenA.id === cc.id ? p.tokenB : p.tokenA;
  expect(
    s.ex.transfer({
      sender: 'bob::1220bb',
      instrument: { admin: cc.admin, id: cc.id },
      amount: '300',
      memo: buy.id,
    }).status,
  ).toBe('executed');
  s.clock.advanceMs(120_000);
  expect((await runAudit({ baseUrl: s.base, mirrorPath: mirror, exitCodeOf })).summary.exitCode).toBe(0);
}, 60_000);
afterAll(async () => {
  await s.close();
});

describe('runAudit in-process', () => {
  it('accepts an HTTP client over a custom undici dispatcher instead of the default one', async () => {
    const urls: string[] = [];
    const agent = new Agent();
    const recording = agent.compose(
      (dispatch: Dispatcher.Dispatch): Dispatcher.Dispatch =>
        (opts, handler) => {
          urls.push(new URL(opts.path, String(opts.origin)).href);
          return dispatch(opts, handler);
        },
    );
    const client = createHttpClient({ dispatcher: recording });
    const r = await runAudit({ baseUrl: s.base, client, exitCodeOf }).finally(() => agent.close());
    expect(r.summary.exitCode).toBe(0);
    expect(urls[0]).toBe(`${s.base}/pools/proof`);
    expect(urls.length).toBeGreaterThan(10);
  });
});

describe('history', () => {
  it('prints CSV with a header and one row per observation', async () => {
    const r = await runCliForTest(['history', '--mirror', mirror, '--pool', poolId]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time,contract_id,reserve_a,reserve_b,price,tvl_cc,total_lp_supply,lp_share_value,verification',
    );
    expect(lines).toHaveLength(3);
    const [first, second] = [lines[1]!.split(','), lines[2]!.split(',')];
    expect(first[1]).not.toBe(second[1]); // the swap made a new contract
    expect(first[8]).toBe('verified');
    expect(Number(second[7])).toBeGreaterThan(Number(first[7])); // fees raise the LP-share value
  });
  it('prints JSON', async () => {
    const r = await runCliForTest(['history', '--mirror', mirror, '--pool', poolId, '--format', 'json']);
    const doc = JSON.parse(r.stdout) as {
      pool_id: string;
      rows: { contract_id: string; verification: string }[];
    };
    expect(doc.pool_id).toBe(poolId);
    expect(doc.rows.map((x) => x.verification)).toEqual(['verified', 'verified']);
  });
  it('an unknown pool or a missing mirror is exit 2', async () => {
    expect((await runCliForTest(['history', '--mirror', mirror, '--pool', 'nope'])).code).toBe(2);
    expect(
      (await runCliForTest(['history', '--mirror', join(dir, 'none.sqlite'), '--pool', poolId])).code,
    ).toBe(2);
  });
});

describe('report', () => {
  it('writes one self-contained HTML page: verdict, pool table, chart data, uPlot inlined', async () => {
    const out = join(dir, 'r.html');
    const r = await runCliForTest(['report', '--mirror', mirror, '--html', out]);
    expect(r.code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toMatch(/<section id="verdict" class="verdict passed" data-outcome="passed"/);
    const active = s.ex.pools().filter((p) => p.active).length;
    expect((html.match(/<tr class="[a-z]*" data-pool=/g) ?? []).length).toBe(active);
    expect(html).toContain(`id="pool-${poolId}"`);
    const data = JSON.parse(
      html.slice(html.indexOf('id="report-data">') + 17, html.indexOf('</script>')),
    ) as Record<string, { t: number[] }>;
    expect(data[poolId]?.t.length).toBeGreaterThan(1);
    expect(html).toContain('.uplot'); // uPlot's stylesheet (and its code) inlined
    // nothing external: no link/src/import/url(), and every href is an in-page anchor
    expect(html).not.toMatch(/<link|\ssrc=|@import|url\((?!data:)/);
    for (const m of html.matchAll(/href="([^"]*)"/g)) expect(m[1]).toMatch(/^#/);
  });
});

describe('audit --html', () => {
  it('writes the report of this audit, its numbers those of --json, without a mirror too', async () => {
    for (const withMirror of [false, true]) {
      const out = join(dir, `audit-${withMirror}.html`);
      const r = await runCliForTest([
        'audit',
        '--base-url',
        s.base,
        '--json',
        '--html',
        out,
        ...(withMirror ? ['--mirror', join(dir, 'html-mirror.sqlite')] : []),
      ]);
      expect(r.code, r.stderr).toBe(0);
      const sum = (JSON.parse(r.stdout) as { summary: { pools: number; proofsProven: number } }).summary;
      const html = readFileSync(out, 'utf8');
      expect(html).toContain(
        `data-outcome="passed" data-pools="${sum.pools}" data-proofs-proven="${sum.proofsProven}"`,
      );
      expect((html.match(/<tr class="[a-z]*" data-pool=/g) ?? []).length).toBe(sum.pools);
    }
  });
  it('an unwritable --html / --out path is exit 2, naming the option (not an internal error)', async () => {
    const bad = join(dir, 'no', 'such', 'r.html');
    for (const argv of [
      ['audit', '--base-url', s.base, '--html', bad],
      ['report', '--mirror', mirror, '--html', bad],
      ['verifier', '--out', bad],
    ]) {
      const r = await runCliForTest(argv);
      expect(r.code, argv[0]).toBe(2);
      expect(r.stderr).toMatch(/OPTION_INVALID: "--(html|out)" expected a writable file path, got .*ENOENT/);
    }
  });
});

describe('replay', () => {
  it('re-verifies every stored contract and the history: exit 0', async () => {
    const r = await runCliForTest(['replay', '--mirror', mirror, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as {
      summary: { contracts: number; verified: number; mismatch: number };
    };
    expect(doc.summary.contracts).toBeGreaterThan(s.ex.pools().length - 1);
    expect(doc.summary.verified).toBe(doc.summary.contracts);
    expect(r.stderr).toMatch(/replayed \d+ contracts/);
  });
  it('--from/--to select a period; a bad time is exit 2', async () => {
    const r = await runCliForTest([
      'replay',
      '--mirror',
      mirror,
      '--from',
      '2000-01-01T00:00:00Z',
      '--to',
      '2000-01-02T00:00:00Z',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: { contracts: number } }).summary.contracts).toBe(0);
    expect((await runCliForTest(['replay', '--mirror', mirror, '--from', 'yesterday'])).code).toBe(2);
  });
  it('a stored reserve changed in the mirror → PROOF_FIELD_MISMATCH, exit 1', async () => {
    const copy = join(dir, 'tampered.sqlite');
    const db = new Database(mirror);
    await db.backup(copy);
    db.close();
    const t = new Database(copy);
    t.prepare(
      "UPDATE contracts SET reserve_a = '1.0000000000' WHERE rowid = (SELECT min(rowid) FROM contracts)",
    ).run();
    t.close();
    const r = await runCliForTest(['replay', '--mirror', copy]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('PROOF_FIELD_MISMATCH');
  });
  it('a missing mirror is exit 2', async () => {
    const r = await runCliForTest(['replay', '--mirror', join(dir, 'none.sqlite')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('MIRROR_UNAVAILABLE');
  });
});
