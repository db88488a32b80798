/**
 * Runs every audit check over one snapshot (the issue "reserve-audit audit"): proofs → proof ↔
 * state → /pools/info → history (when a mirror is given) → market data → probe quotes (when
 * requested) → volume and stats → tokens. Pure: the snapshot, the proof verifications and the
 * mirror history are inputs. Returns the findings, the list of checks performed, a per-pool
 * summary and the outcome (exit 0/1/2 via computeAuditOutcome).
 */

import type { ReserveProfile } from '../proof/profile.js';
import type { ReserveProof } from '../proof/reserve-proof.js';
import { parseTimestampMicros } from '../wire/timestamp.js';
import {
  type AssuranceLevel,
  computePoolAssurance,
  computeRunAssurance,
  type LedgerPoolResult,
} from './assurance.js';
import { checkCarriedProofs } from './carried-proofs.js';
import {
  checkMalformedInfoEntries,
  checkMalformedProofEntries,
  checkMalformedStateEntries,
  computeMalformedPools,
  computeStandInStates,
} from './entry-checks.js';
import type { AuditArea } from './finding.js';
import {
  AuditCollector,
  type AuditOutcome,
  type CheckOutcome,
  type AuditCollector as Collector,
  computeAuditOutcome,
  type Finding,
  makeFinding,
} from './finding.js';
import {
  checkFollowedHistory,
  type FollowedHistory,
  type FollowedStreamCoverage,
} from './followed-history-checks.js';
import {
  checkHistoryCurrent,
  checkHistoryPools,
  computeHistoryFold,
  type HistoryFold,
  type HistoryPoint,
  type KnownContract,
} from './history-checks.js';
import { checkIdentifierText } from './identifier-checks.js';
import { checkLedger } from './ledger-checks.js';
import type { LedgerEvidence } from './ledger-evidence.js';
import { formatLpShareValue } from './lp-share.js';
import { computeSnapshotStates, type MarketCacheContext } from './market-cache.js';
import {
  checkMarkets,
  checkPairs,
  checkTickers,
  computePairPools,
  type MarketCheckContext,
} from './market-checks.js';
import type { KnownReserveState } from './market-time.js';
import { checkOrderbooks } from './orderbook-checks.js';
import { checkProofs, isProofOfPool, type ProvenPool } from './proof-checks.js';
import { checkQuotes, computeKnownContracts, type KnownContractReserves } from './quote-checks.js';
import type { AuditSnapshot, Fetched, ProofSet, StateEntry } from './snapshot.js';
import { checkPoolsInfo, checkState, computeStateReserves, type PoolReserves } from './state-checks.js';
import {
  checkTickerProofs,
  computeTickerProvenContracts,
  type TickerReserveProofs,
} from './ticker-proofs.js';
import { checkStats, checkTokens, checkVolume } from './volume-checks.js';

/**
 * What the mirror kept of one pool's past (docs/mirror.md "Incremental history"): enough to
 * check the current point exactly as the whole series would.
 */
export interface PoolPast {
  /** the fold of the pool's whole series */
  readonly fold: HistoryFold;
  /** the first earlier point of the pool's current contract ID, if any */
  readonly prior: HistoryPoint | null;
  /**
   * the pool's points that can matter to the market-cache timeline, in observation order: at
   * least the first point of every contract created at or after MARKET_STATE_HORIZON_MS before
   * the snapshot and of the newest proven ones before that (the whole series will do)
   */
  readonly timeline: readonly HistoryPoint[];
}

/** A pool's past from its whole series (oldest first) and its current contract ID. */
function computePoolPast(series: readonly HistoryPoint[], currentContractId: string): PoolPast {
  return {
    fold: computeHistoryFold(series),
    prior: series.find((h) => h.contractId === currentContractId) ?? null,
    timeline: series,
  };
}

/** What the mirror knows, loaded BEFORE the current snapshot is recorded. */
export interface MirrorHistory {
  /** per pool: what the mirror kept of its past (the incremental history) */
  readonly pools?: ReadonlyMap<string, PoolPast>;
  /** per pool, oldest first: the whole series (used for pools missing from `pools`) */
  readonly series?: ReadonlyMap<string, readonly HistoryPoint[]>;
  /** mirror contracts whose IDs appear in the current proofs */
  readonly known: ReadonlyMap<string, KnownContract>;
  /** pools whose latest mirror observation had a proof → that contract id */
  readonly lastSeenPools: ReadonlyMap<string, string>;
}

