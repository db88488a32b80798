/**
 * JSON values from a byte stream, with bounded memory (docs/cli.md "verify-contract --batch"):
 * JSON Lines are read one line at a time, so a file of any length streams through; a single JSON
 * document spread over several lines (a pretty-printed API response) is read whole, up to
 * `maxDocumentBytes`, and a larger one is refused with a message that says so. The format is
 * told from the first non-blank line: when it parses on its own, the input is JSON Lines; when it
 * does not, the input is one document.
 */
import { StringDecoder } from 'node:string_decoder';
import { CodecError } from '../../errors/codec.js';

/** 256 MiB: the largest JSON document (or JSON Lines line) read at once. */
const DEFAULT_MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

/** One value of the input, or the line that is not JSON. */
export type JsonInputValue =
  | {
      readonly ok: true;
      readonly value: unknown /** 1-based; null for a whole document */;
      readonly line: number | null;
    }
  | { readonly ok: false; readonly error: string; readonly line: number | null };

export interface ReadJsonValuesOptions {
  /** what the input is called in messages (a path, `stdin`) */
  readonly source: string;
  readonly maxDocumentBytes?: number;
}

function parseJson(text: string, line: number | null): JsonInputValue {
  try {
    return { ok: true, value: JSON.parse(text) as unknown, line };
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `expected JSON, got a syntax error (${reason})`, line };
  }
}

const isBlank = (s: string): boolean => s.trim() === '';

/**
 * The JSON values of `input`: each line of JSON Lines (blank lines skipped), or the one document.
 * Throws CodecError INPUT_UNREADABLE when the stream fails and BATCH_INPUT_TOO_LARGE when a
 * document or a line exceeds the cap; a line that is not JSON is a value with `ok: false`.
 */
export async function* readJsonValues(
  input: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ReadJsonValuesOptions,
): AsyncGenerator<JsonInputValue> {
  const cap = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const decoder = new StringDecoder('utf8');
  /** 'undecided' until the first non-blank line ends; then 'lines' or 'document' */
  let mode: 'undecided' | 'lines' | 'document' = 'undecided';
  let pending: string[] = [];
  let pendingChars = 0;
  let lineNo = 0;
  const tooLarge = (): CodecError =>
    new CodecError(
      'BATCH_INPUT_TOO_LARGE',
      mode === 'lines'
        ? `"${options.source}" line ${lineNo + 1} expected at most ${cap} bytes, got more`
        : `"${options.source}" expected a JSON document of at most ${cap} bytes (split it into JSON Lines: one contract or one response per line), got more`,
    );
  const takePending = (tail: string): string => {
    pending.push(tail);
    const s = pending.length === 1 ? tail : pending.join('');
    pending = [];
    pendingChars = 0;
    return s;
  };
  try {
    for await (const chunk of input) {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      if (mode === 'document') {
        pendingChars += text.length;
        if (pendingChars > cap) throw tooLarge();
        pending.push(text);
        continue;
      }
      let at = 0;
      for (;;) {
        const nl = text.indexOf('\n', at);
        if (nl < 0) {
          const rest = text.slice(at);
          pendingChars += rest.length;
          if (pendingChars > cap) throw tooLarge();
          if (rest !== '') pending.push(rest);
          break;
        }
        const lineText = takePending(text.slice(at, nl));
        at = nl + 1;
        lineNo++;
        if (isBlank(lineText)) continue;
        if (mode === 'lines') {
          yield parseJson(lineText, lineNo);
          continue;
        }
        // undecided: the first non-blank line decides
        const first = parseJson(lineText, lineNo);
        if (first.ok) {
          mode = 'lines';
          pending = [];
          pendingChars = 0;
          yield first;
          continue;
        }
        mode = 'document';
        pending = [lineText, '\n', text.slice(at)];
        pendingChars = lineText.length + 1 + text.length - at;
        if (pendingChars > cap) throw tooLarge();
        break;
      }
    }
  } catch (e) {
    if (e instanceof CodecError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw new CodecError(
      'INPUT_UNREADABLE',
      `"${options.source}" expected a readable stream, got: ${reason}`,
      {
        cause: e,
      },
    );
  }
  const rest = takePending(decoder.end());
  if (mode === 'document') yield parseJson(rest, null);
  // the last line, without its newline (a one-line input is JSON Lines of one line)
  else if (!isBlank(rest)) yield parseJson(rest, lineNo + 1);
}
