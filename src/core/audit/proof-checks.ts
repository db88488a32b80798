/**
 * Proof checks (the issue "Proofs"; docs/protocol/contract-id.md §0, §13): every /pools/proof entry's
 * contract ID must recompute from its blob and equal the ID embedded in the blob; the blob must be
 * a template the reserve profile lists; the JSON reserves, LP supply, ledger_created_at, template
 * identity, pool id and tokens must equal what the blob contains. An unverifiable proof is
 * could-not-check, never a pass. Only a verified blob yields `proven` values for later checks.
 * The proof itself is the one proof step of src/core/proof (`assessReserveProof`); this file only
 * turns its result into checks and findings.
 */
import { compareReserveAmounts } from '../proof/compare-fields.js';
import type { ProofEvidence } from '../proof/evidence.js';
import type { ProvenFields, ReserveProfile } from '../proof/profile.js';
import { assessReserveProof, hasProofReason, type ReserveProof } from '../proof/reserve-proof.js';
import { formatApiTimestampMicros, parseTimestampMicros } from '../wire/timestamp.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { ProofEntry, TemplateIdentity, TokenKey } from './snapshot.js';

/**
 * What decoding and recomputing one proof gave (src/core/proof/evidence.ts); kept under this name
 * for library callers that build evidence by hand and complete it with `assessReserveProof`.
 */
export type ProofVerification = ProofEvidence;

/** What the checks use when the proof step produced no result for an entry. */
const NO_EVIDENCE: ProofEvidence = {
  idStatus: 'could-not-check',
  reasons: ['no verification result'],
  idReason: null,
  recomputedContractId: null,
  decoded: null,
  decodeError: 'not verified',
};

export type ProvenStatus = ReserveProof['status'];

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

/**
 * Whether proven fields `f` are a contract of the pool `poolId` whose proof entry is `entry`: the
 * contract's pool id when the profile reads one, else its two tokens.
 */
export function isProofOfPool(f: ProvenFields, entry: ProofEntry, poolId: string): boolean {
  return f.poolId === null
    ? f.tokenA !== null &&
        f.tokenB !== null &&
        entry.tokenA.admin === f.tokenA.admin &&
        entry.tokenA.id === f.tokenA.id &&
        entry.tokenB.admin === f.tokenB.admin &&
        entry.tokenB.id === f.tokenB.id
    : f.poolId === poolId;
}

const sameToken = (a: TokenKey | null, b: TokenKey): boolean =>
  a === null || (a.admin === b.admin && a.id === b.id);
const sameTemplate = (a: TemplateIdentity, b: TemplateIdentity): boolean =>
  a.packageId === b.packageId &&
  a.packageName === b.packageName &&
  a.moduleName === b.moduleName &&
  a.entityName === b.entityName;

/**
 * What a source says about a reserve contract: the proof JSON (the audit) or the mirror's record
 * (replay). The optional claims are compared when given.
 */
export interface ClaimedContract {
  readonly poolId: string;
  readonly contractId: string;
  readonly reserveA: string;
  readonly reserveB: string;
  readonly totalLpSupply: string;
  readonly ledgerCreatedAt?: string | undefined;
  readonly template?: TemplateIdentity | undefined;
  readonly tokenA?: TokenKey | undefined;
  readonly tokenB?: TokenKey | undefined;
}

/**
 * The findings of one proof against what a source claims, per check: `contractId`, `template` and
 * `fields`; a check that could not run is a string saying why (a skip).
 */
export interface ReserveProofFindings {
  readonly contractId: Finding[];
  readonly template: Finding[] | string;
  readonly fields: Finding[] | string;
}

function compareFields(
  e: ClaimedContract,
  f: ProvenFields,
  createdAt: bigint | null,
  source: string,
): Finding[] {
  const out: Finding[] = [];
  const pool = e.poolId;
  const field = (name: string, expected: unknown, got: unknown): void => {
    out.push(
      makeFinding(
        'PROOF_FIELD_MISMATCH',
        pool,
        `${source} ${name} is ${JSON.stringify(got)}, the blob says ${JSON.stringify(expected)}`,
        { field: name, expected, got },
      ),
    );
  };
  for (const d of compareReserveAmounts(f, e)) field(d.field, d.expected, d.got);
  if (
    e.ledgerCreatedAt !== undefined &&
    createdAt !== null &&
    parseTimestampMicros(e.ledgerCreatedAt) !== createdAt
  )
    field('ledger_created_at', formatApiTimestampMicros(createdAt), e.ledgerCreatedAt);
  if (f.poolId !== null && f.poolId !== e.poolId) field('pool_id', f.poolId, e.poolId);
  if (e.tokenA !== undefined && !sameToken(f.tokenA, e.tokenA))
    field('token_a_instrument', f.tokenA, e.tokenA);
  if (e.tokenB !== undefined && !sameToken(f.tokenB, e.tokenB))
    field('token_b_instrument', f.tokenB, e.tokenB);
  return out;
}

