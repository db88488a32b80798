/**
 * `mirror follow` (issue 26 "history from the ledger"; docs/mirror.md "Following the ledger"): reads
 * the reserve templates' created and archived events from a participant's update stream
 * (`POST /v2/updates`, ACS delta, page by page) into the mirror, from the offset the mirror stored
 * for (participant, party), each page with its offset in one transaction — a follower killed at any
 * point resumes without losing or doubling an event. Every created event goes through the proof step
 * (its pool is recorded only when its contract ID recomputes); after each round the chain of every
 * pool that received a contract is checked over all its followed events
 * (src/core/audit/reserve-chain-checks.ts). A participant that cannot answer ends the round as could
 * not check, with nothing recorded beyond the last page read: never evidence.
 */
import type { Finding } from '../core/audit/finding.js';
import { checkReserveChains, type FollowedReserveEvent } from '../core/audit/reserve-chain-checks.js';
import { parseBase64 } from '../core/codec/bytes.js';
import type { ReserveProfile } from '../core/proof/profile.js';
import { createProofContext, type ProofContext } from '../core/proof/proof-context.js';
import { type ReserveProof, verifyReserveProof } from '../core/proof/reserve-proof.js';
import type { TypeEnv } from '../core/types/type-env.js';
import { loadTypesOrDefault, type TypeSources } from '../io/files/default-types.js';
import { loadReserveProfile, type ReserveProfileSource } from '../io/files/profile-file.js';
import { parseBaseUrl } from '../io/http/base-url.js';
import { createHttpClient } from '../io/http/client.js';
import { createLedgerClient, type LedgerClient, readReserveUpdatePage } from '../io/ledger-api/index.js';
import { sha256Node } from '../io/node-sha256.js';
import type { LedgerEventRow, LedgerFollowKey, MirrorStore } from '../io/store/index.js';
import type { RunAuditLedgerOptions } from './audit.js';
import { SYSTEM_WATCH_CLOCK, type WatchClock } from './watch-clock.js';

/** What one round of following did. */
export interface FollowRound {
  readonly startedAtMs: number;
  readonly finishedAtMs: number;
  /** the stored offset before and after the round */
  readonly fromOffset: number;
  readonly toOffset: number;
  /** the participant's ledger end read at the start of the round (null when it could not be read) */
  readonly ledgerEnd: number | null;
  readonly transactions: number;
  /** events written (an event already in the mirror is not) */
  readonly inserted: number;
  /** the ledger time of the newest transaction followed so far, ms */
  readonly ledgerTimeMs: number | null;
  /** pools whose chain was checked this round */
  readonly poolsChecked: number;
  readonly findings: readonly Finding[];
  /** why the round could not finish (the participant could not answer), else null */
  readonly couldNotCheck: string | null;
}

export interface RunMirrorFollowOptions extends ReserveProfileSource, TypeSources {
  readonly store: MirrorStore;
  readonly ledger: RunAuditLedgerOptions;
  /** one round, then stop */
  readonly once: boolean;
  /**
   * the time from one round's start to the next's (default 500 ms: a change on the ledger is in the
   * mirror within this plus one round, so within a second at 3,000 swaps/min; docs/mirror.md)
   */
  readonly everyMs?: number;
  /** transactions per `/v2/updates` request (default 1000) */
  readonly pageSize?: number;
  readonly stop?: AbortSignal;
  readonly clock?: WatchClock;
  readonly timeoutMs?: number;
  readonly retries?: number;
  /** the ledger client (tests); else one over the auditor's HTTP client */
  readonly client?: LedgerClient;
  readonly onRound?: (r: FollowRound) => void;
}

export interface MirrorFollowReport {
  readonly participant: string;
  readonly party: string;
  readonly rounds: number;
  readonly offset: number;
  /** every error and could-not-check finding of every round */
  readonly findings: readonly Finding[];
  readonly outcome: 'passed' | 'failed' | 'could-not-check';
}

