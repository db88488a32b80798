/**
 * Turns the parts of a FatContractInstance into a `DecodedContract` (docs/protocol/blob-format.md §2.3,
 * §4 rule 4; docs/protocol/contract-id.md §4): required fields, strictly sorted party lists,
 * signatories = non_maintainer_signatories ∪ key maintainers, stakeholders = signatories ∪
 * non_signatory_stakeholders (each pair disjoint, signatories non-empty), authentication data parsed.
 */
import { formatGot } from '../../errors/base.js';
import { CodecError } from '../../errors/codec.js';
import { decodeAuthenticationData } from './authentication-data.js';
import type { BlobLayout, ContractKey, DecodedContract, TemplateId } from './contract.js';
import { checkContractIdBytes, firstUnsorted } from './validate.js';
import type { Value } from './value.js';

export interface FciParts {
  contractId?: Uint8Array;
  packageName?: string;
  templateId?: TemplateId;
  createArg?: Value;
  nonMaintainerSignatories: string[];
  nonSignatoryStakeholders: string[];
  createdAt?: bigint;
  authenticationData?: Uint8Array;
  packageVersion: number[];
  key?: ContractKey;
}

function checkSorted(list: readonly string[], what: string): void {
  const i = firstUnsorted(list);
  if (i >= 0) {
    const dup = list[i] === list[i - 1];
    throw new CodecError(
      'BLOB_UNSORTED_PARTIES',
      `"${what}" expected strictly ascending parties, got ${dup ? 'a duplicate' : 'an unsorted entry'} ${formatGot(list[i])} at index ${i}`,
      { details: { index: i } },
    );
  }
}

/** Merges two strictly ascending lists; returns null when they share an element. */
function mergeDisjoint(a: readonly string[], b: readonly string[]): string[] | null {
  if (b.length === 0) return a as string[];
  if (a.length === 0) return b as string[];
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x === y) return null;
    if (x < y) {
      out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  while (i < a.length) out.push(a[i++]!);
  while (j < b.length) out.push(b[j++]!);
  return out;
}

export function assemble(p: FciParts, version: string, layout: BlobLayout): DecodedContract {
  if (p.contractId === undefined || p.contractId.length === 0) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.contract_id" expected contract-id bytes, got none`,
    );
  }
  const bad = checkContractIdBytes(p.contractId);
  if (bad !== null) {
    throw new CodecError(
      'BLOB_INVALID_FIELD',
      `"FatContractInstance.contract_id" expected ${bad}, got ${p.contractId.length} bytes`,
    );
  }
  if (p.templateId === undefined) {
    throw new CodecError(
      'BLOB_MISSING_FIELD',
      `"FatContractInstance.template_id" expected an Identifier, got none`,
    );
  }
  if (p.createArg === undefined) {
    throw new CodecError('BLOB_MISSING_FIELD', `"FatContractInstance.create_arg" expected a Value, got none`);
  }
  checkSorted(p.nonMaintainerSignatories, 'FatContractInstance.non_maintainer_signatories');
  checkSorted(p.nonSignatoryStakeholders, 'FatContractInstance.non_signatory_stakeholders');
  const maintainers = p.key?.maintainers ?? [];
  checkSorted(maintainers, 'KeyWithMaintainers.maintainers');
  const signatories = mergeDisjoint(p.nonMaintainerSignatories, maintainers);
  if (signatories === null) {
    throw new CodecError(
      'BLOB_INCONSISTENT_PARTIES',
      `"FatContractInstance.non_maintainer_signatories" expected no key maintainer, got an overlap`,
    );
  }
  if (signatories.length === 0) {
    throw new CodecError('BLOB_INCONSISTENT_PARTIES', `"signatories" expected at least one party, got none`);
  }
  const stakeholders = mergeDisjoint(signatories, p.nonSignatoryStakeholders);
  if (stakeholders === null) {
    throw new CodecError(
      'BLOB_INCONSISTENT_PARTIES',
      `"FatContractInstance.non_signatory_stakeholders" expected no signatory, got an overlap`,
    );
  }
  const raw = p.authenticationData ?? new Uint8Array(0);
  return {
    serializationVersion: version,
    layout,
    contractId: p.contractId,
    packageName: p.packageName ?? '',
    templateId: p.templateId,
    createArg: p.createArg,
    nonMaintainerSignatories: p.nonMaintainerSignatories,
    nonSignatoryStakeholders: p.nonSignatoryStakeholders,
    signatories,
    stakeholders,
    createdAt: p.createdAt ?? 0n,
    authenticationData: decodeAuthenticationData(raw, p.contractId),
    key: p.key ?? null,
    packageVersion: p.packageVersion,
  };
}