/**
 * The one proof-to-findings rule, used by the audit (the proof JSON) and replay (the mirror's
 * record): what the proof step found wrong with the contract, and where the claims differ from
 * the blob. `source` names the claims in messages ("proof JSON", "recorded").
 */
export function checkReserveProof(
  proof: ReserveProof<ProofEvidence | null>,
  e: ClaimedContract,
  profile: ReserveProfile,
  source: string,
): ReserveProofFindings {
  const pool = e.poolId;
  const v = proof.evidence;
  // the verdict detail: the engine proved it and the fields read cleanly (no evidence needed)
  if (v === null)
    return {
      contractId: [],
      template:
        proof.template !== null && e.template !== undefined && !sameTemplate(proof.template, e.template)
          ? [templateDiffers(pool, proof.template, e.template, source)]
          : [],
      fields:
        proof.blobFields === null
          ? 'no fields'
          : compareFields(e, proof.blobFields, proof.createdAtMicros, source),
    };
  const d = v.decoded;
  if (d === null)
    return {
      contractId: [
        makeFinding(
          'PROOF_BLOB_MALFORMED',
          pool,
          `created_event_blob does not decode: ${v.decodeError ?? 'unknown reason'}`,
          { contractId: e.contractId, reason: v.decodeError },
        ),
      ],
      template: 'blob did not decode',
      fields: 'blob did not decode',
    };
  // 1. the contract ID
  const idFindings: Finding[] = [];
  if (hasProofReason(proof, 'PUBLISHED_ID_MISMATCH'))
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
  if (hasProofReason(proof, 'ID_NOT_RECOMPUTED'))
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
  else if (hasProofReason(proof, 'ID_UNVERIFIABLE'))
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
  // 2. the template
  const tFindings: Finding[] = [];
  if (proof.templateProfile === null)
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
  if (e.template !== undefined && !sameTemplate(d.template, e.template))
    tFindings.push(templateDiffers(pool, d.template, e.template, source));
  // 3. the fields
  let fields: Finding[] | string;
  if (proof.templateProfile === null) fields = 'template not in the reserve profile';
  else if (proof.blobFields === null) {
    const why = proof.reasons.find((r) => r.code === 'FIELDS_UNREADABLE')?.message ?? 'unknown reason';
    fields = [
      makeFinding('PROOF_UNVERIFIABLE', pool, `reserve fields could not be read from the blob: ${why}`, {
        reason: why,
      }),
    ];
  } else fields = compareFields(e, proof.blobFields, d.createdAtMicros, source);
  return { contractId: idFindings, template: tFindings, fields };
}

function templateDiffers(
  pool: string,
  blob: TemplateIdentity,
  claimed: TemplateIdentity,
  source: string,
): Finding {
  return makeFinding('PROOF_FIELD_MISMATCH', pool, `${source} template differs from the blob template`, {
    field: 'template',
    expected: blob,
    got: claimed,
  });
}

/** Turns one proof's result into checks proof.contract-id, proof.template, proof.fields for its pool. */
function checkOneProof(
  c: AuditCollector,
  e: ProofEntry,
  proof: ReserveProof,
  profile: ReserveProfile,
): ProvenPool {
  const r = checkReserveProof(proof, e, profile, 'proof JSON');
  c.record('proof', 'proof.contract-id', e.poolId, r.contractId);
  for (const [check, found] of [
    ['proof.template', r.template],
    ['proof.fields', r.fields],
  ] as const)
    if (typeof found === 'string') c.skip('proof', check, e.poolId, found);
    else c.record('proof', check, e.poolId, found);
  return {
    poolId: e.poolId,
    contractId: e.contractId,
    entry: e,
    status: proof.status,
    fields: proof.provenFields,
    template: proof.template,
    ledgerCreatedAtMicros: proof.createdAtMicros,
  };
}

/**
 * Checks every proof. `reserveProofs[i]` (the proof step's result) belongs to `proofs[i]`. Returns the pools by pool id
 * (the first proof of a pool when there are duplicates, which are findings).
 */
export function checkProofs(
  c: AuditCollector,
  proofs: readonly ProofEntry[],
  reserveProofs: readonly ReserveProof[],
  profile: ReserveProfile,
): Map<string, ProvenPool> {
  const out = new Map<string, ProvenPool>();
  const byContract = new Map<string, string>();
  const dup: Finding[] = [];
  proofs.forEach((e, i) => {
    const proof = reserveProofs[i] ?? assessReserveProof(e.contractId, NO_EVIDENCE, profile);
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
    out.set(e.poolId, checkOneProof(c, e, proof, profile));
  });
  c.record('proof', 'proof.unique', null, dup);
  return out;
}