interface FollowContext {
  readonly store: MirrorStore;
  readonly client: LedgerClient;
  readonly key: LedgerFollowKey;
  readonly profile: ReserveProfile;
  readonly types: TypeEnv;
  readonly pageSize: number;
  readonly clock: WatchClock;
  readonly stop: AbortSignal | undefined;
  /** contract ID → its blob and proof, oldest first (bounded: PROOF_CACHE_SIZE) */
  readonly proofs: Map<string, { readonly blob: Uint8Array; readonly proof: ReserveProof }>;
  /** the proof step's caches for the whole follow (one per run, as the audit's) */
  readonly proofContext: ProofContext;
}

/** Proofs kept between rounds (a round's chain check starts at each touched pool's seed, verified before). */
const PROOF_CACHE_SIZE = 10_000;

/** Runs the proof step on a followed blob (a proof of the same contract ID and bytes is reused). */
function verifyFollowed(c: FollowContext, contractId: string, blob: Uint8Array): ReserveProof {
  const hit = c.proofs.get(contractId);
  if (hit !== undefined && Buffer.from(hit.blob).equals(blob)) return hit.proof;
  const proof = verifyReserveProof({
    contractId,
    blob,
    types: c.types,
    profile: c.profile,
    sha256: sha256Node,
    context: c.proofContext,
  });
  c.proofs.delete(contractId);
  c.proofs.set(contractId, { blob, proof });
  if (c.proofs.size > PROOF_CACHE_SIZE) {
    const oldest = c.proofs.keys().next().value;
    if (oldest !== undefined) c.proofs.delete(oldest);
  }
  return proof;
}

/** One round: from the stored offset to the ledger end read at its start, page by page. */
async function followRound(c: FollowContext): Promise<FollowRound> {
  const startedAtMs = c.clock.now();
  const state = await c.store.readLedgerFollowState(c.key);
  const fromOffset = state?.offset ?? 0;
  let cursor = fromOffset;
  let ledgerTimeMs = state?.ledgerTimeMs ?? null;
  let transactions = 0;
  let inserted = 0;
  let couldNotCheck: string | null = null;
  const pools = new Set<string>();
  const unplaced: FollowedReserveEvent[] = [];
  const endAnswer = await c.client.readLedgerEnd();
  const ledgerEnd = endAnswer.ok ? endAnswer.value : null;
  if (!endAnswer.ok) couldNotCheck = `the ledger end could not be read: ${endAnswer.reason}`;
  else if (endAnswer.value < fromOffset)
    couldNotCheck = `the participant's ledger end ${endAnswer.value} is before the followed offset ${fromOffset} (another participant, or a reset ledger)`;
  while (couldNotCheck === null && ledgerEnd !== null && cursor < ledgerEnd && c.stop?.aborted !== true) {
    const page = await readReserveUpdatePage(c.client, c.profile, cursor, ledgerEnd, c.pageSize);
    if (!page.ok) {
      couldNotCheck = `the update stream after offset ${cursor} could not be read: ${page.reason}`;
      break;
    }
    const events: LedgerEventRow[] = [];
    for (const tx of page.value.transactions) {
      tx.events.forEach((e, nodeSeq) => {
        if (e.kind === 'archived') {
          events.push({
            offset: tx.offset,
            nodeSeq,
            contractId: e.contractId,
            kind: 'archived',
            templateId: e.templateId,
            createdEventBlob: null,
            ledgerTimeMs: tx.effectiveAtMs,
            poolId: null,
          });
          return;
        }
        const blob = e.createdEventBlob === null ? null : decodeBlob(e.createdEventBlob);
        const proof = blob === null ? null : verifyFollowed(c, e.contractId, blob);
        const poolId = proof?.provenFields?.poolId ?? null;
        const row: LedgerEventRow = {
          offset: tx.offset,
          nodeSeq,
          contractId: e.contractId,
          kind: 'created',
          templateId: e.templateId,
          createdEventBlob: blob,
          ledgerTimeMs: tx.effectiveAtMs,
          poolId,
        };
        events.push(row);
        if (poolId === null) unplaced.push(row);
        else pools.add(poolId);
      });
      ledgerTimeMs = tx.effectiveAtMs;
    }
    transactions += page.value.transactions.length;
    const r = await c.store.recordLedgerEvents({
      ...c.key,
      events,
      offset: page.value.upTo,
      ledgerTimeMs,
      recordedAtMs: c.clock.now(),
    });
    inserted += r.inserted;
    if (r.offset <= cursor) break; // another follower is ahead: its rounds record the rest
    cursor = r.offset;
  }
  // the chains of the pools that received a contract, from each pool's last contract before this
  // round (its seed) through the events of the round, with every created event not placed in a pool;
  // a finding is reported in the round that followed its event
  const all = pools.size === 0 ? unplaced : await c.store.readLedgerEvents(c.key, [...pools], fromOffset);
  const chain = checkReserveChains({ events: all, verify: (id, blob) => verifyFollowed(c, id, blob) });
  const fresh = chain.findings.filter(
    (f) => typeof f.evidence.offset !== 'number' || f.evidence.offset > fromOffset,
  );
  return {
    startedAtMs,
    finishedAtMs: c.clock.now(),
    fromOffset,
    toOffset: cursor,
    ledgerEnd,
    transactions,
    inserted,
    ledgerTimeMs,
    poolsChecked: pools.size,
    findings: fresh,
    couldNotCheck,
  };
}

