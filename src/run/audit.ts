/**
 * The audit's orchestration (the issue "reserve-audit audit"): fetch a snapshot → verify every
 * proof from first principles → load the pool history from the mirror → run the pure checks
 * (src/core/audit) → record the snapshot and the audit run in the mirror. `runAudit` is the
 * in-process entry point (used by the `audit` command and the `npm start` demo).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type AuditResult,
  computeAuditSnapshot,
  DEFAULT_RESERVE_PROFILE,
  type HistoryPoint,
  type KnownContract,
  type MirrorHistory,
  type ProofVerification,
  parseIsoMicros,
  parseReserveProfile,
  type ReserveProfile,
  runAuditChecks,
} from '../core/audit/index.js';
import { verifyContractId } from '../core/hash/verify-contract-id.js';
import { formatQualifiedName } from '../core/types/daml-type.js';
import { resolveTemplate, type TypeEnv } from '../core/types/type-env.js';
import type { ApiSnapshot, RawResponse } from '../core/wire/index.js';
import { parseCacheHeaders } from '../core/wire/snapshot.js';
import { AuditError } from '../errors/audit.js';
import { loadTypeEnvFromFiles } from '../io/files/dar-file.js';
import { fetchSnapshot, type HttpClient, parseJsonBody, statusError } from '../io/http/index.js';
import { sha256Node } from '../io/node-sha256.js';
import {
  type ContractVerificationInput,
  type HistoryQuery,
  loadLatestObservations,
  loadObservationsForHistoryChecks,
  type Mirror,
  openMirror,
  recordAuditRun,
  recordSnapshot,
} from '../io/store/index.js';

/** The bundled server's V12 types, used when neither --types nor --dar is given. */
export const DEFAULT_TYPE_FILE = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../fixtures/types/amm-pools.json',
);

export interface RunAuditOptions {
  readonly baseUrl: string;
  /** SQLite mirror: history is read from it, then the snapshot and the run are recorded */
  readonly mirrorPath?: string | null;
  /** a parsed profile (wins over profilePath) */
  readonly profile?: ReserveProfile;
  readonly profilePath?: string | null;
  readonly typeFiles?: readonly string[];
  readonly dars?: readonly string[];
  readonly probeQuotes?: boolean;
  readonly timeoutMs?: number;
  /** response body size limit in bytes (default 16 MiB) */
  readonly maxResponseBytes?: number;
  /** extra attempts for GETs after a connect error, timeout, 5xx (default 2) */
  readonly retries?: number;
  /** a fetch implementation instead of the network (tests, embedding); Response bodies are read whole */
  readonly fetchImpl?: (
    url: string,
    init: { method: string; body?: string; headers: Record<string, string> },
  ) => Promise<Response>;
  /** an HTTP client instead of one built from the options */
  readonly client?: HttpClient;
  readonly onProgress?: (message: string) => void;
  readonly now?: () => number;
  readonly cwd?: string;
}

