/**
 * Reads a `created_event_blob` given on the command line (docs/protocol/blob-format.md §1: base64 in JSON
 * APIs, raw bytes from gRPC). Accepted forms:
 *   - a base64 string (standard alphabet, with padding);
 *   - `@path`: a file holding either base64 text (surrounding/embedded whitespace allowed, e.g. a
 *     line-wrapped `base64` output) or the raw binary blob — detected from the content;
 *   - `-`: the same, read from stdin. yargs hands a bare `-` over as the empty string, so `''` means
 *     stdin too (an empty blob is never valid anyway).
 */
import { resolve } from 'node:path';
import { parseBase64 } from '../core/codec/bytes.js';
import { DEFAULT_MAX_BYTES } from '../core/codec/limits.js';
import { formatGot } from '../errors/base.js';
import { CodecError } from '../errors/codec.js';
import { readBoundedFile } from '../io/files/bounded-file.js';
import type { CliContext } from './command.js';

export interface ReadBlobOptions {
  /** largest decoded blob accepted (default 1 MiB) */
  readonly maxBytes?: number;
}

/** Resolves a blob argument (base64, `@path` or `-`) to the blob bytes. */
export async function readBlobArgument(
  arg: string,
  ctx: CliContext,
  options: ReadBlobOptions = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  // base64 text of maxBytes bytes, plus room for line breaks
  const maxRaw = Math.ceil(maxBytes / 3) * 4 * 2 + 1024;
  if (arg === '-' || arg === '') {
    return decodeBlobFileContent(await readStream(ctx.stdin, maxRaw, maxBytes), 'stdin', maxBytes);
  }
  if (arg.startsWith('@')) {
    const path = resolve(ctx.cwd, arg.slice(1));
    const content = await readBoundedFile(path, maxRaw, {
      tooLarge: (size) =>
        new CodecError('BLOB_TOO_LARGE', `"${arg}" expected a file of at most ${maxRaw} bytes, got ${size}`),
      unreadable: (reason, cause) =>
        new CodecError('INPUT_UNREADABLE', `"${arg}" expected a readable file, got: ${reason}`, { cause }),
    });
    return decodeBlobFileContent(content, arg, maxBytes);
  }
  return parseBase64(arg.trim(), 'blob', maxBytes);
}

const BASE64_TEXT = /^[A-Za-z0-9+/=\s]*$/;

/**
 * Decides whether file/stdin content is base64 text or a raw blob. A raw blob starts with the
 * `Versioned.version` tag 0x0a followed by a length byte (< 0x20), which is never base64 text.
 */
function decodeBlobFileContent(content: Uint8Array, source: string, maxBytes: number): Uint8Array {
  let text = '';
  let isText = true;
  for (let i = 0; i < content.length; i++) {
    const c = content[i]!;
    if (c >= 128) {
      isText = false;
      break;
    }
    text += String.fromCharCode(c);
  }
  if (isText && BASE64_TEXT.test(text) && text.trim().length > 0) {
    return parseBase64(text.replace(/\s+/g, ''), source, maxBytes);
  }
  if (content.length > maxBytes) {
    throw new CodecError(
      'BLOB_TOO_LARGE',
      `"${source}" expected at most ${maxBytes} bytes, got ${content.length}`,
    );
  }
  if (content.length === 0) {
    throw new CodecError('INPUT_UNREADABLE', `"${source}" expected a blob, got ${formatGot('')}`);
  }
  return content;
}

async function readStream(
  stream: NodeJS.ReadableStream,
  limit: number,
  maxBytes: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
      total += bytes.length;
      if (total > limit) {
        throw new CodecError(
          'BLOB_TOO_LARGE',
          `"stdin" expected a blob of at most ${maxBytes} bytes, got more`,
        );
      }
      chunks.push(bytes);
    }
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw new CodecError('INPUT_UNREADABLE', `"stdin" expected a readable stream, got: ${reason}`, {
      cause: e,
    });
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}