export interface AuditInput {
  readonly snapshot: AuditSnapshot;
  /** the proof step's result (src/core/proof) for each `snapshot.proofs` entry, same order */
  readonly reserveProofs: readonly ReserveProof[];
  /** null when no mirror was given (history checks are skipped) */
  readonly history: MirrorHistory | null;
  readonly profile: ReserveProfile;
  /** the proof step's result for contracts of later proof sets that `snapshot.proofs` does not hold */
  readonly extraReserveProofs?: ReadonlyMap<string, ReserveProof>;
  /**
   * the proof step's result for the reserve contracts probe quotes carried with their blob
   * (contract id → the hop's pool and the proof; `computeQuoteProvenContracts`)
   */
  readonly quoteReserveProofs?: ReadonlyMap<
    string,
    { readonly poolId: string; readonly proof: ReserveProof }
  >;
  /**
   * the proof step's result for the reserve contracts tickers carried with their blob
   * (`?include_proof=true`; contract id → the ticker's pool and the proof)
   */
  readonly tickerReserveProofs?: TickerReserveProofs;
  /** what a Canton participant said about the served contracts (`audit --ledger-api`); absent: not asked */
  readonly ledger?: LedgerEvidence | null;
  /**
   * the followed ledger events the mirror holds (`mirror follow`), judged with the history when a
   * mirror is given (./followed-history-checks.ts); absent or null: none
   */
  readonly followed?: FollowedHistory | null;
  readonly options?: { readonly lpShareTolerance?: string };
}

export interface PoolSummary {
  readonly poolId: string;
  readonly symbol: string | null;
  readonly contractId: string | null;
  /**
   * @deprecated the proof step's status (`proven` there means only that the ID recomputes from
   * the blob); read `assurance`. Kept for one version (docs/findings.md "Assurance levels").
   */
  readonly proof: ProvenPool['status'] | 'missing';
  /** the assurance level reached (./assurance.ts): ledger-confirmed, id-verified, asserted, unverifiable */
  readonly assurance: AssuranceLevel;
  /** the ledger check of its contract (`not-run` without --ledger-api) */
  readonly ledger: LedgerPoolResult;
  readonly reserveA: string | null;
  readonly reserveB: string | null;
  readonly totalLpSupply: string | null;
  /** √(a·b)/L to 20 significant digits, from the proven contract */
  readonly lpShareValue: string | null;
  readonly price: string | null;
  readonly tvlCc: string | null;
  readonly checks: {
    readonly pass: number;
    readonly fail: number;
    readonly couldNotCheck: number;
    readonly skipped: number;
  };
  readonly codes: readonly string[];
}

export interface AuditResult {
  readonly outcome: AuditOutcome;
  readonly findings: readonly Finding[];
  readonly checks: readonly CheckOutcome[];
  readonly pools: readonly PoolSummary[];
  /** the run's assurance level: the weakest pool's (./assurance.ts) */
  readonly assurance: AssuranceLevel;
  /** what the followed ledger history covered, per followed stream (absent: no mirror or no stream) */
  readonly followed?: readonly FollowedStreamCoverage[];
}

function need<T>(c: Collector, area: AuditArea, name: string, section: string, f: Fetched<T>): T | null {
  if (f.ok) return f.value;
  c.couldNotCheck(
    area,
    name,
    null,
    makeFinding('FETCH_FAILED', null, `${section} could not be fetched: ${f.reason}`, {
      section,
      reason: f.reason,
    }),
  );
  return null;
}

const templateKey = (p: ProvenPool): string | null =>
  p.template === null
    ? null
    : `${p.template.packageId}:${p.template.packageName}:${p.template.moduleName}:${p.template.entityName}`;

