/**
 * Reading a received response: UTF-8 JSON decoding within the nesting and token bounds of
 * ./json-bounds.ts (checked on the bytes before `JSON.parse` builds anything), the error for an unexpected status (quoting
 * the `{error}` text of docs/protocol/public-api.md "Errors"). Messages carry the already
 * redacted URL of the RawResponse.
 */
import type { RawResponse } from '../../core/wire/snapshot.js';
import { HttpError } from '../../errors/http.js';
import { checkJsonBounds, type JsonBoundBreach } from './json-bounds.js';

const DECODER = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a response body as UTF-8 JSON; throws HttpError HTTP_JSON_TOO_COMPLEX (nesting or token
 * bound, before parsing) or HTTP_INVALID_JSON naming the URL.
 */
export function parseJsonBody(raw: RawResponse): unknown {
  const breach = checkJsonBounds(raw.body);
  if (breach !== null) throw jsonTooComplexError(raw.url, raw.status, breach, `of ${raw.body.length}`);
  let text: string;
  try {
    text = DECODER.decode(raw.body);
  } catch (e) {
    throw new HttpError('HTTP_INVALID_JSON', `${raw.url} returned a body that is not UTF-8`, {
      cause: e,
      details: { url: raw.url },
    });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    const reason = e instanceof Error ? e.message.slice(0, 120) : 'parse error';
    const type = raw.contentType === null ? '' : ` (Content-Type ${raw.contentType})`;
    throw new HttpError(
      'HTTP_INVALID_JSON',
      `${raw.url} returned a body that is not JSON${type}: ${reason}`,
      {
        cause: e,
        details: { url: raw.url, status: raw.status },
      },
    );
  }
}

/** HTTP_JSON_TOO_COMPLEX for a body past the JSON bounds; `extent` says how much of it was read. */
export function jsonTooComplexError(
  url: string,
  status: number,
  breach: JsonBoundBreach,
  extent: string,
): HttpError {
  const what =
    breach.bound === 'depth'
      ? `a JSON nesting depth of at most ${breach.limit}, got deeper at byte ${breach.offset}`
      : `at most ${breach.limit} JSON tokens ([, {, ","), got more at byte ${breach.offset}`;
  return new HttpError('HTTP_JSON_TOO_COMPLEX', `${url} body expected ${what} (${extent})`, {
    details: { url, status, ...breach },
  });
}

/** The error for an unexpected status, quoting the `{error}` text of the body when there is one. */
export function statusError(raw: RawResponse): HttpError {
  let text = '';
  try {
    const j = JSON.parse(new TextDecoder().decode(raw.body.subarray(0, 4096))) as unknown;
    if (typeof j === 'object' && j !== null && typeof (j as { error?: unknown }).error === 'string') {
      text = `: ${JSON.stringify((j as { error: string }).error.slice(0, 200))}`;
    }
  } catch {
    // not JSON: no message to quote
  }
  return new HttpError('HTTP_STATUS', `${raw.method} ${raw.url} answered status ${raw.status}${text}`, {
    details: { url: raw.url, status: raw.status },
  });
}
