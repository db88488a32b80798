/**
 * `reserve-audit verify-contract --contract-id <hex> --blob <b64|@file|-> [--types <file>]... [--dar <file>]... [--json]`
 * `reserve-audit verify-contract --batch <file|-> [--types <file>]... [--dar <file>]... [--json]`
 * Recomputes a Canton contract ID from a created_event_blob (docs/protocol/contract-id.md §1, §9) and
 * says verified / MISMATCH / could not check — for one contract, or for every contract of a JSON
 * Lines file or API response (src/run/verify-batch.ts). The bundled reference server's types are
 * always known (src/io/files/default-types.ts). Exit codes: 0 verified, 1 mismatch, 2 could not
 * check; a batch exits with its worst verdict.
 */
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { ContractIdVerification, VerificationReason } from '../../core/hash/verify-contract-id.js';
import { verifyContractId } from '../../core/hash/verify-contract-id.js';
import { isReserveAuditError, type ReserveAuditError } from '../../errors/base.js';
import { loadTypesWithDefault } from '../../io/files/default-types.js';
import { sha256Node } from '../../io/node-sha256.js';
import type { CliContext } from '../command.js';
import { defineCommand } from '../command.js';
import { type ExitCode, exitCodeOfBatch, exitCodeOfVerification } from '../exit-codes.js';
import {
  failOptionText,
  jsonOption,
  parseTypeSourceOptions,
  type TypeSourceOptions,
  typeSourceOptions,
} from '../options.js';
import { readBlobArgument } from '../read-input.js';
import {
  type BatchCounts,
  formatBatchSummary,
  formatBatchVerdictJson,
  formatBatchVerdictLine,
} from '../render/batch.js';
import { createProgress } from '../render/progress.js';
import { formatVerificationJson, formatVerificationLine } from '../render/verification.js';
import { COMMAND_CATALOG } from './catalog.js';

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

/** Writes text in chunks of about 64 KiB, waiting when the stream asks to (bounded memory). */
function createChunkedWriter(out: NodeJS.WritableStream): {
  write(text: string): Promise<void>;
  flush(): Promise<void>;
} {
  let buf = '';
  const flush = async (): Promise<void> => {
    if (buf === '') return;
    const s = buf;
    buf = '';
    if (out.write(s)) return;
    // wait for the reader; a reader that went away (`| head`) ends the wait too: the rest is dropped
    await new Promise<void>((resolve) => {
      const done = (): void => {
        out.off('drain', done);
        out.off('close', done);
        out.off('error', done);
        resolve();
      };
      out.on('drain', done);
      out.on('close', done);
      out.on('error', done);
      if ((out as { destroyed?: boolean }).destroyed === true) done();
    });
  };
  return {
    async write(text) {
      buf += text;
      if (buf.length >= 65_536) await flush();
    },
    flush,
  };
}

async function runBatch(
  file: string,
  json: boolean,
  sources: TypeSourceOptions,
  ctx: CliContext,
): Promise<ExitCode> {
  const started = performance.now();
  const types = await loadTypesWithDefault({ ...sources, cwd: ctx.cwd });
  const stdin = file === '-' || file === '';
  const source = stdin ? 'stdin' : file;
  const input = stdin ? ctx.stdin : createReadStream(resolve(ctx.cwd, file));
  // the batch pipeline (and the verdict engine it compiles) only for a batch
  const { verifyContractBatch } = await import('../../run/verify-batch.js');
  const counts: BatchCounts = { verified: 0, mismatch: 0, couldNotCheck: 0 };
  const out = createChunkedWriter(ctx.stdout);
  const progress = createProgress(ctx.stderr, ctx.env);
  let lastProgress = started;
  for await (const v of verifyContractBatch(input as AsyncIterable<Uint8Array>, { types, source })) {
    if (v.status === 'verified') counts.verified++;
    else if (v.status === 'mismatch') counts.mismatch++;
    else counts.couldNotCheck++;
    await out.write(`${json ? JSON.stringify(formatBatchVerdictJson(v)) : formatBatchVerdictLine(v)}\n`);
    if ((v.index & 255) === 0) {
      const now = performance.now();
      if (now - lastProgress > 200) {
        lastProgress = now;
        progress.update(`${v.index} contracts checked…`);
      }
    }
  }
  progress.clear();
  const summary = formatBatchSummary(counts, (performance.now() - started) / 1000);
  if (json) {
    await out.flush();
    ctx.stderr.write(`reserve-audit: ${summary}\n`);
  } else await out.write(`${summary}\n`);
  await out.flush();
  if (counts.verified + counts.mismatch + counts.couldNotCheck === 0)
    ctx.stderr.write(
      `reserve-audit: could not check: "${source}" expected contracts (JSON Lines or a JSON document with created_event_blob fields), got none\n`,
    );
  return exitCodeOfBatch(counts);
}

export const verifyContractCommand = defineCommand({
  ...COMMAND_CATALOG['verify-contract'],
  builder: (y) =>
    y
      .option('contract-id', {
        type: 'string',
        describe: 'published contract ID (138 lower-case hex chars)',
      })
      .option('blob', {
        type: 'string',
        nargs: 1,
        describe: 'created_event_blob: base64, @file or - (stdin)',
      })
      .option('batch', {
        type: 'string',
        nargs: 1,
        describe:
          'verify every contract of a file (or - for stdin): JSON Lines of {contract_id, created_event_blob}, or an API response holding created_event_blob fields',
      })
      .options(typeSourceOptions)
      .option('json', jsonOption('print the result as JSON (with --batch: one object per line)')),
  run: async (args, ctx) => {
    const sources = parseTypeSourceOptions(args);
    if (args.batch !== undefined) {
      if (args['contract-id'] !== undefined || args.blob !== undefined)
        failOptionText('batch', 'alone (the contracts come from the file)', '--contract-id or --blob too');
      return runBatch(args.batch, args.json, sources, ctx);
    }
    const contractId = args['contract-id'];
    if (contractId === undefined || args.blob === undefined)
      return failOptionText(
        contractId === undefined ? 'contract-id' : 'blob',
        '(or --batch <file>)',
        'nothing',
      );
    let result: ContractIdVerification;
    try {
      const blob = await readBlobArgument(args.blob, ctx);
      const types = await loadTypesWithDefault({ ...sources, cwd: ctx.cwd });
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
