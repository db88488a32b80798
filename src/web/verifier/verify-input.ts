/**
 * The logic of the single-file verifier page (issue 13 "the verifier"), free of the DOM so it can
 * be read and tested apart from the page: the type environment the user builds by dropping DARs or
 * type files, one contract ID + blob → a verdict with coded reasons and the decoded contract, and a
 * whole `/pools/proof` document → the one proof step per pool. SHA-256 is @noble/hashes (the core's
 * default), raw inflate for DARs is fflate's — both pure JS, so nothing leaves the page.
 */
import { inflateSync } from 'fflate';
import {
  type ContractIdVerification,
  formatDecodedContractJson,
  formatQualifiedName,
  isReserveAuditError,
  isZip,
  loadDalf,
  loadDar,
  parseBase64,
  parseContractId,
  parseTypeFile,
  sha256Noble,
  type VerificationStatus,
  verifyContractId,
} from '../../core/index.js';
import {
  DEFAULT_RESERVE_PROFILE,
  extractProvenFields,
  findTemplateProfile,
  type ProvenFields,
  verifyReserveProof,
} from '../../core/proof/index.js';
import { addPackage, createTypeEnv, type TypeEnv } from '../../core/types/type-env.js';
import { parsePoolsProofResponse } from '../../core/wire/pools-proof.js';
import { formatApiTimestampMicros } from '../../core/wire/timestamp.js';

/** Raw inflate for the zip reader; refuses output beyond what the entry announced (zip-bomb guard). */
function inflateRawBrowser(data: Uint8Array, maxOutput: number): Uint8Array {
  const out = inflateSync(data, { out: new Uint8Array(Math.max(1, maxOutput)) });
  if (out.length > maxOutput) throw new Error(`inflated past ${maxOutput} bytes`);
  return out;
}

/** The types the page verifies V12 IDs with, and where they came from. */
export interface VerifierTypes {
  readonly env: TypeEnv;
  readonly sources: { readonly name: string; readonly packages: number }[];
}

export function createVerifierTypes(): VerifierTypes {
  return { env: createTypeEnv(), sources: [] };
}

/** Adds a dropped file: a DAR (zip), a bare DALF, or a JSON type file. Throws a typed error. */
export function addTypeSource(t: VerifierTypes, name: string, bytes: Uint8Array): number {
  let packages: readonly { readonly types: Parameters<typeof addPackage>[1] }[];
  if (isZip(bytes))
    packages = loadDar(bytes, { inflateRaw: inflateRawBrowser, sha256: sha256Noble }).packages;
  else if (bytes[0] === 0x7b)
    packages = parseTypeFile(new TextDecoder().decode(bytes)).packages.map((types) => ({ types }));
  else packages = loadDalf(bytes, { sha256: sha256Noble }).packages;
  for (const p of packages) addPackage(t.env, p.types);
  t.sources.push({ name, packages: packages.length });
  return packages.length;
}

/** What the page shows for one contract. */
export interface ContractView {
  readonly contractId: string;
  readonly verdict: VerificationStatus;
  readonly version: string | null;
  readonly reasons: readonly { readonly code: string; readonly message: string }[];
  /** null when the blob did not decode */
  readonly template: string | null;
  readonly packageName: string | null;
  readonly signatories: readonly string[];
  readonly createdAt: string | null;
  /** the reserve fields read through the default reserve profile (null: not a reserve template) */
  readonly reserves: ProvenFields | null;
  /** formatDecodedContractJson of the blob, or null */
  readonly decoded: unknown;
}

/** Base64url (a shareable link) or standard base64 → standard padded base64. */
export function normaliseBase64(text: string): string {
  const s = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  return s.length % 4 === 0 ? s : s + '='.repeat(4 - (s.length % 4));
}

function couldNotCheck(contractId: string, e: unknown): ContractView {
  if (!isReserveAuditError(e)) throw e;
  return {
    contractId,
    verdict: 'could-not-check',
    version: null,
    reasons: [{ code: e.code, message: e.shortMessage }],
    template: null,
    packageName: null,
    signatories: [],
    createdAt: null,
    reserves: null,
    decoded: null,
  };
}

