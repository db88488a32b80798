/**
 * `reserve-audit verify-contract --contract-id <hex> --blob <b64|@file|-> [--types <file>]... [--dar <file>]... [--json]`
 * Recomputes a Canton contract ID from a created_event_blob (spec/contract-id.md §1, §9) and
 * says verified / MISMATCH / could not check. Exit codes: 0 verified, 1 mismatch, 2 could not check.
 */
import type { Argv } from 'yargs';
import type { ContractIdVerification, VerificationReason } from '../../core/hash/verify-contract-id.js';
import { verifyContractId } from '../../core/hash/verify-contract-id.js';
import { formatQualifiedName } from '../../core/types/daml-type.js';
import type { TypeEnv } from '../../core/types/type-env.js';
import { isReserveAuditError } from '../../errors/base.js';
import { loadTypeEnvFromFiles } from '../../io/files/dar-file.js';
import { sha256Node } from '../../io/node-sha256.js';
import type { CliCommand, CliContext } from '../command.js';
import { EXIT_COULD_NOT_CHECK, EXIT_FAILED, EXIT_OK } from '../exit-codes.js';
import { readBlobArgument } from '../read-input.js';

export interface CliTypeSources {
  /** --types <file>, repeatable */
  readonly typeFiles: readonly string[];
  /** --dar <file>, repeatable (wired by the DAR loader) */
  readonly dars: readonly string[];
}

/**
 * The seam where the command gets its Daml types: type files and DARs. Returns undefined when
 * none were given (V10/V11 need none; V12 then reports TYPES_REQUIRED).
 */
export async function loadTypesForCli(
  sources: CliTypeSources,
  ctx: CliContext,
): Promise<TypeEnv | undefined> {
  if (sources.typeFiles.length === 0 && sources.dars.length === 0) return undefined;
  const { env } = await loadTypeEnvFromFiles(
    { dars: sources.dars, typeFiles: sources.typeFiles },
    { cwd: ctx.cwd },
  );
  return env;
}

function stringList(x: unknown): string[] {
  if (x === undefined) return [];
  return (Array.isArray(x) ? x : [x]).map(String);
}

function couldNotCheck(e: unknown): ContractIdVerification {
  const reason: VerificationReason = isReserveAuditError(e)
    ? { code: e.code, message: e.shortMessage, mismatch: false }
    : { code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e), mismatch: false };
  return {
    ok: false,
    status: 'could-not-check',
    version: null,
    reasons: [reason],
    contractHash: null,
    unicum: null,
    expectedSuffix: null,
    actualSuffix: null,
    embeddedContractIdMatches: null,
    embeddedContractId: null,
    contract: null,
  };
}

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

/** One human line: `verified: …`, `MISMATCH: …` or `could not check: …`. */
export function formatVerificationLine(r: ContractIdVerification): string {
  const c = r.contract;
  const what =
    c === null
      ? ''
      : ` ${c.packageName} ${formatQualifiedName(c.templateId)}${r.version === null ? '' : ` (${r.version})`}`;
  const reasons = r.reasons.map((x) => `${x.code}: ${x.message}`).join('; ');
  switch (r.status) {
    case 'verified':
      return `verified:${what} contract id matches the blob${r.typing?.upgraded ? ` (${r.typing.note})` : ''}`;
    case 'mismatch':
      return `MISMATCH:${what} ${reasons}`;
    default:
      return `could not check:${what} ${reasons}`;
  }
}

export const verifyContractCommand: CliCommand = {
  command: 'verify-contract',
  describe:
    'recompute a contract ID from a created_event_blob and compare (exit 0 verified, 1 mismatch, 2 could not check)',
  builder: (y: Argv) =>
    y
      .option('contract-id', {
        type: 'string',
        demandOption: true,
        describe: 'published contract ID (138 lower-case hex chars)',
      })
      .option('blob', {
        type: 'string',
        nargs: 1,
        demandOption: true,
        describe: 'created_event_blob: base64, @file or - (stdin)',
      })
      .option('types', {
        type: 'string',
        array: true,
        describe: 'JSON type file for V12 (repeatable; docs/type-file.md)',
      })
      .option('dar', {
        type: 'string',
        array: true,
        describe: 'DAR or DALF with the Daml types for V12 (repeatable)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print the result as JSON' }),
  run: async (args, ctx) => {
    const contractId = String(args['contract-id'] ?? args.contractId ?? '');
    let result: ContractIdVerification;
    try {
      const blob = await readBlobArgument(String(args.blob), ctx);
      const types = await loadTypesForCli(
        { typeFiles: stringList(args.types), dars: stringList(args.dar) },
        ctx,
      );
      result = verifyContractId({ contractId, blob, types, sha256: sha256Node });
    } catch (e) {
      result = couldNotCheck(e);
    }
    if (args.json === true)
      ctx.stdout.write(`${JSON.stringify(formatVerificationJson(contractId, result), null, 2)}\n`);
    else ctx.stdout.write(`${formatVerificationLine(result)}\n`);
    return result.status === 'verified'
      ? EXIT_OK
      : result.status === 'mismatch'
        ? EXIT_FAILED
        : EXIT_COULD_NOT_CHECK;
  },
};
