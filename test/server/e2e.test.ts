/**
 * End to end on H5a's real simulated ledger (createExchange over SQLite :memory:): every served
 * proof verifies with verifyContractId for contract-ID versions v10, v11 and v12, and its decoded
 * reserves equal /pools/state served at the same moment; the simulation interface executes a
 * Connect swap quoted over HTTP, which moves /pools/state and pushes a websocket update; its bad
 * input is a 4xx.
 */
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ContractIdVersion } from '../../src/core/hash/contract-id-version.js';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange, type SimulatedExchange } from '../../src/sim/ledger.js';
import { RESERVE_TYPE_ENV } from '../../src/sim/mint.js';
import { decodeReserveCreateArg } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { expectShape } from './helpers/shape.js';
import { getJson, postJson, startTestServer, type TestServer } from './helpers/start.js';
import { POOLS_PROOF, POOLS_STATE, quoteSchema } from './schemas.js';

const T0 = Date.UTC(2026, 10, 22, 3, 0, 0);
let srv: TestServer | undefined;
let closeDb: (() => void) | undefined;
afterEach(async () => {
  await srv?.close();
  expect(srv?.loggedErrors ?? []).toEqual([]);
  closeDb?.();
  srv = undefined;
});

async function realServer(
  version: ContractIdVersion,
  simulation = false,
): Promise<{ ex: SimulatedExchange; s: TestServer; clock: ReturnType<typeof createManualClock> }> {
  const db = openServerDb(':memory:');
  closeDb = () => db.close();
  const clock = createManualClock(T0);
  const ex = createExchange({
    db,
    clock,
    rng: createSeededRng(`e2e-${version}`),
    contractIdVersion: version,
    seedMarket: loadSeedMarket(),
    extraPools: 1,
  });
  srv = await startTestServer({
    exchange: ex,
    simulation: ex,
    enableSimulation: simulation,
    ws: { updateDelayMs: 10 },
  });
  return { ex, s: srv, clock };
}

type Proof = {
  data: {
    updated_at: string;
    pools: {
      pool_id: string;
      pool_cid: string;
      reserve_contract: {
        contract_id: string;
        created_event_blob: string;
        reserve_a: string;
        reserve_b: string;
        total_lp_supply: string;
        ledger_created_at: string;
      };
    }[];
  };
};
type State = {
  data: {
    updated_at: string;
    pools: { pool_id: string; contract_id: string; reserve_a: string; reserve_b: string }[];
  };
};

describe('proofs from the real simulated ledger', () => {
  it.each(['v10', 'v11', 'v12'] as const)(
    '%s: every proof verifies and matches /pools/state',
    async (version) => {
      const { s } = await realServer(version);
      const proof = (await getJson(`${s.base}/pools/proof`)).body as Proof;
      const state = (await getJson(`${s.base}/pools/state`)).body as State;
      expectShape(proof, POOLS_PROOF);
      expectShape(state, POOLS_STATE);
      expect(proof.data.updated_at).toBe(state.data.updated_at);
      expect(proof.data.pools.length).toBeGreaterThan(1);
      for (const p of proof.data.pools) {
        const rc = p.reserve_contract;
        const v = verifyContractId({
          contractId: rc.contract_id,
          blob: rc.created_event_blob,
          types: RESERVE_TYPE_ENV,
        });
        expect(v.status, JSON.stringify(v.reasons)).toBe('verified');
        expect(v.version).toBe(version);
        const fields = decodeReserveCreateArg(v.contract?.createArg ?? { kind: 'unit' });
        expect(fields?.poolId).toBe(p.pool_id);
        expect(fields?.reserveA).toBe(rc.reserve_a);
        expect(fields?.reserveB).toBe(rc.reserve_b);
        expect(fields?.totalLpSupply).toBe(rc.total_lp_supply);
        expect(Number((v.contract?.createdAt ?? 0n) / 1000n)).toBe(
          Date.parse(rc.ledger_created_at.replace('+00:00', 'Z')),
        );
        const st = state.data.pools.find((x) => x.pool_id === p.pool_id);
        expect(st?.contract_id).toBe(rc.contract_id);
        expect(p.pool_cid).toBe(rc.contract_id);
        expect([st?.reserve_a, st?.reserve_b]).toEqual([rc.reserve_a, rc.reserve_b]);
      }
    },
  );
});

