/**
 * The `audit` pipeline (the issue "reserve-audit audit"), one straight line: fetch a snapshot
 * (the one HTTP client, src/io/http) → the proof step for every proof (src/core/proof: decode →
 * type → hash → compare → reserves via the profile) → the pool history from the mirror → the pure
 * checks (src/core/audit) → the report → record the snapshot and the audit run in the mirror.
 * `runAudit` is the in-process entry point (the `audit` command, the demo, the library); it
 * returns a report, never writes to stdout and never decides an exit code.
 */

import type { AssuranceLevel } from '../core/audit/assurance.js';
import type { FollowedHistory } from '../core/audit/followed-history-checks.js';
import {
  type AuditCoverage,
  type AuditOutcome,
  type AuditResult,
  type AuditSnapshot,
  type CheckCounts,
  computeAssuranceCounts,
  computeAuditCoverage,
  computeAuditExitCode,
  computeAuditSnapshot,
  computeCheckCounts,
  computeFindingCounts,
  EMPTY_HISTORY_FOLD,
  type FindingCounts,
  type HistoryPoint,
  type KnownContract,
  MARKET_STATE_HORIZON_MS,
  type MirrorHistory,
  type PoolPast,
  PUBLISHED_MAX_AGE_SECONDS,
  runAuditChecks,
} from '../core/audit/index.js';
import type { LedgerEvidence } from '../core/audit/ledger-evidence.js';
import { createProofContext } from '../core/proof/proof-context.js';
import { type ReserveProof, verifyReserveProof } from '../core/proof/reserve-proof.js';
import { type ApiDialect, type ApiSnapshot, computeApiDialect, type ProbeQuote } from '../core/wire/index.js';
import { loadTypesOrDefault, type TypeSources } from '../io/files/default-types.js';
import { loadReserveProfile, type ReserveProfileSource } from '../io/files/profile-file.js';
import {
  type BaseUrl,
  createHttpClient,
  fetchSnapshot,
  type HttpClient,
  type HttpClientOptions,
  parseBaseUrl,
  type RefetchResult,
  type RequestCounts,
  refetchMarketData,
} from '../io/http/index.js';
import {
  createLedgerClient,
  type LedgerAnswer,
  type LedgerClient,
  readLedgerEvidence,
  startActiveReserveRead,
} from '../io/ledger-api/index.js';
import type { LedgerCreatedEvent } from '../io/ledger-api/parse-ledger.js';
import { sha256Node } from '../io/node-sha256.js';
import {
  type ContractVerificationInput,
  computeContractVerification,
  type HistoryQuery,
  type MirrorStore,
  openMirrorStore,
  resolveMirrorTarget,
  toHistoryPoint,
} from '../io/store/index.js';
import { waitCountingDown } from './countdown.js';
import { loadFollowedHistory } from './followed-history.js';

/** The profile and the types (`profile`, `profilePath`, `typeFiles`, `dars`, `cwd`): as `loadReserveProfile` and `loadTypesOrDefault` read them. */
export interface RunAuditOptions extends ReserveProfileSource, TypeSources {
  /** e.g. http://127.0.0.1:8080/v1/public; a string is parsed once (`parseBaseUrl`): only its redacted form is ever printed or stored */
  readonly baseUrl: string | BaseUrl;
  /** mirror (SQLite file or postgres:// URL): history is read from it, then the snapshot and the run are recorded */
  readonly mirrorPath?: string | null;
  readonly probeQuotes?: boolean;
  readonly timeoutMs?: number;
  /** response body size limit in bytes (default 16 MiB) */
  readonly maxResponseBytes?: number;
  /** at most this many extra attempts of a read after a transport failure, inside --timeout (default 24) */
  readonly retries?: number;
  /** pacing: requests per second at most (default 50, src/io/http/pacer.ts) */
  readonly maxRps?: number;
  /** pacing: requests in flight at most (default 8) */
  readonly maxInFlight?: number;
  /** an HTTP client (src/io/http createHttpClient, e.g. over a custom undici dispatcher) instead of one built from the options */
  readonly client?: HttpClient;
  /**
   * check every served contract, and the completeness of the pools, against a Canton participant's
   * JSON Ledger API v2 (issue 26; docs/findings.md "Ledger checks")
   */
  readonly ledger?: RunAuditLedgerOptions | null;
  /**
   * @deprecated `summary.exitCode` is always filled from the one outcome → exit-code table
   * (`computeAuditExitCode`: 0 passed, 1 failed, 2 could not check); a map given here still
   * replaces it
   */
  readonly exitCodeOf?: (outcome: AuditOutcome) => number;
  readonly onProgress?: (message: string) => void;
  /**
   * counts while a long phase runs (the checks phase's re-fetch rounds and their waits), about once
   * a second; the CLI shows them on a terminal only, in one line rewritten in place
   */
  readonly onCount?: (message: string) => void;
  readonly now?: () => number;
}