function runHistory(
  c: Collector,
  input: AuditInput,
  proven: ReadonlyMap<string, ProvenPool>,
  malformedProofPools: ReadonlySet<string>,
): void {
  const h = input.history;
  if (h === null) {
    c.skip('history', 'history', null, 'no --mirror given');
    return;
  }
  const nowMs = Number((parseTimestampMicros(input.snapshot.fetchedAt) ?? 0n) / 1000n);
  for (const [poolId, p] of proven) {
    const past = pastOf(h, poolId, p.contractId);
    const current: HistoryPoint = {
      observedAtMs: nowMs,
      contractId: p.contractId,
      ledgerCreatedAtMicros: p.ledgerCreatedAtMicros ?? parseTimestampMicros(p.entry.ledgerCreatedAt),
      reserveA: p.fields?.reserveA ?? p.entry.reserveA,
      reserveB: p.fields?.reserveB ?? p.entry.reserveB,
      totalLpSupply: p.fields?.totalLpSupply ?? p.entry.totalLpSupply,
      proven: p.status === 'proven',
      template: templateKey(p),
      blobKey: null,
    };
    checkHistoryCurrent(
      c,
      poolId,
      past.fold,
      past.prior ?? undefined,
      current,
      input.options?.lpShareTolerance === undefined
        ? {}
        : { lpShareTolerance: input.options.lpShareTolerance },
    );
  }
  // a pool whose proof entry was malformed has not vanished: that entry is its finding already
  const lastSeen =
    malformedProofPools.size === 0
      ? h.lastSeenPools
      : new Map([...h.lastSeenPools].filter(([id]) => !malformedProofPools.has(id)));
  checkHistoryPools(c, new Map([...proven].map(([id, p]) => [id, p.contractId])), h.known, lastSeen);
}

/** The past of a pool: the incremental one when the mirror kept it, else folded from the series. */
function pastOf(h: MirrorHistory, poolId: string, contractId: string): PoolPast {
  return h.pools?.get(poolId) ?? computePoolPast(h.series?.get(poolId) ?? [], contractId);
}

const microsToMs = (m: bigint | null): number | null => (m === null ? null : Number(m / 1000n));

/**
 * The proven reserve states known per pool, oldest first (docs/findings.md "Soundness"): the
 * mirror's observations with proven reserves (known at their creation only), and every contract
 * a /pools/proof response of this audit showed (proofs before and after the market data, re-fetch
 * rounds) whose proof is proven, known current from its creation to the last response showing it.
 * Without proof sets (hand-built snapshots) the current contract is taken as current until now.
 */
export function computeReserveTimeline(
  history: MirrorHistory | null,
  proven: ReadonlyMap<string, ProvenPool>,
  proofSets: readonly ProofSet[] | null = null,
  extraProofs: ReadonlyMap<string, ReserveProof> = new Map(),
): Map<string, KnownReserveState[]> {
  const byContract = new Map<string, { poolId: string; state: KnownReserveState }>();
  const put = (poolId: string, k: KnownReserveState): void => {
    const had = byContract.get(k.contractId);
    if (had !== undefined && had.poolId !== poolId) return;
    if (had === undefined || had.state.seenUntilMs < k.seenUntilMs)
      byContract.set(k.contractId, { poolId, state: k });
  };
  for (const [poolId, p] of proven) {
    if (p.status !== 'proven' || p.fields === null) continue;
    for (const h of history === null ? [] : pastOf(history, poolId, p.contractId).timeline) {
      const at = microsToMs(h.ledgerCreatedAtMicros);
      if (!h.proven || h.contractId === null || at === null || h.reserveA === null || h.reserveB === null)
        continue;
      put(poolId, {
        contractId: h.contractId,
        createdAtMs: at,
        seenUntilMs: at,
        reserveA: h.reserveA,
        reserveB: h.reserveB,
      });
    }
  }
  const provenByContract = new Map<string, { createdAtMs: number; reserveA: string; reserveB: string }>();
  for (const p of proven.values()) {
    const at = microsToMs(p.ledgerCreatedAtMicros);
    if (p.status === 'proven' && p.fields !== null && at !== null)
      provenByContract.set(p.contractId, { createdAtMs: at, ...p.fields });
  }
  for (const [id, r] of extraProofs) {
    const at = microsToMs(r.createdAtMicros);
    if (r.status === 'proven' && r.provenFields !== null && at !== null)
      provenByContract.set(id, { createdAtMs: at, ...r.provenFields });
  }
  if (proofSets === null) {
    for (const [poolId, p] of proven) {
      const k = provenByContract.get(p.contractId);
      if (k !== undefined)
        put(poolId, {
          contractId: p.contractId,
          createdAtMs: k.createdAtMs,
          seenUntilMs: Number.MAX_SAFE_INTEGER,
          reserveA: k.reserveA,
          reserveB: k.reserveB,
        });
    }
  } else
    for (const set of proofSets)
      for (const e of set.entries) {
        const k = provenByContract.get(e.contractId);
        if (k === undefined || !proven.has(e.poolId)) continue;
        put(e.poolId, {
          contractId: e.contractId,
          createdAtMs: k.createdAtMs,
          seenUntilMs: Math.max(k.createdAtMs, set.updatedAtMs),
          reserveA: k.reserveA,
          reserveB: k.reserveB,
        });
      }
  const out = new Map<string, KnownReserveState[]>();
  for (const { poolId, state } of byContract.values()) {
    const list = out.get(poolId) ?? [];
    list.push(state);
    out.set(poolId, list);
  }
  for (const list of out.values())
    list.sort((a, b) => a.createdAtMs - b.createdAtMs || a.seenUntilMs - b.seenUntilMs);
  return out;
}