describe('proof and state describe the same moment under traffic', () => {
  it('a swap between /pools/state and /pools/proof in one window does not split them', async () => {
    const { ex, s, clock } = await realServer('v12');
    const state = (await getJson(`${s.base}/pools/state`)).body as State;
    const cc = ex.cc();
    const usdcx = ex.tokens().find((t) => t.id === 'USDCx');
    if (usdcx === undefined) throw new Error('no USDCx');
    const r = ex.transfer({
      sender: `bob::1220${'ef'.repeat(32)}`,
      instrument: cc,
      amount: '5000',
      memo: usdcx.id,
    });
    expect(r.status).toBe('executed');
    const proof = (await getJson(`${s.base}/pools/proof`)).body as Proof;
    for (const p of proof.data.pools) {
      const v = verifyContractId({
        contractId: p.reserve_contract.contract_id,
        blob: p.reserve_contract.created_event_blob,
        types: RESERVE_TYPE_ENV,
      });
      expect(v.status).toBe('verified');
      const fields = decodeReserveCreateArg(v.contract?.createArg ?? { kind: 'unit' });
      const st = state.data.pools.find((x) => x.pool_id === p.pool_id);
      expect([fields?.reserveA, fields?.reserveB]).toEqual([st?.reserve_a, st?.reserve_b]);
    }
    // the next window shows the swap, again consistently
    clock.advanceMs(5_000);
    const state2 = (await getJson(`${s.base}/pools/state`)).body as State;
    const proof2 = (await getJson(`${s.base}/pools/proof`)).body as Proof;
    expect(state2.data.pools.map((p) => p.contract_id)).toEqual(
      proof2.data.pools.map((p) => p.reserve_contract.contract_id),
    );
    expect(state2.data.pools.map((p) => p.contract_id)).not.toEqual(
      state.data.pools.map((p) => p.contract_id),
    );
  });
});

