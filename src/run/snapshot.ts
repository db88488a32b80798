/**
 * The `snapshot` pipeline (the issue "reserve-audit snapshot"): fetch the exchange's public API →
 * verify every reserve contract the mirror has not settled yet with the one proof step
 * (src/core/proof: decode → type → hash → compare → reserves via the profile) → record the
 * snapshot and the contracts' verification in the mirror (one transaction) → a report. Shared by
 * the `snapshot` command and the demo; never writes to stdout, never decides an exit code.
 */

import { DEFAULT_RESERVE_PROFILE, type ReserveProfile } from '../core/proof/profile.js';
import { createProofContext } from '../core/proof/proof-context.js';
import { type ReserveProof, verifyReserveProof } from '../core/proof/reserve-proof.js';
import type { TypeEnv } from '../core/types/type-env.js';
import {
  type ApiSnapshot,
  type ApiSnapshotSection,
  computeFailedSections,
  type PoolProofInfo,
} from '../core/wire/index.js';
import {
  type BaseUrl,
  fetchSnapshot,
  type HttpClient,
  parseBaseUrl,
  type SnapshotProgress,
} from '../io/http/index.js';
import { sha256Node } from '../io/node-sha256.js';
import {
  type ContractVerificationInput,
  computeContractVerification,
  type FailedAttemptRecord,
  type MirrorStore,
} from '../io/store/index.js';

export interface VerifySnapshotContractsOptions {
  readonly types?: TypeEnv | undefined;
  readonly profile?: ReserveProfile;
  /** verify even contracts the mirror already settled (default false) */
  readonly all?: boolean;
}

/** The distinct reserve contracts of both proof sets of a snapshot, by contract ID. */
function collectSnapshotContracts(snapshot: ApiSnapshot): Map<string, PoolProofInfo> {
  const out = new Map<string, PoolProofInfo>();
  for (const s of [snapshot.proofsBefore, snapshot.proofsAfter]) {
    if (s.ok) for (const p of s.value.data.pools) out.set(p.reserve_contract.contract_id, p);
  }
  return out;
}

/**
 * Runs the proof step on the snapshot's contracts that the mirror has not settled ('verified' or
 * 'mismatch'); never throws for a bad blob (the proof's status says what went wrong).
 */
export async function verifySnapshotContracts(
  mirror: MirrorStore | null,
  snapshot: ApiSnapshot,
  options: VerifySnapshotContractsOptions = {},
): Promise<Map<string, ReserveProof>> {
  const profile = options.profile ?? DEFAULT_RESERVE_PROFILE;
  const contracts = collectSnapshotContracts(snapshot);
  const settled =
    mirror === null || options.all === true
      ? new Map<string, string>()
      : await mirror.readVerificationStatuses([...contracts.keys()]);
  const out = new Map<string, ReserveProof>();
  const context = createProofContext(null);
  for (const [cid, p] of contracts) {
    const status = settled.get(cid);
    if (status === 'verified' || status === 'mismatch') continue;
    out.set(
      cid,
      verifyReserveProof({
        contractId: cid,
        blob: p.reserve_contract.created_event_blob,
        types: options.types,
        profile,
        sha256: sha256Node,
        context,
      }),
    );
  }
  return out;
}

/** What the mirror records for each verified contract (the one derivation of src/io/store). */
export function computeContractVerifications(
  proofs: ReadonlyMap<string, ReserveProof>,
): Map<string, ContractVerificationInput> {
  const out = new Map<string, ContractVerificationInput>();
  for (const [cid, proof] of proofs) out.set(cid, computeContractVerification(proof));
  return out;
}

export interface TakeSnapshotOptions {
  readonly mirror: MirrorStore;
  /** e.g. http://127.0.0.1:8080/v1/public (a string is parsed once: only its redacted form is stored) */
  readonly baseUrl: string | BaseUrl;
  readonly timeoutMs?: number;
  /** pacing (default 50 requests/s, 8 in flight: src/io/http/pacer.ts) */
  readonly maxRps?: number;
  readonly maxInFlight?: number;
  /** an HTTP client to use (the caller closes it; its options win over timeoutMs and the pacing) */
  readonly client?: HttpClient;
  readonly probeQuotes?: boolean;
  readonly types?: TypeEnv | undefined;
  readonly profile?: ReserveProfile;
  /** environment for HTTP_PROXY / HTTPS_PROXY / NO_PROXY */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly onProgress?: (p: SnapshotProgress | { readonly step: 'verifying contracts' }) => void;
}

/** A section of the snapshot that could not be fetched in full. */
export interface FailedSection {
  readonly section: ApiSnapshotSection;
  readonly code: string;
  readonly reason: string;
}

export interface SnapshotReport {
  /** null when the mirror kept this snapshot as a failed attempt, not as history */
  readonly snapshotId: number | null;
  /** why the snapshot is not history (every section failed, or no pool where the mirror knew pools) */
  readonly failedAttempt: FailedAttemptRecord | null;
  readonly startedAtMs: number;
  readonly pools: number;
  /** contract IDs seen for the first time in this snapshot */
  readonly newContracts: readonly string[];
  /** the new contracts' mirror verification status, tallied */
  readonly verified: number;
  readonly mismatch: number;
  readonly couldNotCheck: number;
  readonly requests: number;
  readonly failedSections: readonly FailedSection[];
  /** the proof of every contract verified in this snapshot, by contract ID */
  readonly proofs: ReadonlyMap<string, ReserveProof>;
}

/** Takes one snapshot: fetch → verify the unsettled contracts → record → report. */
export async function takeSnapshot(o: TakeSnapshotOptions): Promise<SnapshotReport> {
  const snap = await fetchSnapshot({
    baseUrl: parseBaseUrl(o.baseUrl),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    probeQuotes: o.probeQuotes === true,
    ...(o.client === undefined ? {} : { client: o.client }),
    clientOptions: {
      ...(o.env === undefined ? {} : { env: o.env }),
      ...(o.maxRps === undefined ? {} : { maxRps: o.maxRps }),
      ...(o.maxInFlight === undefined ? {} : { maxInFlight: o.maxInFlight }),
    },
    ...(o.onProgress === undefined ? {} : { onProgress: o.onProgress }),
  });
  o.onProgress?.({ step: 'verifying contracts' });
  const proofs = await verifySnapshotContracts(o.mirror, snap, {
    types: o.types,
    ...(o.profile === undefined ? {} : { profile: o.profile }),
  });
  const verifications = computeContractVerifications(proofs);
  const rec = await o.mirror.recordSnapshot(snap, verifications);
  const statuses = rec.newContracts.map((c) => verifications.get(c)?.status ?? 'unchecked');
  const tally = (s: string): number => statuses.filter((x) => x === s).length;
  const failedSections: FailedSection[] = [];
  for (const k of computeFailedSections(snap)) {
    const v = snap[k];
    if (v !== null && !v.ok) failedSections.push({ section: k, code: v.code, reason: v.reason });
  }
  return {
    snapshotId: rec.snapshotId,
    failedAttempt: rec.failedAttempt,
    startedAtMs: snap.startedAtMs,
    pools: rec.pools,
    newContracts: rec.newContracts,
    verified: tally('verified'),
    mismatch: tally('mismatch'),
    couldNotCheck: tally('could-not-check'),
    requests: snap.raw.length,
    failedSections,
    proofs,
  };
}
