/**
 * Proof checks (the issue "Proofs"; spec/contract-id.md §0, §13): every /pools/proof entry's
 * contract ID must recompute from its blob and equal the ID embedded in the blob; the blob must be
 * a template the reserve profile lists; the JSON reserves, LP supply, ledger_created_at, template
 * identity, pool id and tokens must equal what the blob contains. An unverifiable proof is
 * could-not-check, never a pass. Only a verified blob yields `proven` values for later checks.
 */
import type { Value } from '../codec/value.js';
import {
  extractProvenFields,
  findTemplateProfile,
  type ProvenFields,
  type ReserveProfile,
} from '../proof/profile.js';
import { isSameAmount } from './decimal.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { ProofEntry, TemplateIdentity, TokenKey } from './snapshot.js';
import { formatMicrosIso, parseIsoMicros } from './time.js';

/** What decoding and recomputing one proof gave (filled by src/run/audit.ts). */
export interface ProofVerification {
  /** recomputation of the contract ID from the blob */
  readonly idStatus: 'verified' | 'mismatch' | 'could-not-check';
  readonly reasons: readonly string[];
  /** the recomputed ID when it could be computed */
  readonly recomputedContractId: string | null;
  /** null when the blob did not decode (then decodeError says why) */
  readonly decoded: {
    readonly embeddedContractId: string;
    readonly template: TemplateIdentity;
    readonly createdAtMicros: bigint;
    readonly createArg: Value;
    /** record field labels of the template from the type environment, or null */
    readonly fieldLabels: readonly string[] | null;
  } | null;
  readonly decodeError: string | null;
}

export type ProvenStatus = 'proven' | 'failed' | 'unverifiable';

/** One pool's proof after checking. `fields` is set only when the blob's values can be trusted. */
export interface ProvenPool {
  readonly poolId: string;
  readonly contractId: string;
  readonly status: ProvenStatus;
  readonly fields: ProvenFields | null;
  readonly template: TemplateIdentity | null;
  readonly ledgerCreatedAtMicros: bigint | null;
  readonly entry: ProofEntry;
}

const sameToken = (a: TokenKey | null, b: TokenKey): boolean =>
  a === null || (a.admin === b.admin && a.id === b.id);
const sameTemplate = (a: TemplateIdentity, b: TemplateIdentity): boolean =>
  a.packageId === b.packageId &&
  a.packageName === b.packageName &&
  a.moduleName === b.moduleName &&
  a.entityName === b.entityName;

function compareFields(e: ProofEntry, f: ProvenFields, createdAt: bigint): Finding[] {
  const out: Finding[] = [];
  const pool = e.poolId;
  const field = (name: string, expected: unknown, got: unknown): void => {
    out.push(
      makeFinding(
        'PROOF_FIELD_MISMATCH',
        pool,
        `proof JSON ${name} is ${JSON.stringify(got)}, the blob says ${JSON.stringify(expected)}`,
        { field: name, expected, got },
      ),
    );
  };
  if (!isSameAmount(f.reserveA, e.reserveA)) field('reserve_a', f.reserveA, e.reserveA);
  if (!isSameAmount(f.reserveB, e.reserveB)) field('reserve_b', f.reserveB, e.reserveB);
  if (!isSameAmount(f.totalLpSupply, e.totalLpSupply))
    field('total_lp_supply', f.totalLpSupply, e.totalLpSupply);
  if (parseIsoMicros(e.ledgerCreatedAt) !== createdAt)
    field('ledger_created_at', formatMicrosIso(createdAt), e.ledgerCreatedAt);
  if (f.poolId !== null && f.poolId !== e.poolId) field('pool_id', f.poolId, e.poolId);
  if (!sameToken(f.tokenA, e.tokenA)) field('token_a_instrument', f.tokenA, e.tokenA);
  if (!sameToken(f.tokenB, e.tokenB)) field('token_b_instrument', f.tokenB, e.tokenB);
  return out;
}