/** A blob the participant sent (base64), or null when it is not base64 (then the chain check says so). */
function decodeBlob(text: string): Uint8Array | null {
  try {
    return parseBase64(text, 'createdEventBlob');
  } catch {
    return null;
  }
}

/** Follows the ledger into the mirror: one round (`once`), or a round every `everyMs` until `stop`. */
export async function runMirrorFollow(o: RunMirrorFollowOptions): Promise<MirrorFollowReport> {
  const participant = parseBaseUrl(o.ledger.baseUrl);
  const profile = await loadReserveProfile(o);
  const types = await loadTypesOrDefault(o);
  const client =
    o.client ??
    createLedgerClient({
      baseUrl: participant,
      token: o.ledger.token,
      party: o.ledger.party,
      http: createHttpClient({
        ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
        ...(o.retries === undefined ? {} : { retries: o.retries }),
      }),
    });
  const clock = o.clock ?? SYSTEM_WATCH_CLOCK;
  const c: FollowContext = {
    store: o.store,
    client,
    key: { participant: participant.display, party: o.ledger.party },
    profile,
    types,
    pageSize: o.pageSize ?? 1000,
    clock,
    stop: o.stop,
    proofs: new Map(),
    proofContext: createProofContext(null),
  };
  const everyMs = o.everyMs ?? 500;
  const findings: Finding[] = [];
  let rounds = 0;
  let offset = 0;
  let lastCouldNotCheck = false;
  const never = new AbortController().signal;
  const stopped = (): boolean => o.stop?.aborted === true;
  for (;;) {
    const r = await followRound(c);
    rounds += 1;
    offset = r.toOffset;
    lastCouldNotCheck = r.couldNotCheck !== null;
    findings.push(...r.findings.filter((f) => f.severity !== 'info'));
    o.onRound?.(r);
    if (o.once || stopped()) break;
    const wait = r.startedAtMs + everyMs - clock.now();
    if (wait > 0) await clock.sleep(wait, o.stop ?? never);
    if (stopped()) break;
  }
  const failed = findings.some((f) => f.severity === 'error');
  const unchecked = lastCouldNotCheck || findings.some((f) => f.label === 'could-not-check');
  return {
    participant: c.key.participant,
    party: c.key.party,
    rounds,
    offset,
    findings,
    outcome: failed ? 'failed' : unchecked ? 'could-not-check' : 'passed',
  };
}