describe('simulation interface + quote + websocket on the real ledger', () => {
  it('a quoted Connect swap executes, moves /pools/state, and is pushed on the websocket', async () => {
    const { ex, s, clock } = await realServer('v12', true);
    const cc = ex.cc();
    const pool = ex.pools().find((p) => p.active && (p.tokenA.id === cc.id || p.tokenB.id === cc.id));
    if (pool === undefined) throw new Error('no CC pool');
    const other = pool.tokenA.id === cc.id ? pool.tokenB : pool.tokenA;
    const symbol = `${pool.tokenA.symbol}-${pool.tokenB.symbol}`;

    const ws = new WebSocket(`${s.origin.replace('http', 'ws')}/v1/ws/public`);
    const frames: Record<string, unknown>[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ op: 'subscribe', channels: [`market.${symbol.toLowerCase()}.ticker`] }));
    const waitFor = async (pred: () => boolean): Promise<void> => {
      const end = Date.now() + 3000;
      while (!pred()) {
        if (Date.now() > end) throw new Error(`timeout: ${JSON.stringify(frames).slice(0, 500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    await waitFor(() => frames.some((f) => f.event_type === 'snapshot'));

    const q = await postJson(`${s.base}/connect/quote`, {
      sellAmount: '1000',
      sellInstrumentId: cc.id,
      sellInstrumentAdmin: cc.admin,
      buyInstrumentId: other.id,
      buyInstrumentAdmin: other.admin,
    });
    expect(q.status).toBe(200);
    expectShape(q.body, quoteSchema(true));
    const quote = q.body as { memo: string; returned: { amount: string }; pools: { pool_id: string }[] };

    const before = (await getJson(`${s.base}/pools/state`)).body as State;
    const quoteBody = JSON.stringify({
      sellAmount: '1000',
      sellInstrumentId: cc.id,
      sellInstrumentAdmin: cc.admin,
      buyInstrumentId: other.id,
      buyInstrumentAdmin: other.admin,
    });
    const t = await postJson(`${s.origin}/v1/sim/transfer`, {
      sender: 'alice::1220' + 'ab'.repeat(32),
      instrument_id: cc.id,
      instrument_admin: cc.admin,
      amount: '1000',
      memo: quote.memo,
    });
    expect(t.status).toBe(200);
    const res = t.body as { status: string; payout: { amount: string; instrument_id: string } };
    expect(res.status).toBe('executed');
    expect(res.payout.instrument_id).toBe(other.id);
    expect(res.payout.amount).toBe(quote.returned.amount);

    // the same quote body now prices against the new reserves
    const requote = await postJson(`${s.base}/connect/quote`, quoteBody);
    expect((requote.body as { returned: { amount: string } }).returned.amount).not.toBe(
      quote.returned.amount,
    );

    await waitFor(() => frames.some((f) => f.event_type === 'update'));
    const upd = frames.find((f) => f.event_type === 'update');
    expect(upd?.channel).toBe(`market.${symbol.toLowerCase()}.ticker`);

    // within the same 5 s window the state is still the cached one; after it, the new reserves
    const same = (await getJson(`${s.base}/pools/state`)).body as State;
    expect(same).toEqual(before);
    clock.advanceMs(5_000);
    const after = (await getJson(`${s.base}/pools/state`)).body as State;
    const p0 = before.data.pools.find((p) => p.pool_id === quote.pools[0]?.pool_id);
    const p1 = after.data.pools.find((p) => p.pool_id === quote.pools[0]?.pool_id);
    expect(p1?.contract_id).not.toBe(p0?.contract_id);
    expect(p1?.reserve_a).not.toBe(p0?.reserve_a);
    const tick = upd?.data as { price: string };
    const live = ex.pools().find((p) => p.poolId === pool.poolId);
    expect(Number(tick.price)).toBeCloseTo(Number(live?.reserveB) / Number(live?.reserveA), 8);
    ws.close();

    const vol = (await getJson(`${s.base}/volume`)).body as { data: { swap_count: string } };
    expect(Number(vol.data.swap_count)).toBeGreaterThanOrEqual(1);
  });

  it('simulation bad input → 4xx JSON errors', async () => {
    const { ex, s } = await realServer('v11', true);
    const pool = ex.pools()[0];
    const cases: [string, unknown, number, string][] = [
      ['/transfer', {}, 400, 'missing sender'],
      [
        '/transfer',
        { sender: 'a', instrument_id: 'Amulet', instrument_admin: 'x', amount: '-1', memo: '' },
        400,
        'invalid amount',
      ],
      [
        '/transfer',
        { sender: 'a', instrument_id: 7, instrument_admin: 'x', amount: '1', memo: '' },
        400,
        'invalid instrument_id',
      ],
      [
        '/liquidity/add',
        { pool_id: 'nope', amount_a: '1', amount_b: '1', provider: 'p' },
        404,
        'pool not found',
      ],
      [
        '/liquidity/add',
        { pool_id: pool?.poolId, amount_a: '1e5', amount_b: '1', provider: 'p' },
        400,
        'invalid amount_a',
      ],
      ['/liquidity/remove', { pool_id: pool?.poolId, provider: 'p' }, 400, 'missing lp_amount'],
      ['/transfer', 'not json', 400, 'invalid JSON body'],
    ];
    for (const [path, body, status, error] of cases) {
      const r = await postJson(`${s.origin}/v1/sim${path}`, body);
      expect([path, r.status, r.body]).toEqual([path, status, { error }]);
    }
    const refund = await postJson(`${s.origin}/v1/sim/transfer`, {
      sender: 'a',
      instrument_id: ex.cc().id,
      instrument_admin: ex.cc().admin,
      amount: '100',
      memo: 'NO-SUCH-TOKEN',
    });
    expect(refund.status).toBe(200);
    expect((refund.body as { status: string }).status).toBe('refunded');
    const add = await postJson(`${s.origin}/v1/sim/liquidity/add`, {
      pool_id: pool?.poolId,
      amount_a: '10',
      amount_b: '10',
      provider: 'lp::1220' + 'cd'.repeat(32),
    });
    expect(add.status).toBe(200);
  });
});