export interface AuditSummary {
  readonly outcome: AuditResult['outcome'];
  readonly exitCode: 0 | 1 | 2;
  readonly baseUrl: string;
  readonly fetchedAt: string;
  readonly profile: string;
  readonly pools: number;
  readonly proofsProven: number;
  readonly checks: {
    readonly pass: number;
    readonly fail: number;
    readonly couldNotCheck: number;
    readonly skipped: number;
  };
  readonly findings: { readonly error: number; readonly warning: number; readonly info: number };
  readonly mirror: {
    readonly path: string;
    readonly snapshotId: number | null;
    readonly auditRunId: number | null;
  } | null;
  readonly durationMs: number;
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

export function computeExitCode(outcome: AuditResult['outcome']): 0 | 1 | 2 {
  return outcome === 'passed' ? 0 : outcome === 'failed' ? 1 : 2;
}

/** An HttpClient over a fetch function (no retries; body size capped). */
export function createFetchClient(
  fetchImpl: NonNullable<RunAuditOptions['fetchImpl']>,
  maxBytes = 16 * 1024 * 1024,
  now: () => number = Date.now,
): HttpClient {
  const send = async (method: 'GET' | 'POST', url: string, body?: string): Promise<RawResponse> => {
    const startedAtMs = now();
    const res = await fetchImpl(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > maxBytes)
      throw new AuditError('AUDIT_SOURCE_UNAVAILABLE', `${url} answered more than ${maxBytes} bytes`);
    return {
      method,
      url,
      requestBody: body ?? null,
      status: res.status,
      contentType: res.headers.get('content-type'),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      body: bytes,
      startedAtMs,
      durationMs: now() - startedAtMs,
      ...parseCacheHeaders(res.headers.get('cache-control'), res.headers.get('age')),
      date: res.headers.get('date'),
    };
  };
  return {
    send,
    getJson: async <T>(url: string, parse: (json: unknown) => T) => {
      const raw = await send('GET', url);
      if (raw.status !== 200) throw statusError(raw);
      return { raw, value: parse(parseJsonBody(raw)) };
    },
    close: async () => {},
  };
}

/** The reserve profile of --profile, or the built-in default. */
export async function loadAuditProfile(
  o: Pick<RunAuditOptions, 'profile' | 'profilePath' | 'cwd'>,
): Promise<ReserveProfile> {
  if (o.profile !== undefined) return o.profile;
  if (o.profilePath == null) return DEFAULT_RESERVE_PROFILE;
  const path = resolve(o.cwd ?? process.cwd(), o.profilePath);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new AuditError(
      'PROFILE_INVALID',
      `"--profile" expected a readable JSON file, got ${JSON.stringify(o.profilePath)}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
  return parseReserveProfile(json, o.profilePath);
}

/** Loads --types/--dar, or the bundled server's type file when neither is given. */
export async function loadAuditTypes(
  o: Pick<RunAuditOptions, 'typeFiles' | 'dars' | 'cwd'>,
): Promise<TypeEnv> {
  const typeFiles = o.typeFiles ?? [];
  const dars = o.dars ?? [];
  const sources =
    typeFiles.length === 0 && dars.length === 0 ? { typeFiles: [DEFAULT_TYPE_FILE] } : { typeFiles, dars };
  return (await loadTypeEnvFromFiles(sources, o.cwd === undefined ? {} : { cwd: o.cwd })).env;
}

/** Record field labels per type environment and template (resolved once). */
const LABEL_CACHE = new WeakMap<TypeEnv, Map<string, readonly string[] | null>>();

/** Verifies one proof (decode + recompute); never throws. */
export function verifyProof(
  contractId: string,
  blob: string | Uint8Array,
  types: TypeEnv,
): ProofVerification {
  const v = verifyContractId({ contractId, blob, types, sha256: sha256Node });
  // the published-vs-embedded comparison is reported separately by the proof check
  const reasons = v.reasons.filter((r) => r.code !== 'CONTRACT_ID_MISMATCH');
  const idStatus = reasons.some((r) => r.mismatch)
    ? 'mismatch'
    : reasons.length > 0
      ? 'could-not-check'
      : 'verified';
  const c = v.contract;
  if (c === null)
    return {
      idStatus: 'could-not-check',
      reasons: reasons.map((r) => `${r.code}: ${r.message}`),
      recomputedContractId: null,
      decoded: null,
      decodeError: v.reasons.map((r) => `${r.code}: ${r.message}`).join('; '),
    };
  const ref = { packageId: c.templateId.packageId, module: c.templateId.module, entity: c.templateId.entity };
  const qn = formatQualifiedName(ref);
  let cache = LABEL_CACHE.get(types);
  if (cache === undefined) {
    cache = new Map();
    LABEL_CACHE.set(types, cache);
  }
  const key = `${ref.packageId}:${c.packageName}:${qn}`;
  let fieldLabels = cache.get(key);
  if (fieldLabels === undefined) {
    const t = resolveTemplate(types, ref, c.packageName);
    fieldLabels = t.ok ? t.dataType.fields.map((f) => f.name) : null;
    cache.set(key, fieldLabels);
  }
  return {
    idStatus,
    reasons: reasons.map((r) => `${r.code}: ${r.message}`),
    recomputedContractId: v.expectedSuffix,
    decoded: {
      embeddedContractId: v.embeddedContractId ?? '',
      template: {
        packageId: c.templateId.packageId,
        packageName: c.packageName,
        moduleName: qn.split(':')[0] ?? '',
        entityName: qn.split(':')[1] ?? '',
      },
      createdAtMicros: c.createdAt,
      createArg: c.createArg,
      fieldLabels,
    },
    decodeError: null,
  };
}

/** Reads what the history checks need from the mirror (before the current snapshot is recorded). */
export function loadMirrorHistory(
  mirror: Mirror,
  currentContracts: readonly string[],
  query: HistoryQuery = {},
): MirrorHistory {
  // one set-based query for the series (template included), one for the current contracts
  const obs = loadObservationsForHistoryChecks(mirror, query);
  const series = new Map<string, HistoryPoint[]>();
  for (const [poolId, list] of obs)
    series.set(
      poolId,
      list.map((o) => ({
        observedAtMs: o.observedAtMs,
        contractId: o.contractId,
        ledgerCreatedAtMicros: o.ledgerCreatedAt === null ? null : parseIsoMicros(o.ledgerCreatedAt),
        reserveA: o.contractReserveA ?? o.reserveA,
        reserveB: o.contractReserveB ?? o.reserveB,
        totalLpSupply: o.contractTotalLpSupply ?? o.totalLpSupply,
        proven: o.proven,
        template: o.contractId === null ? null : o.template,
        blobKey: null,
      })),
    );
  const known = new Map<string, KnownContract>();
  const rows = mirror.db
    .prepare(
      'SELECT contract_id, pool_id FROM contracts WHERE contract_id IN (SELECT value FROM json_each(?))',
    )
    .raw(true)
    .all(JSON.stringify(currentContracts)) as [string, string][];
  const poolOf = new Map(rows);
  for (const id of currentContracts) {
    const poolId = poolOf.get(id);
    if (poolId !== undefined) known.set(id, { contractId: id, poolId });
  }
  const lastSeenPools = new Map<string, string>();
  for (const o of loadLatestObservations(mirror))
    if (o.contractId !== null) lastSeenPools.set(o.poolId, o.contractId);
  return { series, known, lastSeenPools };
}

/** Runs one audit end to end. Throws (exit 2) only when the audit cannot run at all. */
export async function runAudit(o: RunAuditOptions): Promise<AuditReport> {
  const now = o.now ?? Date.now;
  const t0 = now();
  const progress = o.onProgress ?? (() => {});
  const profile = await loadAuditProfile(o);
  const types = await loadAuditTypes(o);
  const client =
    o.client ??
    (o.fetchImpl === undefined ? undefined : createFetchClient(o.fetchImpl, o.maxResponseBytes, now));
  progress(`fetching ${o.baseUrl}`);
  const api: ApiSnapshot = await fetchSnapshot({
    baseUrl: o.baseUrl,
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    probeQuotes: o.probeQuotes === true,
    ...(client === undefined ? {} : { client }),
    clientOptions: {
      ...(o.maxResponseBytes === undefined ? {} : { maxResponseBytes: o.maxResponseBytes }),
      ...(o.retries === undefined ? {} : { retries: o.retries }),
      ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    },
    now,
  });
  const tFetched = now();
  const snapshot = computeAuditSnapshot(api);
  const proofs = snapshot.proofs.ok ? snapshot.proofs.value : [];
  progress(`verifying ${proofs.length} proofs`);
  const verifications = proofs.map((p) => verifyProof(p.contractId, p.createdEventBlob, types));
  const tVerified = now();
  let mirror: Mirror | null = null;
  try {
    let history: MirrorHistory | null = null;
    if (o.mirrorPath != null) {
      mirror = openMirror(resolve(o.cwd ?? process.cwd(), o.mirrorPath));
      history = loadMirrorHistory(
        mirror,
        proofs.map((p) => p.contractId),
      );
    }
    const tHistory = now();
    progress('running checks');
    const result = runAuditChecks({ snapshot, verifications, history, profile });
    const tChecked = now();
    const fieldsPassed = new Set(
      result.checks.filter((k) => k.name === 'proof.fields' && k.status === 'pass').map((k) => k.pool),
    );
    let snapshotId: number | null = null;
    let auditRunId: number | null = null;
    if (mirror !== null) {
      const vmap = new Map<string, ContractVerificationInput>();
      proofs.forEach((p, i) => {
        const v = verifications[i];
        if (v === undefined) return;
        const proven = fieldsPassed.has(p.poolId) && v.idStatus === 'verified';
        vmap.set(p.contractId, {
          status:
            v.idStatus === 'verified' && v.decoded?.embeddedContractId !== p.contractId
              ? 'mismatch'
              : v.idStatus,
          reason: v.reasons[0] ?? v.decodeError ?? null,
          decoded:
            proven && v.decoded !== null
              ? {
                  reserveA: p.reserveA,
                  reserveB: p.reserveB,
                  totalLpSupply: p.totalLpSupply,
                  createdAtMicros: v.decoded.createdAtMicros,
                }
              : null,
        });
      });
      snapshotId = recordSnapshot(mirror, api, vmap, { now }).snapshotId;
    }
    const summary = summarise(
      o.baseUrl,
      snapshot.fetchedAt,
      profile.name,
      result,
      t0,
      now(),
      mirror?.path ?? null,
      snapshotId,
      null,
    );
    if (mirror !== null) {
      auditRunId = recordAuditRun(mirror, {
        snapshotId,
        baseUrl: o.baseUrl,
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
        mirror: mirror === null ? null : { path: mirror.path, snapshotId, auditRunId },
      },
    };
  } finally {
    mirror?.close();
    if (o.client === undefined && client !== undefined) await client.close();
  }
}

function summarise(
  baseUrl: string,
  fetchedAt: string,
  profile: string,
  r: AuditResult,
  t0: number,
  t1: number,
  mirrorPath: string | null,
  snapshotId: number | null,
  runId: number | null,
): AuditSummary {
  const count = (s: string): number => r.checks.filter((c) => c.status === s).length;
  const sev = (s: string): number => r.findings.filter((f) => f.severity === s).length;
  return {
    outcome: r.outcome,
    exitCode: computeExitCode(r.outcome),
    baseUrl,
    fetchedAt,
    profile,
    pools: r.pools.length,
    proofsProven: r.pools.filter((p) => p.proof === 'proven').length,
    checks: {
      pass: count('pass'),
      fail: count('fail'),
      couldNotCheck: count('could-not-check'),
      skipped: count('skipped'),
    },
    findings: { error: sev('error'), warning: sev('warning'), info: sev('info') },
    mirror: mirrorPath === null ? null : { path: mirrorPath, snapshotId, auditRunId: runId },
    durationMs: t1 - t0,
  };
}
