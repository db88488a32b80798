/**
 * `audit --ledger-api` end to end against the reference server's own JSON Ledger API (`serve
 * --ledger-api`, the simulated ledger as a participant sees it; an auditor party observer of every
 * reserve contract; HS256 tokens as `reserve-audit ledger-token` mints them). The exchange's public
 * API goes through the tampering proxy, the ledger API does not: an honest exchange is
 * ledger-confirmed (exit 0); a new, fully self-consistent contract (LP supply raised, or a forged
 * deposit) or a contract from another ledger, served everywhere, is `PROOF_NOT_ON_LEDGER` (exit 1); a
 * frozen exchange serving the proofs of contracts it has since archived is `PROOF_ARCHIVED` (exit 1);
 * a token for another party is could-not-check (exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/blob-decoder.js';
import type { PoolsProofResponse } from '../../src/core/wire/pools-proof.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { mintReserveContract } from '../../src/sim/mint.js';
import { decodeReserveCreateArg, type ReserveFields } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { mintReaderToken } from '../helpers/followed-ledger.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

const SECRET = new TextEncoder().encode('the ledger api secret of the audit e2e test');
const AUDITOR = 'auditor::1220cafe';

interface AuditDoc {
  summary: { assurance: { level: string; pools: Record<string, number> }; pools: number };
  pools: { poolId: string; assurance: string }[];
  findings: { code: string; severity: string; pool: string | null }[];
}

/** A 10-place decimal × n / d, truncated. */
function scale(amount: string, n: bigint, d: bigint): string {
  const units = (BigInt(amount.replace('.', '')) * n) / d;
  const t = units.toString().padStart(11, '0');
  return `${t.slice(0, -10)}.${t.slice(-10)}`;
}

let s: AuditServer;
let other: AuditServer;
const dir = mkdtempSync(join(tmpdir(), 'audit-ledger-server-'));

async function tokenFile(name: string, readAs: string[]): Promise<string> {
  const token = await mintReaderToken(SECRET, 'auditor-user', readAs);
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
    s.ledgerUrl,
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
  // a swap two minutes after genesis: the ledger's newest reserve contract is newer than the others
  const last = (await proofOf(s.directBase)).data.pools.at(-1)!;
  const cc = s.ex.cc();
  const buy = last.token_a_instrument.id === cc.id ? last.token_b_instrument : last.token_a_instrument;
  s.clock.advanceMs(120_000);
  const swap = s.ex.transfer({
    sender: 'alice::1220aa',
    instrument: { admin: cc.admin, id: cc.id },
    amount: '300',
    memo: buy.id,
  });
  if (swap.status !== 'executed') throw new Error(`swap ${swap.status}`);
  s.clock.advanceMs(120_000);
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

  it('a self-consistent contract from another ledger → PROOF_NOT_ON_LEDGER (exit 1)', async () => {
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
      // the auditor is a stakeholder of the foreign blob, and the server never pruned: never created here
      expect(code).toBe(1);
      expect(doc.findings.filter((f) => f.code === 'PROOF_NOT_ON_LEDGER').map((f) => f.pool)).toEqual(
        forged.map((p) => p.poolId),
      );
    } finally {
      s.setTamper(undefined);
    }
  });

  it.each([
    [
      'LP supply raised by a sixth',
      (f: ReserveFields) => ({ ...f, totalLpSupply: scale(f.totalLpSupply, 7n, 6n) }),
    ],
    [
      'a forged deposit: reserves and LP supply raised together',
      (f: ReserveFields) => ({
        ...f,
        reserveA: scale(f.reserveA, 3n, 2n),
        reserveB: scale(f.reserveB, 3n, 2n),
        totalLpSupply: scale(f.totalLpSupply, 3n, 2n),
      }),
    ],
  ])(
    'a new, fully self-consistent contract (%s), served everywhere → PROOF_NOT_ON_LEDGER (exit 1)',
    async (_what, change) => {
      const real = (await proofOf(s.directBase)).data.pools[1]!.reserve_contract;
      const c = decodeCreatedEventBlob(real.created_event_blob);
      const fields = decodeReserveCreateArg(c.createArg);
      if (fields === null) throw new Error('not a reserve contract');
      const forged = change(fields);
      // same template, parties (the auditor stays an observer) and creation time; a new valid contract ID
      const m = mintReserveContract({
        fields: forged,
        version: 'v12',
        createdAtMicros: c.createdAt,
        rng: createSeededRng('forged-contract'),
        sha256: sha256Node,
        observers: [AUDITOR],
      });
      const blob = Buffer.from(m.blob).toString('base64');
      s.setTamper((ctx) => {
        // every endpoint names the forged contract; the proof carries its blob and amounts
        let text = ctx.text.replaceAll(real.contract_id, m.contractId);
        if (ctx.path === '/pools/proof')
          text = text
            .replace(real.created_event_blob, blob)
            .replace(
              `"total_lp_supply":"${real.total_lp_supply}"`,
              `"total_lp_supply":"${forged.totalLpSupply}"`,
            )
            .replace(`"reserve_a":"${real.reserve_a}"`, `"reserve_a":"${forged.reserveA}"`)
            .replace(`"reserve_b":"${real.reserve_b}"`, `"reserve_b":"${forged.reserveB}"`);
        return text === ctx.text ? undefined : { raw: text };
      });
      try {
        const { code, doc } = await audit(await tokenFile('auditor.jwt', [AUDITOR]));
        expect(code).toBe(1);
        expect(doc.findings.filter((f) => f.code === 'PROOF_NOT_ON_LEDGER').length).toBe(1);
        // the forged proof itself verifies: the ID recomputes from the forged blob
        expect(doc.findings.map((f) => f.code)).not.toContain('PROOF_CONTRACT_ID_MISMATCH');
      } finally {
        s.setTamper(undefined);
      }
    },
  );

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
