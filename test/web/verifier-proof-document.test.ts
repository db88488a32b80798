/**
 * The verifier page verifies each pool of a dropped /pools/proof document with the one proof step
 * (issue 28 item 1) and reads the contract's view from the contract-ID verification that step made:
 * the view must be exactly what a pasted contract ID + blob gives, for honest and for tampered pools.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import {
  addTypeSource,
  createVerifierTypes,
  verifyPastedContract,
  verifyProofDocument,
} from '../../src/web/verifier/verify-input.js';
import { getJson, startTestServer, type TestServer } from '../server/helpers/start.js';

let srv: TestServer;
let close: () => void;
beforeAll(async () => {
  const db = openServerDb(':memory:');
  close = () => db.close();
  const exchange = createExchange({
    db,
    clock: createManualClock(Date.UTC(2026, 10, 26, 3)),
    rng: createSeededRng('verifier-proof-document'),
    seedMarket: loadSeedMarket(),
  });
  srv = await startTestServer({ exchange });
});
afterAll(async () => {
  await srv.close();
  close();
});

interface ProofBody {
  data: {
    pools: { reserve_contract: { contract_id: string; created_event_blob: string; reserve_a: string } }[];
  };
}

it('each pool: the proof step once, the contract view as a pasted contract gives it', async () => {
  const body = (await getJson(`${srv.base}/pools/proof`)).body as ProofBody;
  const pools = body.data.pools;
  expect(pools.length).toBeGreaterThan(1);
  // tamper: the first pool publishes another reserve, the second another contract ID
  const first = pools[0]?.reserve_contract;
  const second = pools[1]?.reserve_contract;
  if (first === undefined || second === undefined) throw new Error('expected two pools');
  first.reserve_a = first.reserve_a.replace(/\d$/, (d) => (d === '1' ? '2' : '1'));
  second.contract_id = `${second.contract_id.slice(0, -2)}${second.contract_id.endsWith('00') ? '11' : '00'}`;

  // the page's built-in types: the reference server's (its contract IDs are V12)
  const types = createVerifierTypes();
  addTypeSource(types, 'amm-pools.json', readFileSync('fixtures/types/amm-pools.json'));
  const views = verifyProofDocument(JSON.stringify(body), types);
  expect(views.map((v) => v.proof)).toEqual(pools.map((_, i) => (i === 1 ? 'failed' : 'proven')));
  expect(views[0]?.publishedMatches).toBe(false);
  expect(views.slice(2).every((v) => v.publishedMatches === true)).toBe(true);
  for (const [i, v] of views.entries()) {
    const rc = pools[i]?.reserve_contract;
    if (rc === undefined) throw new Error(`expected pool ${i}`);
    expect(v.contract).toEqual(verifyPastedContract(rc.contract_id, rc.created_event_blob, types));
  }
  expect(views[1]?.contract.verdict).not.toBe('verified');
  expect(views[0]?.contract.verdict).toBe('verified');
});