export interface RunAuditLedgerOptions {
  /** the participant's JSON API root (the part before `/v2`); only its redacted form is shown */
  readonly baseUrl: string | BaseUrl;
  /** the bearer token (a JWT); never printed, reported or stored */
  readonly token: string | null;
  /** the party whose view is read (a stakeholder of the reserve contracts) */
  readonly party: string;
}

export interface AuditSummary {
  readonly outcome: AuditResult['outcome'];
  /** the process exit code of `outcome`: 0 passed, 1 failed, 2 could not check (`computeAuditExitCode`) */
  readonly exitCode: number;
  readonly baseUrl: string;
  readonly fetchedAt: string;
  /** which spellings of the API the exchange uses (api-decisions §10): aggregator path, market source, token id field */
  readonly api?: ApiDialect;
  readonly profile: string;
  readonly pools: number;
  /**
   * @deprecated pools whose contract ID recomputes from the blob — not proven to exist on the
   * ledger; read `proofsIdVerified` and `assurance` (kept for one version, docs/findings.md "Assurance levels")
   */
  readonly proofsProven: number;
  /** pools whose contract ID recomputes from the blob (id-verified or better) */
  readonly proofsIdVerified: number;
  /** the run's assurance level (the weakest pool's) and the pools per level */
  readonly assurance: {
    readonly level: AssuranceLevel;
    readonly pools: Readonly<Record<AssuranceLevel, number>>;
    /** the participant and party the ledger checks read through, or null without --ledger-api */
    readonly ledger: { readonly participant: string; readonly party: string } | null;
  };
  readonly checks: CheckCounts;
  readonly findings: FindingCounts;
  /** what this run covered and what it did not (quotes, history, types): a pass proves no more */
  readonly coverage: AuditCoverage;
  readonly mirror: {
    readonly path: string;
    readonly snapshotId: number | null;
    readonly auditRunId: number | null;
  } | null;
  readonly durationMs: number;
  /** what the HTTP client did: attempts sent, retried, throttled (429), failed, given up, time waited */
  readonly requests?: RequestCounts;
  /** wall time per phase: fetch (incl. profile/types loading), verify, history (mirror read), checks, record */
  readonly phasesMs?: {
    readonly fetch: number;
    readonly verify: number;
    readonly history: number;
    readonly checks: number;
    readonly record: number;
  };
}

export interface AuditReport extends AuditResult {
  readonly summary: AuditSummary;
}

/**
 * Reads what the history checks need from the mirror (before the current snapshot is recorded):
 * the incremental history (O(pools) rows: per pool its fold, the first point of its current
 * contract, its recent contracts) when the mirror's is current, else the whole series (a mirror
 * just migrated; the next recorded snapshot brings the incremental history up to date).
 * `current`: pool → its current contract ID; `startedAtMs`: when the snapshot started.
 */
export async function loadMirrorHistory(
  mirror: MirrorStore,
  current: ReadonlyMap<string, string>,
  startedAtMs: number,
  query: HistoryQuery = {},
): Promise<MirrorHistory> {
  const currentContracts = [...current.values()];
  const known = new Map<string, KnownContract>();
  const poolOf = await mirror.readContractPools(currentContracts);
  for (const id of currentContracts) {
    const poolId = poolOf.get(id);
    if (poolId !== undefined) known.set(id, { contractId: id, poolId });
  }
  const past = await mirror.readHistoryPast(current, startedAtMs - MARKET_STATE_HORIZON_MS);
  if (past !== null) {
    const pools = new Map<string, PoolPast>();
    for (const poolId of current.keys())
      pools.set(poolId, {
        fold: past.folds.get(poolId) ?? EMPTY_HISTORY_FOLD,
        prior: past.priors.get(poolId) ?? null,
        timeline: past.timelines.get(poolId) ?? [],
      });
    return { pools, known, lastSeenPools: past.lastSeenPools };
  }
  // one set-based query for the series (template included)
  const obs = await mirror.readObservationsForHistoryChecks({
    limitPerPool: Number.MAX_SAFE_INTEGER,
    ...query,
  });
  const series = new Map<string, HistoryPoint[]>();
  for (const [poolId, list] of obs) series.set(poolId, list.map(toHistoryPoint));
  const lastSeenPools = new Map<string, string>();
  for (const o of await mirror.readLatestObservations())
    if (o.contractId !== null) lastSeenPools.set(o.poolId, o.contractId);
  return { series, known, lastSeenPools };
}