/** What the page shows of one contract-ID verification (the verdict, its reasons, the decoded contract). */
function contractViewOf(contractId: string, r: ContractIdVerification): ContractView {
  const c = r.contract;
  let reserves: ProvenFields | null = null;
  if (c !== null) {
    const tp = findTemplateProfile(DEFAULT_RESERVE_PROFILE, {
      packageId: c.templateId.packageId,
      packageName: c.packageName,
      moduleName: c.templateId.module.join('.'),
      entityName: c.templateId.entity.join('.'),
    });
    const ex = tp === null ? null : extractProvenFields(tp, c.createArg, null);
    reserves = ex?.ok ? ex.value : null;
  }
  return {
    contractId,
    verdict: r.status,
    version: r.version,
    reasons: r.reasons.map(({ code, message }) => ({ code, message })),
    template: c === null ? null : formatQualifiedName(c.templateId),
    packageName: c?.packageName ?? null,
    signatories: c?.signatories ?? [],
    // the API's timestamp format, as the report page and `ledger_created_at` write it
    createdAt: c === null ? null : formatApiTimestampMicros(c.createdAt),
    reserves,
    decoded: c === null ? null : formatDecodedContractJson(c),
  };
}

const typesOf = (t: VerifierTypes): TypeEnv | undefined => (t.sources.length === 0 ? undefined : t.env);

/** One contract ID and its created_event_blob (base64 or base64url) → the verdict the CLI's verify-contract gives. */
export function verifyPastedContract(
  contractIdText: string,
  blobText: string,
  t: VerifierTypes,
): ContractView {
  const contractId = contractIdText.trim().toLowerCase();
  try {
    const blob = parseBase64(normaliseBase64(blobText), 'created_event_blob', 1 << 20);
    return contractViewOf(
      contractId,
      verifyContractId({ contractId, blob, types: typesOf(t), sha256: sha256Noble }),
    );
  } catch (e) {
    return couldNotCheck(contractId, e);
  }
}

/** One pool of a /pools/proof document, verified by the one proof step. */
export interface PoolView {
  readonly poolId: string;
  readonly pair: string;
  readonly contract: ContractView;
  /** the proof step's status: proven / failed / unverifiable */
  readonly proof: string;
  /** the published reserve_a, reserve_b, total_lp_supply equal the blob's */
  readonly publishedMatches: boolean | null;
  readonly published: {
    readonly reserveA: string;
    readonly reserveB: string;
    readonly totalLpSupply: string;
  };
}

/** A dropped /pools/proof JSON → every pool verified. Throws a typed error when it is not one. */
export function verifyProofDocument(text: string, t: VerifierTypes): PoolView[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(
      `expected a /pools/proof JSON document, got invalid JSON (${(e as Error).message})`,
    );
  }
  const doc = parsePoolsProofResponse(json);
  return doc.data.pools.map((p) => {
    const rc = p.reserve_contract;
    // the one proof step; the contract's view is read from the contract-ID verification it made
    const proof = verifyReserveProof({
      contractId: rc.contract_id,
      blob: rc.created_event_blob,
      types: typesOf(t),
      profile: DEFAULT_RESERVE_PROFILE,
      sha256: sha256Noble,
    });
    const verification = proof.evidence?.verification;
    const contract =
      verification === undefined
        ? verifyPastedContract(rc.contract_id, rc.created_event_blob, t)
        : contractViewOf(rc.contract_id, verification);
    const f = proof.blobFields;
    return {
      poolId: p.pool_id,
      pair: `${p.token_a_instrument.id}/${p.token_b_instrument.id}`,
      contract,
      proof: proof.status,
      publishedMatches:
        f === null
          ? null
          : f.reserveA === rc.reserve_a &&
            f.reserveB === rc.reserve_b &&
            f.totalLpSupply === rc.total_lp_supply,
      published: { reserveA: rc.reserve_a, reserveB: rc.reserve_b, totalLpSupply: rc.total_lp_supply },
    };
  });
}

/** The contract ID's version alone (shown while typing), or null. */
export function peekContractIdVersion(text: string): string | null {
  try {
    return parseContractId(text.trim().toLowerCase()).version;
  } catch {
    return null;
  }
}
