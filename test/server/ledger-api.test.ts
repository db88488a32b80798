/**
 * The reference server's Canton JSON Ledger API v2 (src/server/ledger-api/) on the real simulated
 * ledger, over HTTP on a free port, with traffic (swaps, a liquidity change and a retired pool
 * archive and create reserve contracts). Every answer is checked against Canton's OpenAPI document
 * (helpers/ledger-api.ts `call`). What is checked: the ledger end moves with every ledger update;
 * an archived contract shows its archive event at the archiving update's offset; the active
 * contracts at an offset are exactly the live reserve contracts at that offset; the update stream
 * after an offset, applied to the active contracts there, gives the active contracts at the end;
 * the created event's blob is byte for byte the blob `/pools/proof` serves and its contract ID
 * recomputes (with the auditor party as an observer).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyContractId } from '../../src/core/hash/verify-contract-id.js';
import { RESERVE_TYPE_ENV } from '../../src/sim/mint.js';
import { RESERVE_PACKAGE_ID, RESERVE_PACKAGE_NAME } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { LEDGER_OPENAPI_SKIP_REASON } from '../helpers/ledger-openapi.js';
import {
  AUDITOR,
  call,
  checkedAnswers,
  eventFormat,
  type LedgerServer,
  ledgerOpenApi,
  startLedgerServer,
  tokenFor,
  updateFormat,
} from './helpers/ledger-api.js';

const TEMPLATE = `${RESERVE_PACKAGE_ID}:Amm.Pool:PoolReserve`;
const TEMPLATE_BY_NAME = `#${RESERVE_PACKAGE_NAME}:Amm.Pool:PoolReserve`;

type Created = {
  offset: number;
  nodeId: number;
  contractId: string;
  templateId: string;
  createdEventBlob: string;
  witnessParties: string[];
  signatories: string[];
  observers: string[];
  createArgument: Record<string, unknown>;
};
type Archived = { offset: number; nodeId: number; contractId: string; witnessParties: string[] };
type AcsEntry = { contractEntry: { JsActiveContract: { createdEvent: Created } } };
type UpdateEntry = {
  update: {
    Transaction: {
      value: {
        offset: number;
        updateId: string;
        events: ({ CreatedEvent: Created } | { ArchivedEvent: Archived })[];
      };
    };
  };
};
type Proof = {
  data: {
    pools: { pool_id: string; reserve_contract: { contract_id: string; created_event_blob: string } }[];
  };
};

let L: LedgerServer;
let token: string;

beforeAll(async () => {
  L = await startLedgerServer();
  token = await tokenFor([AUDITOR]);
});
afterAll(async () => {
  await L.close();
});

const rng = createSeededRng('ledger-api-traffic');
function traffic(swaps: number): void {
  let done = 0;
  for (let i = 0; done < swaps && i < swaps * 20; i++) {
    L.clock.advanceMs(1_000);
    if (simulateRandomSwap(L.ex, rng)?.status === 'executed') done++;
  }
  expect(done).toBe(swaps);
}

async function ledgerEnd(): Promise<number> {
  const r = await call(L.s, 'GET', '/v2/state/ledger-end', { token });
  expect(r.status).toBe(200);
  return (r.body as { offset: number }).offset;
}

async function acs(offset: number, o: { blob?: boolean; templateId?: string; tok?: string } = {}) {
  const r = await call(L.s, 'POST', '/v2/state/active-contracts', {
    token: o.tok ?? token,
    body: { activeAtOffset: offset, eventFormat: eventFormat([AUDITOR], o) },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as AcsEntry[]).map((e) => e.contractEntry.JsActiveContract.createdEvent);
}

async function proofs(): Promise<Map<string, { cid: string; blob: string }>> {
  L.clock.advanceMs(10_000); // past the 5-second window of the cached /pools/proof
  const res = await fetch(`${L.s.base}/pools/proof`);
  const p = (await res.json()) as Proof;
  return new Map(
    p.data.pools.map((x) => [
      x.pool_id,
      { cid: x.reserve_contract.contract_id, blob: x.reserve_contract.created_event_blob },
    ]),
  );
}

describe('the Ledger API of the simulated ledger', () => {
  it('says nothing was pruned (GET /v2/state/latest-pruned-offsets), in the shape of the document', async () => {
    const r = await call(L.s, 'GET', '/v2/state/latest-pruned-offsets', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ participantPrunedUpToInclusive: 0, allDivulgedContractsPrunedUpToInclusive: 0 });
    expect((await call(L.s, 'GET', '/v2/state/latest-pruned-offsets', {})).status).toBe(401);
  });

  it('GET /v2/version names the document it follows', async () => {
    const r = await call(L.s, 'GET', '/v2/version', { token });
    expect(r.status).toBe(200);
    expect((r.body as { version: string }).version).toBe('3.5.7');
  });

  it('the ledger end is the last update: one per genesis pool, then one per swap', async () => {
    const pools = L.ex.pools().length;
    expect(await ledgerEnd()).toBe(pools);
    traffic(3);
    expect(await ledgerEnd()).toBe(pools + 3);
  });

  it('the active contracts at the end are the live reserve contracts, blobs byte for byte as /pools/proof serves them', async () => {
    const live = await proofs();
    const end = await ledgerEnd();
    const active = await acs(end, { blob: true, templateId: TEMPLATE });
    expect(active.map((c) => c.contractId).sort()).toEqual([...live.values()].map((p) => p.cid).sort());
    for (const c of active) {
      const pool = c.createArgument.poolId as string;
      expect(c.createdEventBlob).toBe(live.get(pool)?.blob);
      expect(c.templateId).toBe(TEMPLATE);
      expect(c.witnessParties).toEqual([AUDITOR]);
      expect(c.signatories).toEqual([L.ex.operatorParty()]);
      expect(c.observers).toEqual([AUDITOR]);
      const v = verifyContractId({
        contractId: c.contractId,
        blob: c.createdEventBlob,
        types: RESERVE_TYPE_ENV,
      });
      expect(v.status, JSON.stringify(v.reasons)).toBe('verified');
      expect(v.contract?.stakeholders).toContain(AUDITOR);
    }
    // without includeCreatedEventBlob the blob is empty; the package-name reference selects the same
    const plain = await acs(end, { templateId: TEMPLATE_BY_NAME });
    expect(plain.map((c) => c.contractId)).toEqual(active.map((c) => c.contractId));
    expect(plain.every((c) => c.createdEventBlob === '')).toBe(true);
  });

  it('an archived contract shows its archive event at the offset of the update that archived it', async () => {
    const before = await proofs();
    const end0 = await ledgerEnd();
    traffic(1);
    const after = await proofs();
    const changed = [...before].filter(([pool, p]) => after.get(pool)?.cid !== p.cid);
    expect(changed.length).toBeGreaterThanOrEqual(1);
    for (const [pool, old] of changed) {
      const r = await call(L.s, 'POST', '/v2/events/events-by-contract-id', {
        token,
        body: { contractId: old.cid, eventFormat: eventFormat([AUDITOR], { blob: true }) },
      });
      expect(r.status).toBe(200);
      const ev = r.body as {
        created: { createdEvent: Created; synchronizerId: string };
        archived?: { archivedEvent: Archived; synchronizerId: string };
      };
      expect(ev.created.createdEvent.contractId).toBe(old.cid);
      expect(ev.created.createdEvent.createdEventBlob).toBe(old.blob);
      expect(ev.created.createdEvent.offset).toBeLessThanOrEqual(end0);
      expect(ev.archived?.archivedEvent.offset).toBe(end0 + 1);
      expect(ev.archived?.archivedEvent.witnessParties).toEqual([AUDITOR]);
      // its successor: created in the same update, after the archive (node order)
      const next = await call(L.s, 'POST', '/v2/events/events-by-contract-id', {
        token,
        body: { contractId: after.get(pool)?.cid, eventFormat: eventFormat([AUDITOR]) },
      });
      const created = next.body as { created: { createdEvent: Created }; archived?: unknown };
      expect(created.archived).toBeUndefined();
      expect(created.created.createdEvent.offset).toBe(end0 + 1);
      expect(created.created.createdEvent.nodeId).toBeGreaterThan(ev.archived?.archivedEvent.nodeId ?? 99);
      expect(created.created.createdEvent.createArgument.previous).toBe(old.cid);
    }
  });

  it('the active contracts at a past offset are the live contracts of that moment; the updates since lead to the end', async () => {
    const o1 = await ledgerEnd();
    const live1 = await proofs();
    traffic(4);
    L.ex.addLiquidity(L.ex.pools()[0]!.poolId, '10', '10', 'lp::1220');
    const retired = L.ex.pools().find((p) => p.active && p.poolId !== L.ex.pools()[0]!.poolId)!;
    L.ex.retirePool(retired.poolId);
    const end = await ledgerEnd();
    expect(end).toBe(o1 + 6);

    const atO1 = await acs(o1);
    expect(atO1.map((c) => c.contractId).sort()).toEqual([...live1.values()].map((p) => p.cid).sort());

    const r = await call(L.s, 'POST', '/v2/updates', {
      token,
      body: { beginExclusive: o1, updateFormat: updateFormat([AUDITOR], { templateId: TEMPLATE }) },
    });
    expect(r.status).toBe(200);
    const updates = (r.body as UpdateEntry[]).map((u) => u.update.Transaction.value);
    expect(updates.map((u) => u.offset)).toEqual([o1 + 1, o1 + 2, o1 + 3, o1 + 4, o1 + 5, o1 + 6]);
    const folded = new Set(atO1.map((c) => c.contractId));
    for (const u of updates) {
      u.events.forEach((e, i) => {
        if ('ArchivedEvent' in e) {
          expect(folded.delete(e.ArchivedEvent.contractId), 'an archive of an active contract').toBe(true);
          expect(e.ArchivedEvent.offset).toBe(u.offset);
          if (i > 0) expect(e.ArchivedEvent.nodeId).toBeGreaterThan(0);
        } else {
          expect(e.CreatedEvent.offset).toBe(u.offset);
          folded.add(e.CreatedEvent.contractId);
        }
      });
    }
    // the retirement: one archive, no create
    expect(updates.at(-1)?.events.map((e) => Object.keys(e)[0])).toEqual(['ArchivedEvent']);
    const atEnd = await acs(end);
    expect([...folded].sort()).toEqual(atEnd.map((c) => c.contractId).sort());
    const live = await proofs();
    expect(atEnd.map((c) => c.contractId).sort()).toEqual([...live.values()].map((p) => p.cid).sort());
    expect(atEnd.some((c) => c.createArgument.poolId === retired.poolId)).toBe(false);

    // /v2/updates/flats serves the same stream; endInclusive and limit bound it
    const flats = await call(L.s, 'POST', '/v2/updates/flats', {
      token,
      body: { beginExclusive: o1, updateFormat: updateFormat([AUDITOR]) },
    });
    expect(flats.body).toEqual(r.body);
    const bounded = await call(L.s, 'POST', '/v2/updates', {
      token,
      body: { beginExclusive: o1, endInclusive: o1 + 4, updateFormat: updateFormat([AUDITOR]) },
      query: '?limit=2',
    });
    expect((bounded.body as UpdateEntry[]).map((u) => u.update.Transaction.value.offset)).toEqual([
      o1 + 1,
      o1 + 2,
    ]);
    // the legacy filter form reads the same events
    const legacy = await call(L.s, 'POST', '/v2/updates', {
      token,
      body: { beginExclusive: o1, filter: eventFormat([AUDITOR]), verbose: false },
    });
    expect((legacy.body as UpdateEntry[]).length).toBe(6);
    // at the end: nothing more
    const none = await call(L.s, 'POST', '/v2/updates', {
      token,
      body: { beginExclusive: end, updateFormat: updateFormat([AUDITOR]) },
    });
    expect(none.body).toEqual([]);
  });

  it('the active contracts at offset 0 are none', async () => {
    expect(await acs(0)).toEqual([]);
  });
});

describe("answers conform to Canton's OpenAPI document", () => {
  if (ledgerOpenApi === null) {
    it.skip(LEDGER_OPENAPI_SKIP_REASON, () => {});
    return;
  }
  it('every route of the Ledger API is a path of the document', () => {
    for (const p of [
      '/v2/version',
      '/v2/state/ledger-end',
      '/v2/events/events-by-contract-id',
      '/v2/state/active-contracts',
      '/v2/updates',
      '/v2/updates/flats',
    ]) {
      expect(ledgerOpenApi?.paths).toContain(p);
    }
  });
  it('the validator refuses an answer with a misspelt or missing field (it can fail)', () => {
    const bad = { created: { createdEvent: { offset: 1 }, synchronizerId: 's' } };
    expect(
      ledgerOpenApi?.check('POST', '/v2/events/events-by-contract-id', 200, 'application/json', bad),
    ).not.toEqual([]);
    expect(
      ledgerOpenApi?.check('GET', '/v2/state/ledger-end', 200, 'application/json', { ofset: 1 }),
    ).not.toEqual([]);
    expect(
      ledgerOpenApi?.check('GET', '/v2/state/ledger-end', 200, 'application/json', { offset: '1' }),
    ).not.toEqual([]);
  });
  it('the answers above were all checked', () => {
    // (runs after the traffic tests of this file, in order)
    expect(checkedAnswers.get('POST /v2/updates 200')).toBeGreaterThan(0);
    expect(checkedAnswers.get('POST /v2/state/active-contracts 200')).toBeGreaterThan(0);
    expect(checkedAnswers.get('POST /v2/events/events-by-contract-id 200')).toBeGreaterThan(0);
    expect(checkedAnswers.get('GET /v2/version 200')).toBe(1);
  });
});