/** Pool → the contract of its first proof (the one the checks use, src/core/audit/proof-checks.ts). */
function computeCurrentContracts(
  entries: readonly { readonly poolId: string; readonly contractId: string }[],
): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of entries) if (!out.has(e.poolId)) out.set(e.poolId, e.contractId);
  return out;
}

/** Re-fetch rounds for responses no seen state explains (docs/findings.md "Soundness"). */
const REFETCH_ROUNDS = 3;
/** base wait before a round, × round number, jittered ×0.5–1.5 */
const REFETCH_BACKOFF_MS = 50;
const DEFAULT_TIMEOUT_MS = 30_000;

/** The order books and probe quotes whose check could not be decided (what to fetch again). */
function computeRefetchTodo(
  r: AuditResult,
  api: ApiSnapshot,
  round: number,
): { orderbooks: { tickerId: string; depth: number }[]; quotes: ProbeQuote[]; stats: boolean } {
  const orderbooks: { tickerId: string; depth: number }[] = [];
  const probes = new Set<string>();
  let stats = false;
  for (const f of r.findings) {
    // /stats again only when it names its pool snapshot: a proof fetched with it can then show that state
    if (
      f.code === 'MARKET_DATA_STALE_UNVERIFIED' &&
      f.evidence.endpoint === '/stats' &&
      f.evidence.snapshotNamed === true
    )
      stats = true;
    if (f.code === 'MARKET_DATA_STALE_UNVERIFIED' && typeof f.evidence.tickerId === 'string') {
      const depth = typeof f.evidence.depth === 'number' && f.evidence.depth > 0 ? f.evidence.depth : 100;
      // another depth is another request: a cached book is not served again
      orderbooks.push({ tickerId: f.evidence.tickerId, depth: Math.max(2, depth - 2 * round) });
    }
    if (f.code === 'QUOTE_UNAVAILABLE' && typeof f.evidence.probe === 'string')
      probes.add(`${f.evidence.probe}\u0000${f.pool}`);
  }
  const all = api.probeQuotes?.ok === true ? api.probeQuotes.value : [];
  return { orderbooks, quotes: all.filter((q) => probes.has(`${q.kind}\u0000${q.poolId}`)), stats };
}

/**
 * How long until the newest proof snapshot (`updated_at` + the published 5 s pool cache) has
 * expired, so the next /pools/proof shows the live state; 0 when unknown or past, at most 5 s.
 */
function computeSnapshotExpiryWaitMs(s: AuditSnapshot, nowMs: number): number {
  const sets = s.proofSets ?? [];
  if (sets.length === 0) return 0;
  const latest = Math.max(...sets.map((x) => x.updatedAtMs));
  const wait = latest + PUBLISHED_MAX_AGE_SECONDS.pools * 1000 + 25 - nowMs;
  return wait > 0 && wait <= PUBLISHED_MAX_AGE_SECONDS.pools * 1000 + 25 ? wait : 0;
}

/** The snapshot with a re-fetch round folded in: newer books and quotes replace the old ones. */
function mergeRefetch(api: ApiSnapshot, got: RefetchResult): ApiSnapshot {
  const books = new Map(got.orderbooks.map((b) => [b.tickerId, b]));
  const quotes = new Map(got.quotes.map((q) => [`${q.kind}\u0000${q.poolId}`, q]));
  return {
    ...api,
    orderbooks: api.orderbooks.ok
      ? { ok: true, value: api.orderbooks.value.map((b) => books.get(b.tickerId) ?? b) }
      : api.orderbooks,
    probeQuotes:
      api.probeQuotes?.ok === true
        ? { ok: true, value: api.probeQuotes.value.map((q) => quotes.get(`${q.kind}\u0000${q.poolId}`) ?? q) }
        : api.probeQuotes,
    proofsLater: [
      ...(api.proofsLater ?? []),
      ...(got.proofsBefore === undefined ? [] : [got.proofsBefore]),
      got.proofs,
    ],
    ...(got.stats === undefined ? {} : { statsLater: got.stats }),
    raw: [...api.raw, ...got.raw],
  };
}

