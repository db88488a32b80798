/**
 * TAMPER scenarios: the bundled server (v12) behind a proxy that rewrites its responses the way a
 * dishonest exchange could. Each scenario must produce its finding code and exit 1.
 * Scenarios that need history first record honest audits into a mirror. The fee scenario
 * (VOLUME_FEES_DONT_ADD_UP, some 17 s) runs in the slow suite: test/slow/audit-tamper.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob, encodeCreatedEventBlob } from '../../src/core/codec/index.js';
import { computeContractId } from '../../src/core/hash/index.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import { mintReserveContract } from '../../src/sim/mint.js';
import { decodeReserveCreateArg } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { type AuditServer, startAuditServer, type Tamper } from '../helpers/tamper.js';
import { auditCli, bump } from './tamper-audit.js';

type Rc = {
  contract_id: string;
  created_event_blob: string;
  reserve_a: string;
  reserve_b: string;
  total_lp_supply: string;
  ledger_created_at: string;
  template: { package_id: string; package_name: string; module_name: string; entity_name: string };
};
type ProofBody = {
  data: {
    pools: {
      pool_id: string;
      token_a_instrument: { id: string; admin: string };
      token_b_instrument: { id: string; admin: string };
      reserve_contract: Rc;
    }[];
  };
};
type StateBody = { data: { pools: { pool_id: string; contract_id: string }[] } };

let s: AuditServer;
let dir: string;
beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', seed: 'tamper' });
  dir = mkdtempSync(join(tmpdir(), 'audit-tamper-'));
}, 30_000);
afterAll(async () => {
  await s.close();
});

const proofs =
  (t: (b: ProofBody) => void): Tamper =>
  (ctx) => {
    if (ctx.path !== '/pools/proof') return undefined;
    const b = ctx.json as ProofBody;
    t(b);
    return { json: b };
  };

const audit = (tamper: Tamper | undefined, extra: string[] = []) => auditCli(s, tamper, extra);

describe('TAMPER scenarios → finding code, exit 1', () => {
  it('honest baseline passes', async () => {
    const r = await audit(undefined);
    expect(r.codes).toEqual([]);
    expect(r.code).toBe(0);
  }, 30_000);

  it('reserve changed in the JSON only → PROOF_FIELD_MISMATCH', async () => {
    const r = await audit(
      proofs((b) => {
        const rc = b.data.pools[0]!.reserve_contract;
        rc.reserve_a = bump(rc.reserve_a);
      }),
    );
    expect(r.codes).toContain('PROOF_FIELD_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('reserve changed in the blob (ID no longer matches) → PROOF_CONTRACT_ID_MISMATCH', async () => {
    const r = await audit(
      proofs((b) => {
        const rc = b.data.pools[0]!.reserve_contract;
        const bytes = Buffer.from(rc.created_event_blob, 'base64');
        const needle = Buffer.from(rc.reserve_a);
        const at = bytes.indexOf(needle);
        expect(at).toBeGreaterThan(0);
        const first = bytes[at] ?? 0x31;
        bytes[at] = first === 0x39 ? 0x38 : first + 1; // same length, another reserve
        rc.created_event_blob = bytes.toString('base64');
      }),
    );
    expect(r.codes).toContain('PROOF_CONTRACT_ID_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('a proof for another contract (blob of another pool) → PROOF_CONTRACT_ID_MISMATCH', async () => {
    const r = await audit(
      proofs((b) => {
        b.data.pools[0]!.reserve_contract.created_event_blob =
          b.data.pools[1]!.reserve_contract.created_event_blob;
      }),
    );
    expect(r.codes).toContain('PROOF_CONTRACT_ID_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('a pool missing from the proofs → POOL_MISSING_PROOF', async () => {
    const r = await audit(
      proofs((b) => {
        b.data.pools.splice(2, 1);
      }),
    );
    expect(r.codes).toContain('POOL_MISSING_PROOF');
    expect(r.code).toBe(1);
  });

  it('a swapped template (a self-consistent contract of another template) → PROOF_TEMPLATE_UNEXPECTED', async () => {
    const r = await audit(
      proofs((b) => {
        const rc = b.data.pools[0]!.reserve_contract;
        const c = decodeCreatedEventBlob(rc.created_event_blob);
        const rng = createSeededRng('swapped-template');
        const minted = computeContractId({
          contract: { ...c, templateId: { ...c.templateId, entity: ['PoolReserveLite'] } },
          version: 'v10',
          discriminator: rng.bytes(32),
          salt: rng.bytes(32),
          sha256: sha256Node,
        });
        rc.contract_id = minted.contractIdHex;
        rc.created_event_blob = Buffer.from(encodeCreatedEventBlob(minted.contract)).toString('base64');
        rc.template.entity_name = 'PoolReserveLite';
      }),
    );
    expect(r.codes).toContain('PROOF_TEMPLATE_UNEXPECTED');
    expect(r.code).toBe(1);
  });

  it('a swapped template in the JSON only → PROOF_FIELD_MISMATCH', async () => {
    const r = await audit(
      proofs((b) => {
        b.data.pools[0]!.reserve_contract.template.package_name = 'amm-pools-v2';
      }),
    );
    expect(r.codes).toContain('PROOF_FIELD_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('state reserves off the proof of the same contract → STATE_PROOF_MISMATCH', async () => {
    const r = await audit((ctx) => {
      if (ctx.path !== '/pools/state') return undefined;
      const st = ctx.json as { data: { pools: { reserve_b: string }[] } };
      st.data.pools[0]!.reserve_b = bump(st.data.pools[0]!.reserve_b);
      return { json: st };
    });
    expect(r.codes).toContain('STATE_PROOF_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('a ticker off the reserves → TICKER_MISMATCH', async () => {
    const r = await audit((ctx) => {
      if (ctx.path !== '/aggregator/tickers') return undefined;
      const t = ctx.json as { last_price: number }[];
      t[0]!.last_price *= 1.01;
      return { json: t };
    });
    expect(r.codes).toContain('TICKER_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('an orderbook off the formula → ORDERBOOK_MISMATCH', async () => {
    const r = await audit((ctx) => {
      if (ctx.path !== '/aggregator/orderbook') return undefined;
      const o = ctx.json as { asks: [number, number][] };
      o.asks[3]![1] *= 1.05;
      return { json: o };
    });
    expect(r.codes).toContain('ORDERBOOK_MISMATCH');
    expect(r.code).toBe(1);
  });

  it('a quote more generous than the reserves allow → QUOTE_TOO_GENEROUS', async () => {
    const r = await audit(
      (ctx) => {
        if (ctx.path !== '/connect/quote' || ctx.status !== 200) return undefined;
        const q = ctx.json as { returned: { amount: string } };
        q.returned.amount = bump(q.returned.amount);
        return { json: q };
      },
      ['--probe-quotes'],
    );
    expect(r.codes).toContain('QUOTE_TOO_GENEROUS');
    expect(r.code).toBe(1);
  });

  describe('with a mirror', () => {
    let mirror: string;
    let oldProof: ProofBody['data']['pools'][number];
    beforeAll(async () => {
      mirror = join(dir, 'history.sqlite');
      const first = await audit(undefined, ['--mirror', mirror]);
      expect(first.code).toBe(0);
      const body = (await (await fetch(`${s.directBase}/pools/proof`)).json()) as ProofBody;
      oldProof = structuredClone(body.data.pools[0]!);
      // a swap moves pool 0 to a new contract; the mirror records it
      s.clock.advanceMs(120_000);
      const cc = s.ex.cc();
      const buy =
        oldProof.token_a_instrument.id === cc.id ? oldProof.token_b_instrument : oldProof.token_a_instrument;
      const res = s.ex.transfer({
        sender: 'alice::1220aa',
        instrument: { admin: cc.admin, id: cc.id },
        amount: '500',
        memo: buy.id,
      });
      expect(res.status).toBe('executed');
      s.clock.advanceMs(120_000);
      const second = await audit(undefined, ['--mirror', mirror]);
      expect(second.codes).toEqual([]);
      expect(second.code).toBe(0);
    }, 60_000);

    it('a stale proof older than the mirror → HISTORY_STALE_PROOF', async () => {
      const r = await audit(
        proofs((b) => {
          const i = b.data.pools.findIndex((p) => p.pool_id === oldProof.pool_id);
          b.data.pools[i] = structuredClone(oldProof);
        }),
        ['--mirror', mirror],
      );
      expect(r.codes).toContain('HISTORY_STALE_PROOF');
      expect(r.code).toBe(1);
    });

    it('a reused contract ID (one pool’s contract served for another) → HISTORY_CONTRACT_REUSED', async () => {
      const r = await audit(
        proofs((b) => {
          const p1 = b.data.pools[1]!;
          b.data.pools[2]!.reserve_contract = structuredClone(p1.reserve_contract);
        }),
        ['--mirror', mirror],
      );
      expect(r.codes).toContain('HISTORY_CONTRACT_REUSED');
      expect(r.code).toBe(1);
    });

    it('LP-share value decreasing (a fabricated but consistent contract) → HISTORY_LP_SHARE_VALUE_DECREASED', async () => {
      const r = await audit(
        (ctx) => {
          if (ctx.path !== '/pools/proof' && ctx.path !== '/pools/state') return undefined;
          if (ctx.path === '/pools/state') {
            const st = ctx.json as StateBody;
            st.data.pools[1]!.contract_id = fabricated.contractId;
            return { json: st };
          }
          const b = ctx.json as ProofBody;
          const rc = b.data.pools[1]!.reserve_contract;
          if (fabricated.contractId === '') fabricate(rc);
          rc.contract_id = fabricated.contractId;
          rc.created_event_blob = fabricated.blob;
          rc.total_lp_supply = fabricated.lp;
          rc.ledger_created_at = fabricated.at;
          return { json: b };
        },
        ['--mirror', mirror],
      );
      expect(r.codes).toContain('HISTORY_LP_SHARE_VALUE_DECREASED');
      expect(r.code).toBe(1);
    });
  });
});

const fabricated = { contractId: '', blob: '', lp: '', at: '' };
/** Mints a valid contract for the same pool with twice the LP supply (value per share halves). */
function fabricate(rc: Rc): void {
  const c = decodeCreatedEventBlob(rc.created_event_blob);
  const f = decodeReserveCreateArg(c.createArg);
  if (f === null) throw new Error('not a reserve');
  const lp = (BigInt(rc.total_lp_supply.replace('.', '')) * 2n).toString();
  const lpText = `${lp.slice(0, -10)}.${lp.slice(-10)}`;
  const at = c.createdAt + 60_000_000n;
  const m = mintReserveContract({
    fields: { ...f, totalLpSupply: lpText, sequence: f.sequence + 1n },
    version: 'v12',
    createdAtMicros: at,
    rng: createSeededRng('fabricate'),
    sha256: sha256Node,
  });
  fabricated.contractId = m.contractId;
  fabricated.blob = Buffer.from(m.blob).toString('base64');
  fabricated.lp = lpText;
  fabricated.at = new Date(Number(at / 1000n))
    .toISOString()
    .replace('Z', `${(at % 1000n).toString().padStart(3, '0')}+00:00`);
}