/**
 * The reserve contracts probe quotes proved themselves (their hop carried the contract's
 * created_event_blob, docs/findings.md "Soundness"), usable to recompute those quotes: the proof
 * step proved the blob (ID recomputed, template in the profile), the blob's pool is the hop's
 * pool, and the contract is not older than the pool's contract in the audit's first proof — a
 * contract superseded before the audit began cannot be the live state a quote is priced on, so it
 * stays unknown (could-not-check), never a pass.
 */
function computeQuoteProvenContracts(
  quoteProofs: ReadonlyMap<string, { readonly poolId: string; readonly proof: ReserveProof }>,
  proven: ReadonlyMap<string, ProvenPool>,
): Map<string, KnownContractReserves> {
  const out = new Map<string, KnownContractReserves>();
  for (const [contractId, { poolId, proof }] of quoteProofs) {
    const pool = proven.get(poolId);
    const f = proof.provenFields;
    if (pool === undefined || pool.status !== 'proven' || pool.fields === null) continue;
    if (proof.status !== 'proven' || f === null || proof.contractId !== contractId) continue;
    if (!isProofOfPool(f, pool.entry, poolId)) continue;
    const at = proof.createdAtMicros;
    const first = pool.ledgerCreatedAtMicros;
    if (at === null || first === null || at < first) continue;
    out.set(contractId, { poolId, reserveA: f.reserveA, reserveB: f.reserveB });
  }
  return out;
}

