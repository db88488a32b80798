/**
 * `audit --ledger-api` end to end against the reference server's own JSON Ledger API (`serve
 * --ledger-api`, the simulated ledger as a participant sees it; an auditor party observer of every
 * reserve contract; HS256 tokens as `reserve-audit ledger-token` mints them). The exchange's public
 * API goes through the tampering proxy, the ledger API does not: an honest exchange is
 * ledger-confirmed (exit 0); a frozen exchange serving the proofs of contracts it has since archived
 * is `PROOF_ARCHIVED` (exit 1); a self-consistent contract from another ledger is never confirmed
 * and never passes; a token for another party is could-not-check (exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoolsProofResponse } from '../../src/core/wire/pools-proof.js';
import { formatLedgerToken } from '../../src/server/ledger-api/auth.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

const SECRET = new TextEncoder().encode('the ledger api secret of the audit e2e test');
const AUDITOR = 'auditor::1220cafe';

interface AuditDoc {
  summary: { assurance: { level: string; pools: Record<string, number> }; pools: number };
  pools: { poolId: string; assurance: string }[];
  findings: { code: string; severity: string; pool: string | null }[];
}

let s: AuditServer;
let other: AuditServer;
const dir = mkdtempSync(join(tmpdir(), 'audit-ledger-server-'));

async function tokenFile(name: string, readAs: string[]): Promise<string> {
  const token = await formatLedgerToken({
    secret: SECRET,
    user: 'auditor-user',
    readAs,
    expiresInSeconds: 3600,
    nowMs: Date.now(),
  });
  const f = join(dir, name);
  writeFileSync(f, token);
  return f;
}

async function audit(file: string): Promise<{ code: number; doc: AuditDoc }> {
  const r = await runCliForTest([
    'audit',
    '--base-url',
    s.base,
    '--json',
    '--ledger-api',
    s.directBase.replace(/\/v1\/public$/, ''),
    '--ledger-party',
    AUDITOR,
    '--ledger-token-file',
    file,
  ]);
  return { code: r.code, doc: JSON.parse(r.stdout) as AuditDoc };
}

const proofOf = async (base: string): Promise<PoolsProofResponse> =>
  (await (await fetch(`${base}/pools/proof`)).json()) as PoolsProofResponse;

beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', ledger: { secret: SECRET, auditorParty: AUDITOR } });
  other = await startAuditServer({
    version: 'v12',
    seed: 'another-ledger',
    ledger: { secret: SECRET, auditorParty: AUDITOR },
  });
});
afterAll(async () => {
  await s.close();
  await other.close();
});

describe('audit --ledger-api against serve --ledger-api', () => {
  it('an honest exchange is ledger-confirmed, every pool (exit 0)', async () => {
    s.setTamper(undefined);
    const { code, doc } = await audit(await tokenFile('auditor.jwt', [AUDITOR]));
    expect(doc.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(code).toBe(0);
    expect(doc.summary.assurance.level).toBe('ledger-confirmed');
    expect(doc.summary.assurance.pools['ledger-confirmed']).toBe(doc.summary.pools);
  });

  it('a token that may not read as the party: could not check (exit 2), no error', async () => {
    s.setTamper(undefined);
    const { code, doc } = await audit(await tokenFile('other.jwt', ['someone::1220ff']));
    expect(code).toBe(2);
    expect(doc.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(doc.findings.map((f) => f.code)).toContain('LEDGER_UNAVAILABLE');
  });

  it('a self-consistent contract from another ledger is never confirmed, and the audit never passes', async () => {
    const foreign = await proofOf(other.directBase);
    s.setTamper((ctx) => {
      if (ctx.path !== '/pools/proof') return undefined;
      const doc = structuredClone(ctx.json) as PoolsProofResponse & { data: { pools: unknown[] } };
      const pools = doc.data.pools as PoolsProofResponse['data']['pools'][number][];
      const i = pools.findIndex((p) => foreign.data.pools.some((f) => f.pool_id === p.pool_id));
      const f = foreign.data.pools.find((x) => x.pool_id === pools[i]!.pool_id)!;
      pools[i] = f;
      return { json: doc };
    });
    try {
      const { code, doc } = await audit(await tokenFile('auditor.jwt', [AUDITOR]));
      expect(code).not.toBe(0);
      const forged = doc.pools.filter((p) => p.assurance !== 'ledger-confirmed');
      expect(forged.length).toBeGreaterThan(0);
      const ledgerCodes = doc.findings.filter(
        (f) => f.code.startsWith('PROOF_NOT') || f.code.startsWith('LEDGER'),
      );
      // the reference server does not say how far it pruned (no /v2/state/latest-pruned-offsets): without
      // that, a contract it does not know may be a pruned one, so it is could-not-check, not an accusation
      expect(ledgerCodes.map((f) => f.code)).toContain('LEDGER_UNAVAILABLE');
    } finally {
      s.setTamper(undefined);
    }
  });

  it('a frozen exchange serving the proofs of contracts archived since → PROOF_ARCHIVED (exit 1)', async () => {
    const old = await proofOf(s.directBase);
    const p = old.data.pools[0]!;
    const cc = s.ex.cc();
    const buy = p.token_a_instrument.id === cc.id ? p.token_b_instrument : p.token_a_instrument;
    expect(
      s.ex.transfer({
        sender: 'alice::1220aa',
        instrument: { admin: cc.admin, id: cc.id },
        amount: '500',
        memo: buy.id,
      }).status,
    ).toBe('executed');
    s.clock.advanceMs(120_000);
    s.setTamper((ctx) => (ctx.path === '/pools/proof' ? { json: old } : undefined));
    try {
      const { code, doc } = await audit(await tokenFile('auditor.jwt', [AUDITOR]));
      expect(code).toBe(1);
      const archived = doc.findings.filter((f) => f.code === 'PROOF_ARCHIVED');
      expect(archived.map((f) => f.pool)).toEqual([p.pool_id]);
    } finally {
      s.setTamper(undefined);
    }
  });
});
