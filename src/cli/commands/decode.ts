/**
 * `reserve-audit decode <blob>`: decodes a created_event_blob (base64, `@file` or `-` for stdin)
 * and prints it as JSON (docs/protocol/blob-format.md; rendering in src/core/codec/contract-json.ts).
 * Exit 0 on success, 2 with a one-line typed error on bad input (reported by main()).
 */
import { decodeCreatedEventBlob, formatDecodedContractJson } from '../../core/codec/index.js';
import { defineCommand } from '../command.js';
import { EXIT_OK } from '../exit-codes.js';
import { readBlobArgument } from '../read-input.js';
import { COMMAND_CATALOG } from './catalog.js';

export const decodeCommand = defineCommand({
  ...COMMAND_CATALOG.decode,
  builder: (y) =>
    y
      .positional('blob', {
        type: 'string',
        describe: 'base64 blob, @path (base64 or raw bytes), or - (stdin)',
      })
      .option('unknown-fields', {
        choices: ['reject', 'report'] as const,
        default: 'reject' as const,
        describe: 'reject blobs with unknown protobuf fields, or skip and list them',
      })
      .option('compact', { type: 'boolean', default: false, describe: 'one-line JSON' }),
  run: async (args, ctx) => {
    const bytes = await readBlobArgument(args.blob ?? '', ctx);
    const contract = decodeCreatedEventBlob(bytes, { unknownFields: args['unknown-fields'] });
    const json = formatDecodedContractJson(contract);
    ctx.stdout.write(`${args.compact ? JSON.stringify(json) : JSON.stringify(json, null, 2)}\n`);
    return EXIT_OK;
  },
});