/** Checks one proof; records checks proof.contract-id, proof.template, proof.fields for its pool. */
function checkOneProof(
  c: AuditCollector,
  e: ProofEntry,
  v: ProofVerification,
  profile: ReserveProfile,
): ProvenPool {
  const pool = e.poolId;
  const base = { poolId: pool, contractId: e.contractId, entry: e };
  if (v.decoded === null) {
    c.record('proof', 'proof.contract-id', pool, [
      makeFinding(
        'PROOF_BLOB_MALFORMED',
        pool,
        `created_event_blob does not decode: ${v.decodeError ?? 'unknown reason'}`,
        {
          contractId: e.contractId,
          reason: v.decodeError,
        },
      ),
    ]);
    c.skip('proof', 'proof.template', pool, 'blob did not decode');
    c.skip('proof', 'proof.fields', pool, 'blob did not decode');
    return { ...base, status: 'failed', fields: null, template: null, ledgerCreatedAtMicros: null };
  }
  const d = v.decoded;
  // 1. the contract ID
  const idFindings: Finding[] = [];
  if (d.embeddedContractId !== e.contractId)
    idFindings.push(
      makeFinding(
        'PROOF_CONTRACT_ID_MISMATCH',
        pool,
        `published contract_id differs from the ID embedded in the blob`,
        {
          kind: 'published-vs-embedded',
          expected: d.embeddedContractId,
          got: e.contractId,
        },
      ),
    );
  if (v.idStatus === 'mismatch')
    idFindings.push(
      makeFinding(
        'PROOF_CONTRACT_ID_MISMATCH',
        pool,
        `contract ID does not recompute from the blob: ${v.reasons.join('; ')}`,
        {
          kind: 'recomputed',
          expected: v.recomputedContractId,
          got: d.embeddedContractId,
          reasons: v.reasons,
        },
      ),
    );
  else if (v.idStatus === 'could-not-check')
    idFindings.push(
      makeFinding(
        'PROOF_UNVERIFIABLE',
        pool,
        `contract ID could not be recomputed: ${v.reasons.join('; ')}`,
        {
          contractId: e.contractId,
          reasons: v.reasons,
        },
      ),
    );
  const idStatus = c.record('proof', 'proof.contract-id', pool, idFindings);
  // 2. the template
  const tFindings: Finding[] = [];
  const tp = findTemplateProfile(profile, d.template);
  if (tp === null)
    tFindings.push(
      makeFinding(
        'PROOF_TEMPLATE_UNEXPECTED',
        pool,
        `blob template ${d.template.packageName}:${d.template.moduleName}:${d.template.entityName} is not in the reserve profile "${profile.name}"`,
        {
          expected: profile.templates.map((t) => `${t.packageName}:${t.moduleName}:${t.entityName}`),
          got: d.template,
        },
      ),
    );
  if (!sameTemplate(d.template, e.template))
    tFindings.push(
      makeFinding('PROOF_FIELD_MISMATCH', pool, 'proof JSON template differs from the blob template', {
        field: 'template',
        expected: d.template,
        got: e.template,
      }),
    );
  c.record('proof', 'proof.template', pool, tFindings);
  // 3. the fields
  if (tp === null) {
    c.skip('proof', 'proof.fields', pool, 'template not in the reserve profile');
    return {
      ...base,
      status: 'failed',
      fields: null,
      template: d.template,
      ledgerCreatedAtMicros: d.createdAtMicros,
    };
  }
  const ex = extractProvenFields(tp, d.createArg, d.fieldLabels);
  if (!ex.ok) {
    c.record('proof', 'proof.fields', pool, [
      makeFinding(
        'PROOF_UNVERIFIABLE',
        pool,
        `reserve fields could not be read from the blob: ${ex.reason}`,
        { reason: ex.reason },
      ),
    ]);
    return {
      ...base,
      status: 'unverifiable',
      fields: null,
      template: d.template,
      ledgerCreatedAtMicros: d.createdAtMicros,
    };
  }
  c.record('proof', 'proof.fields', pool, compareFields(e, ex.value, d.createdAtMicros));
  const trusted = idStatus === 'pass' && tFindings.every((f) => f.code !== 'PROOF_TEMPLATE_UNEXPECTED');
  const status: ProvenStatus = trusted
    ? 'proven'
    : idStatus === 'could-not-check'
      ? 'unverifiable'
      : 'failed';
  return {
    ...base,
    status,
    fields: trusted ? ex.value : null,
    template: d.template,
    ledgerCreatedAtMicros: d.createdAtMicros,
  };
}

/**
 * Checks every proof. `verifications[i]` belongs to `proofs[i]`. Returns the pools by pool id
 * (the first proof of a pool when there are duplicates, which are findings).
 */
export function checkProofs(
  c: AuditCollector,
  proofs: readonly ProofEntry[],
  verifications: readonly ProofVerification[],
  profile: ReserveProfile,
): Map<string, ProvenPool> {
  const out = new Map<string, ProvenPool>();
  const byContract = new Map<string, string>();
  const dup: Finding[] = [];
  proofs.forEach((e, i) => {
    const v: ProofVerification = verifications[i] ?? {
      idStatus: 'could-not-check',
      reasons: ['no verification result'],
      recomputedContractId: null,
      decoded: null,
      decodeError: 'not verified',
    };
    if (out.has(e.poolId)) {
      dup.push(
        makeFinding('PROOF_DUPLICATE', e.poolId, `pool ${e.poolId} has more than one proof`, {
          got: e.contractId,
        }),
      );
      return;
    }
    const other = byContract.get(e.contractId);
    if (other !== undefined)
      dup.push(
        makeFinding(
          'PROOF_DUPLICATE',
          e.poolId,
          `contract ${e.contractId.slice(0, 16)}… backs pools ${other} and ${e.poolId}`,
          { contractId: e.contractId, pools: [other, e.poolId] },
        ),
      );
    byContract.set(e.contractId, e.poolId);
    out.set(e.poolId, checkOneProof(c, e, v, profile));
  });
  c.record('proof', 'proof.unique', null, dup);
  return out;
}
