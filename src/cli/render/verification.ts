/**
 * Output of `verify-contract`: one human line (`verified: …`, `MISMATCH: …`, `could not check: …`)
 * or a JSON document with stable field names (no bigint).
 */
import type { ContractIdVerification } from '../../core/hash/verify-contract-id.js';
import { formatQualifiedName } from '../../core/types/daml-type.js';

/** The JSON rendering of a verification (stable field names; no bigint). */
export function formatVerificationJson(
  contractId: string,
  r: ContractIdVerification,
): Record<string, unknown> {
  const c = r.contract;
  return {
    status: r.status,
    ok: r.ok,
    contractId,
    version: r.version,
    reasons: r.reasons.map(({ code, message }) => ({ code, message })),
    contractHash: r.contractHash,
    unicum: r.unicum,
    expectedSuffix: r.expectedSuffix,
    actualSuffix: r.actualSuffix,
    embeddedContractId: r.embeddedContractId,
    embeddedContractIdMatches: r.embeddedContractIdMatches,
    template:
      c === null
        ? null
        : {
            packageName: c.packageName,
            packageId: c.templateId.packageId,
            name: formatQualifiedName(c.templateId),
          },
    typing: r.typing ?? null,
  };
}

/** The codes whose message names the types to give; the command line says how. */
const TYPE_CODES = new Set(['TYPES_REQUIRED', 'TYPE_NOT_FOUND']);

/** `CODE: message` of each reason, `; `-joined; a missing-types reason ends with how to give them. */
export function formatReasonsText(
  reasons: readonly { readonly code: string; readonly message: string }[],
): string {
  return reasons
    .map((x) => `${x.code}: ${x.message}${TYPE_CODES.has(x.code) ? ' (--dar <file> or --types <file>)' : ''}`)
    .join('; ');
}

/** One human line: `verified: …`, `MISMATCH: …` or `could not check: …`. */
export function formatVerificationLine(r: ContractIdVerification): string {
  const c = r.contract;
  const what =
    c === null
      ? ''
      : ` ${c.packageName} ${formatQualifiedName(c.templateId)}${r.version === null ? '' : ` (${r.version})`}`;
  const reasons = formatReasonsText(r.reasons);
  switch (r.status) {
    case 'verified':
      return `verified:${what} contract id matches the blob${r.typing?.upgraded ? ` (${r.typing.note})` : ''}`;
    case 'mismatch':
      return `MISMATCH:${what} ${reasons}`;
    default:
      return `could not check:${what} ${reasons}`;
  }
}