/** Runs all checks; never throws for a discrepancy (those are findings). */
export function runAuditChecks(input: AuditInput): AuditResult {
  const c = new AuditCollector();
  const s = input.snapshot;
  const proofs = need(c, 'proof', 'proof.fetch', '/pools/proof', s.proofs);
  const proven =
    proofs === null
      ? new Map<string, ProvenPool>()
      : checkProofs(c, proofs, input.reserveProofs, input.profile);
  const malformed = s.malformed ?? { proofs: [], state: [] };
  checkMalformedProofEntries(c, malformed.proofs);
  const state = need(c, 'state', 'state.fetch', '/pools/state', s.state);
  checkMalformedStateEntries(c, malformed.state);
  checkIdentifierText(c, s);
  const after = s.proofsAfter.ok ? s.proofsAfter.value : null;
  if (
    proofs !== null &&
    state !== null &&
    proofs.length === 0 &&
    state.length === 0 &&
    malformed.proofs.length === 0 &&
    malformed.state.length === 0
  )
    c.couldNotCheck(
      'fetch',
      'pools',
      null,
      makeFinding('NOTHING_TO_AUDIT', null, 'the exchange published no pools and no proofs', {}),
    );
  const timeline = computeReserveTimeline(
    input.history,
    proven,
    s.proofSets ?? null,
    input.extraReserveProofs,
  );
  const latestSeen =
    s.proofSets === undefined || s.proofSets.length === 0
      ? null
      : Math.max(...s.proofSets.map((x) => x.updatedAtMs));
  let reserves: Map<string, PoolReserves> | null = null;
  if (state !== null)
    reserves =
      proofs !== null
        ? checkState(c, {
            proven,
            proofsAfter: after,
            state,
            cc: s.cc,
            malformedProofPools: computeMalformedPools(malformed.proofs),
            malformedStatePools: computeMalformedPools(malformed.state),
            known: computeKnownContracts(timeline),
          })
        : computeStateReserves(state);
  const info = need(c, 'state', 'state.pools-info', '/pools/info', s.poolsInfo);
  checkMalformedInfoEntries(c, malformed.info ?? []);
  if (info !== null && reserves !== null)
    checkPoolsInfo(
      c,
      info,
      proven,
      reserves,
      [...(after ?? []), ...(s.proofSets ?? []).flatMap((x) => x.entries)],
      computeMalformedPools(malformed.info ?? []),
    );
  runHistory(c, input, proven, computeMalformedPools(malformed.proofs));
  const tolerance = input.options?.lpShareTolerance;
  const followed =
    input.history === null || input.followed == null || input.followed.streams.length === 0
      ? null
      : checkFollowedHistory(
          c,
          new Set(proven.keys()),
          input.followed,
          tolerance === undefined ? {} : { lpShareTolerance: tolerance },
        );
  const ledger =
    input.ledger == null
      ? new Map<string, LedgerPoolResult>()
      : checkLedger(c, input.ledger, proven, s.proofSets ?? [], Date.parse(s.fetchedAt));
  const tokens = need(c, 'tokens', 'tokens.listed', '/tokens/info', s.tokens);
  const volume = need(c, 'volume', 'volume', '/volume', s.volume);
  if (volume !== null) checkVolume(c, volume);
  const done = (st: readonly StateEntry[], r: ReadonlyMap<string, PoolReserves>): AuditResult => {
    const pools = summarisePools(c, proven, st, r, ledger);
    return {
      outcome: computeAuditOutcome(c.checks),
      findings: c.findings,
      checks: c.checks,
      pools,
      assurance: computeRunAssurance(pools.map((p) => p.assurance)),
      ...(followed === null ? {} : { followed }),
    };
  };
  if (reserves === null || state === null) {
    // everything below is recomputed from the pools' reserves
    for (const [area, name] of [
      ['market', 'market'],
      ['quote', 'quote'],
      ['volume', 'stats'],
      ['tokens', 'tokens.listed'],
    ] as const)
      c.couldNotCheck(
        area,
        name,
        null,
        makeFinding('FETCH_FAILED', null, `${name} needs /pools/state, which could not be fetched`, {
          section: '/pools/state',
        }),
      );
    return done([], new Map());
  }
  // a proven pool whose state entry was unreadable stands in with its proven state, so the
  // exchange-wide checks below do not judge the other pools against an exchange missing a pool
  const standIns = computeStandInStates(
    proven,
    computeMalformedPools(malformed.state),
    s.tokens.ok ? s.tokens.value : null,
    s.cc,
  );
  for (const x of standIns) reserves.set(x.state.poolId, x.reserves);
  const wideState = standIns.length === 0 ? state : [...state, ...standIns.map((x) => x.state)];
  // market data
  const groups = computePairPools(reserves, s.cc);
  const markets = need(c, 'market', 'market.markets', '/markets/info', s.markets);
  if (markets !== null) checkMarkets(c, markets, reserves);
  // the contracts tickers named (proven by a proof of the audit or by the blob the ticker carried)
  const tickerProofs = input.tickerReserveProofs ?? new Map();
  checkTickerProofs(c, tickerProofs);
  const named = computeTickerProvenContracts(tickerProofs, proven);
  const cache: MarketCacheContext | null =
    s.timing === undefined
      ? null
      : {
          timeline,
          timing: s.timing,
          latestSeenMs: latestSeen,
          snapshots: computeSnapshotStates(timeline, s.proofSets ?? []),
        };
  const market: MarketCheckContext = { groups, cache, cc: s.cc };
  const pairs = need(c, 'market', 'market.pairs', '/aggregator/pairs', s.pairs);
  if (pairs !== null) checkPairs(c, pairs, market);
  const tickers = need(c, 'market', 'market.ticker', '/aggregator/tickers', s.tickers);
  if (tickers !== null) checkTickers(c, tickers, market, named);
  const books = need(c, 'market', 'market.orderbook', '/aggregator/orderbook', s.orderbooks);
  if (books !== null) checkOrderbooks(c, books, market);
  // probe quotes
  if (s.quotes === null) c.skip('quote', 'quote', null, 'no --probe-quotes');
  else {
    const quotes = need(c, 'quote', 'quote.fetch', '/connect/quote', s.quotes);
    const policy = need(c, 'quote', 'quote.policy', '/exchange/info', s.policy);
    if (quotes !== null && policy !== null) {
      if (s.cc === null)
        c.couldNotCheck(
          'quote',
          'quote',
          null,
          makeFinding('QUOTE_UNAVAILABLE', null, 'the CC token is unknown (/swap/info unavailable)', {}),
        );
      else {
        // a blob the proof step could not complete leaves the quote unchecked (QUOTE_UNAVAILABLE)
        // unless a proof showed its contract
        checkCarriedProofs(c, input.quoteReserveProofs ?? new Map(), {
          area: 'quote',
          name: 'quote.proof',
          code: 'QUOTE_PROOF_INVALID',
          carrier: 'a quote',
        });
        checkQuotes(c, {
          quotes,
          reserves,
          // the contract each pool's reserves were read from: /pools/state may have named a later
          // (or earlier) contract than the first proof, and its reserves are those of that contract
          contracts: new Map(
            [...proven].map(([id, p]) => [id, reserves.get(id)?.contractId ?? p.contractId]),
          ),
          known: new Map([
            ...computeQuoteProvenContracts(input.quoteReserveProofs ?? new Map(), proven),
            ...computeKnownContracts(timeline),
          ]),
          poolsMoved: (s.proofSets ?? []).some((set) =>
            set.entries.some((e) => {
              const p = proven.get(e.poolId);
              return p !== undefined && p.contractId !== e.contractId;
            }),
          ),
          latestProofAtMs: (s.proofSets ?? []).reduce<number | null>(
            (m, set) => (m === null || set.updatedAtMs > m ? set.updatedAtMs : m),
            null,
          ),
          poolsInfo: info,
          tokens: tokens ?? [],
          cc: s.cc,
          policy,
        });
      }
    }
  }
  // stats, tokens
  const stats = need(c, 'volume', 'stats', '/stats', s.stats);
  if (stats !== null) checkStats(c, stats, volume, reserves, wideState, cache, s.cc);
  if (tokens !== null) checkTokens(c, tokens, state);
  return done(state, reserves);
}

