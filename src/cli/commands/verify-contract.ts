/**
 * `reserve-audit verify-contract --contract-id <hex> --blob <b64|@file|-> [--types <file>]... [--dar <file>]... [--json]`
 * Recomputes a Canton contract ID from a created_event_blob (docs/protocol/contract-id.md §1, §9) and
 * says verified / MISMATCH / could not check. Exit codes: 0 verified, 1 mismatch, 2 could not check.
 */
import type { ContractIdVerification, VerificationReason } from '../../core/hash/verify-contract-id.js';
import { verifyContractId } from '../../core/hash/verify-contract-id.js';
import type { TypeEnv } from '../../core/types/type-env.js';
import { isReserveAuditError, type ReserveAuditError } from '../../errors/base.js';
import { loadTypeEnvFromFiles } from '../../io/files/dar-file.js';
import { sha256Node } from '../../io/node-sha256.js';
import { type CliContext, defineCommand } from '../command.js';
import { exitCodeOfVerification } from '../exit-codes.js';
import {
  darOption,
  jsonOption,
  parseTypeSourceOptions,
  type TypeSourceOptions,
  typesOption,
} from '../options.js';
import { readBlobArgument } from '../read-input.js';
import { formatVerificationJson, formatVerificationLine } from '../render/verification.js';

/**
 * The seam where the command gets its Daml types: type files and DARs. Returns undefined when
 * none were given (V10/V11 need none; V12 then reports TYPES_REQUIRED).
 */
async function loadTypesForCli(sources: TypeSourceOptions, ctx: CliContext): Promise<TypeEnv | undefined> {
  if (sources.typeFiles.length === 0 && sources.dars.length === 0) return undefined;
  const { env } = await loadTypeEnvFromFiles(
    { dars: sources.dars, typeFiles: sources.typeFiles },
    { cwd: ctx.cwd },
  );
  return env;
}

function couldNotCheck(e: ReserveAuditError): ContractIdVerification {
  const reason: VerificationReason = { code: e.code, message: e.shortMessage, mismatch: false };
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

export const verifyContractCommand = defineCommand({
  command: 'verify-contract',
  describe:
    'recompute a contract ID from a created_event_blob and compare (exit 0 verified, 1 mismatch, 2 could not check)',
  builder: (y) =>
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
      .option('types', typesOption)
      .option('dar', darOption)
      .option('json', jsonOption('print the result as JSON')),
  run: async (args, ctx) => {
    const contractId = args['contract-id'];
    const sources = parseTypeSourceOptions(args);
    let result: ContractIdVerification;
    try {
      const blob = await readBlobArgument(args.blob, ctx);
      const types = await loadTypesForCli(sources, ctx);
      result = verifyContractId({ contractId, blob, types, sha256: sha256Node });
    } catch (e) {
      // a typed error (bad blob, unreadable type file) is a verdict: could not check; a bug is not
      if (!isReserveAuditError(e)) throw e;
      result = couldNotCheck(e);
    }
    if (args.json)
      ctx.stdout.write(`${JSON.stringify(formatVerificationJson(contractId, result), null, 2)}\n`);
    else ctx.stdout.write(`${formatVerificationLine(result)}\n`);
    return exitCodeOfVerification(result.status);
  },
});