/** The HTTP limits the options set, for the exchange's client and the ledger's (unset: the client's defaults). */
function httpLimitsOf(o: RunAuditOptions): HttpClientOptions {
  return {
    ...(o.maxResponseBytes === undefined ? {} : { maxResponseBytes: o.maxResponseBytes }),
    ...(o.retries === undefined ? {} : { retries: o.retries }),
    ...(o.maxRps === undefined ? {} : { maxRps: o.maxRps }),
    ...(o.maxInFlight === undefined ? {} : { maxInFlight: o.maxInFlight }),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
  };
}

/** Runs one audit end to end. Throws only when the audit cannot run at all. */
export async function runAudit(o: RunAuditOptions): Promise<AuditReport> {
  const now = o.now ?? Date.now;
  const t0 = now();
  const progress = o.onProgress ?? (() => {});
  // the one place the URL enters: requests use `base.request`, everything shown or stored `base.display`
  const base = parseBaseUrl(o.baseUrl);
  const profile = await loadReserveProfile(o);
  const types = await loadTypesOrDefault(o);
  // 0. the ledger end before the fetch (--ledger-api): what the participant shows at or below it
  // happened before the exchange was asked (src/core/audit/ledger-checks.ts)
  const ledgerHttp = o.ledger == null ? null : createHttpClient(httpLimitsOf(o));
  let ledgerSide: {
    participant: BaseUrl;
    party: string;
    client: LedgerClient;
    endBeforeFetch: LedgerAnswer<number>;
    active: Promise<LedgerAnswer<LedgerCreatedEvent[]>> | null;
  } | null = null;
  if (o.ledger != null && ledgerHttp !== null) {
    const participant = parseBaseUrl(o.ledger.baseUrl);
    const client = createLedgerClient({
      baseUrl: participant,
      token: o.ledger.token,
      party: o.ledger.party,
      http: ledgerHttp,
    });
    progress(`reading the ledger end of ${participant.display}`);
    const endBeforeFetch = await client.readLedgerEnd();
    // the active reserve contracts at that end are read while the exchange is fetched
    const active = startActiveReserveRead(client, profile, endBeforeFetch);
    // awaited by the ledger read; a fetch that fails first leaves it unread (no unhandled rejection)
    active?.catch(() => {});
    ledgerSide = { participant, party: o.ledger.party, client, endBeforeFetch, active };
  }
  // 1. fetch
  progress(`fetching ${base.display}`);
  const client =
    o.client ?? createHttpClient({ ...httpLimitsOf(o), ...(o.now === undefined ? {} : { now: o.now }) });
  let api: ApiSnapshot;
  try {
    api = await fetchSnapshot({
      baseUrl: base,
      ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
      probeQuotes: o.probeQuotes === true,
      client,
      now,
    });
  } catch (e) {
    if (o.client === undefined) await client.close();
    await ledgerHttp?.close();
    throw e;
  }
  const tFetched = now();
  let snapshot = computeAuditSnapshot(api);
  const entries = snapshot.proofs.ok ? snapshot.proofs.value : [];
  // 2. decode → type → hash → compare → reserves via the profile, once per proof
  progress(`verifying ${entries.length} proofs`);
  const proofContext = createProofContext(null);
  const verify = (contractId: string, blob: string): ReserveProof =>
    verifyReserveProof({ contractId, blob, types, profile, sha256: sha256Node, context: proofContext });
  const proofs: ReserveProof[] = entries.map((p) => verify(p.contractId, p.createdEventBlob));
  // the proofs of the later /pools/proof fetches (the closing bracket, re-fetch rounds)
  const extraReserveProofs = new Map<string, ReserveProof>();
  const verifyLater = (): void => {
    const seen = new Set(entries.map((p) => p.contractId));
    for (const set of snapshot.proofSets ?? [])
      for (const e of set.entries)
        if (!seen.has(e.contractId) && !extraReserveProofs.has(e.contractId))
          extraReserveProofs.set(e.contractId, verify(e.contractId, e.createdEventBlob));
  };
  verifyLater();
  // the reserve contracts probe quotes carried with their blob (an extension some exchanges
  // publish): proven once each, so a quote priced on a contract no proof showed is still checked
  const quoteReserveProofs = new Map<string, { poolId: string; proof: ReserveProof }>();
  const verifyQuoteBlobs = (): void => {
    const seen = new Set(entries.map((p) => p.contractId));
    for (const q of api.probeQuotes?.ok === true ? api.probeQuotes.value : [])
      for (const h of q.quote?.pools ?? [])
        if (
          h.created_event_blob !== undefined &&
          !seen.has(h.contract_id) &&
          !extraReserveProofs.has(h.contract_id) &&
          !quoteReserveProofs.has(h.contract_id)
        )
          quoteReserveProofs.set(h.contract_id, {
            poolId: h.pool_id,
            proof: verify(h.contract_id, h.created_event_blob),
          });
  };
  verifyQuoteBlobs();
  // the reserve contracts tickers named with their blob (the same extension on /aggregator/tickers):
  // proven once each, so a ticker computed from a contract no proof showed is still checked exactly
  const tickerReserveProofs = new Map<string, { poolId: string; proof: ReserveProof }>();
  {
    const seen = new Set(entries.map((p) => p.contractId));
    for (const t of api.aggregatorTickers.ok ? api.aggregatorTickers.value : [])
      if (
        t.contract_id !== undefined &&
        t.created_event_blob !== undefined &&
        !seen.has(t.contract_id) &&
        !tickerReserveProofs.has(t.contract_id)
      )
        tickerReserveProofs.set(t.contract_id, {
          poolId: t.pool_id,
          proof: verify(t.contract_id, t.created_event_blob),
        });
  }
  let ledgerRead: Promise<LedgerEvidence> | null = null;
  if (ledgerSide !== null) {
    progress(
      `reading ${entries.length} contracts and the active reserves from ${ledgerSide.participant.display}`,
    );
    const side = ledgerSide;
    ledgerRead = readLedgerEvidence({
      client: side.client,
      participant: side.participant.display,
      party: side.party,
      profile,
      contracts: new Map(entries.map((p) => [p.contractId, p.createdEventBlob])),
      verify,
      endBeforeFetch: side.endBeforeFetch,
      active: side.active,
    });
  }
  const tVerified = now();
  let mirror: MirrorStore | null = null;
  try {
    // 3. the pool history
    let history: MirrorHistory | null = null;
    let followed: FollowedHistory | null = null;
    let earlierSnapshots: number | null = null;
    if (o.mirrorPath != null) {
      mirror = await openMirrorStore(resolveMirrorTarget(o.mirrorPath, o.cwd ?? process.cwd()));
      earlierSnapshots = await mirror.countSnapshots();
      const current = computeCurrentContracts(entries);
      history = await loadMirrorHistory(mirror, current, api.startedAtMs);
      // the followed ledger's every reserve contract of these pools (mirror follow), if it was followed
      followed = await loadFollowedHistory(mirror, [...current.keys()], (contractId, blob) =>
        verifyReserveProof({ contractId, blob, types, profile, sha256: sha256Node, context: proofContext }),
      );
    }
    const ledger: LedgerEvidence | null = ledgerRead === null ? null : await ledgerRead;
    const tHistory = now();
    // 4. the checks → findings; responses no seen state explains are fetched again (bounded)
    progress('running checks');
    const check = (): AuditResult =>
      runAuditChecks({
        snapshot,
        reserveProofs: proofs,
        history,
        profile,
        extraReserveProofs,
        quoteReserveProofs,
        tickerReserveProofs,
        ledger,
        followed,
      });
    let result = check();
    // re-fetch rounds get one --timeout after the fetch (a paced or retried fetch may take longer)
    const deadline = tFetched + (o.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    try {
      for (let round = 1; round <= REFETCH_ROUNDS; round++) {
        const todo = computeRefetchTodo(result, api, round);
        if (todo.orderbooks.length === 0 && todo.quotes.length === 0 && !todo.stats) break;
        // quotes are priced on live reserves, proofs come from a cached pool snapshot: wait for
        // the snapshot to expire, so the proof fetched just before the quotes is fresh
        const jitter = Math.round(REFETCH_BACKOFF_MS * round * (0.5 + Math.random()));
        const wait =
          todo.quotes.length > 0 ? Math.max(jitter, computeSnapshotExpiryWaitMs(snapshot, now())) : jitter;
        if (now() + wait >= deadline) break;
        progress(
          `re-fetching ${todo.orderbooks.length} order books, ${todo.quotes.length} quotes${todo.stats ? ', /stats' : ''}`,
        );
        // the wait for the exchange's caches to roll over, counted down (a terminal shows it)
        await waitCountingDown(wait, (s) =>
          o.onCount?.(
            `checks: re-fetch round ${round} of ${REFETCH_ROUNDS}, waiting ${s} s for the exchange's caches`,
          ),
        );
        const got = await refetchMarketData({ baseUrl: base, client, ...todo, proofsFirst: true });
        api = mergeRefetch(api, got);
        snapshot = computeAuditSnapshot(api);
        verifyLater();
        verifyQuoteBlobs();
        result = check();
      }
    } finally {
      if (o.client === undefined) await client.close();
    }
    const tChecked = now();
    // 5. the report, then 6. the record (the mirror's verification derives from the same proofs)
    let snapshotId: number | null = null;
    let auditRunId: number | null = null;
    if (mirror !== null) {
      const verifications = new Map<string, ContractVerificationInput>();
      proofs.forEach((p) => {
        verifications.set(p.contractId, computeContractVerification(p));
      });
      // a snapshot that is no snapshot of the exchange (a wrong URL, an outage) is kept as a failed
      // attempt, not as history (docs/mirror.md "Failed attempts"): snapshotId stays null
      snapshotId = (await mirror.recordSnapshot(api, verifications, { now })).snapshotId;
    }
    const coverage = computeAuditCoverage({
      probeQuotes: o.probeQuotes === true,
      probeCount: snapshot.quotes?.ok === true ? snapshot.quotes.value.length : null,
      // one check per probe: those that could not be checked were not recomputed
      probesRecomputed:
        (snapshot.quotes?.ok === true ? snapshot.quotes.value.length : 0) -
        result.checks.filter((k) => k.area === 'quote' && k.status === 'could-not-check').length,
      earlierSnapshots,
      typeFiles: o.typeFiles?.length ?? 0,
      dars: o.dars?.length ?? 0,
      ...(mirror === null ? {} : { followed: result.followed ?? [] }),
    });
    const summary = {
      ...summarise(
        o,
        base,
        snapshot.fetchedAt,
        profile.name,
        result,
        coverage,
        t0,
        now(),
        mirror,
        snapshotId,
        ledger,
      ),
      api: computeApiDialect(api),
    };
    if (mirror !== null) {
      auditRunId = await mirror.recordAuditRun({
        snapshotId,
        baseUrl: base.display,
        startedAtMs: t0,
        finishedAtMs: now(),
        outcome: result.outcome,
        checks: result.checks,
        findings: result.findings,
        summary: { ...summary },
      });
    }
    const tEnd = now();
    const phasesMs = {
      fetch: tFetched - t0,
      verify: tVerified - tFetched,
      history: tHistory - tVerified,
      checks: tChecked - tHistory,
      record: tEnd - tChecked,
    };
    return {
      ...result,
      summary: {
        ...summary,
        durationMs: tEnd - t0,
        phasesMs,
        requests: client.counts(),
        mirror: mirror === null ? null : { path: mirror.path, snapshotId, auditRunId },
      },
    };
  } finally {
    // the ledger's client is closed however the run ended (a mirror that failed to open included)
    await ledgerRead?.catch(() => null);
    await ledgerHttp?.close();
    await mirror?.close();
  }
}

function summarise(
  o: RunAuditOptions,
  base: BaseUrl,
  fetchedAt: string,
  profile: string,
  r: AuditResult,
  coverage: AuditCoverage,
  t0: number,
  t1: number,
  mirror: MirrorStore | null,
  snapshotId: number | null,
  ledger: LedgerEvidence | null,
): AuditSummary {
  const levels = computeAssuranceCounts(r.pools.map((p) => p.assurance));
  return {
    outcome: r.outcome,
    exitCode: o.exitCodeOf?.(r.outcome) ?? computeAuditExitCode(r.outcome),
    baseUrl: base.display,
    fetchedAt,
    profile,
    pools: r.pools.length,
    proofsProven: r.pools.filter((p) => p.proof === 'proven').length,
    proofsIdVerified: r.pools.filter((p) => p.proof === 'proven').length,
    assurance: {
      level: r.assurance,
      pools: levels,
      ledger: ledger === null ? null : { participant: ledger.participant, party: ledger.party },
    },
    checks: computeCheckCounts(r.checks),
    findings: computeFindingCounts(r.findings),
    coverage,
    mirror: mirror === null ? null : { path: mirror.path, snapshotId, auditRunId: null },
    durationMs: t1 - t0,
  };
}