function summarisePools(
  c: Collector,
  proven: ReadonlyMap<string, ProvenPool>,
  state: readonly StateEntry[],
  reserves: ReadonlyMap<string, PoolReserves>,
  ledger: ReadonlyMap<string, LedgerPoolResult>,
): PoolSummary[] {
  const ids = [...new Set([...state.map((s) => s.poolId), ...proven.keys()])];
  const byState = new Map(state.map((s) => [s.poolId, s]));
  const checksByPool = new Map<string | null, CheckOutcome[]>();
  for (const k of c.checks) {
    const list = checksByPool.get(k.pool);
    if (list === undefined) checksByPool.set(k.pool, [k]);
    else list.push(k);
  }
  return ids.map((id) => {
    const p = proven.get(id);
    const s = byState.get(id);
    const f = p?.fields ?? null;
    const checks = checksByPool.get(id) ?? [];
    const lp = f === null ? null : formatLpShareValue(f.reserveA, f.reserveB, f.totalLpSupply);
    return {
      poolId: id,
      symbol: s?.symbol ?? reserves.get(id)?.symbol ?? null,
      contractId: p?.contractId ?? s?.contractId ?? null,
      proof: p?.status ?? 'missing',
      assurance: computePoolAssurance(p?.status ?? 'missing', ledger.get(id) ?? 'not-run'),
      ledger: ledger.get(id) ?? 'not-run',
      reserveA: f?.reserveA ?? s?.reserveA ?? null,
      reserveB: f?.reserveB ?? s?.reserveB ?? null,
      totalLpSupply: f?.totalLpSupply ?? p?.entry.totalLpSupply ?? null,
      lpShareValue: lp,
      price: s?.price ?? null,
      tvlCc: s?.tvlCc ?? null,
      checks: {
        pass: checks.filter((k) => k.status === 'pass').length,
        fail: checks.filter((k) => k.status === 'fail').length,
        couldNotCheck: checks.filter((k) => k.status === 'could-not-check').length,
        skipped: checks.filter((k) => k.status === 'skipped').length,
      },
      codes: [...new Set(c.findings.filter((x) => x.pool === id).map((x) => x.code))],
    };
  });
}
