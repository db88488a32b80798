/**
 * The `fetch` openapi-fetch calls, routed through the auditor's one HTTP client (src/io/http/client.ts):
 * its timeouts, retry budget with `Retry-After`, pacing, streamed size cap, proxy rules and
 * redacted URLs apply to the ledger API as to the exchange — there is no second retry loop. Every
 * request of the ledger API the auditor makes only reads, so a POST is retried like a GET.
 *
 * openapi-fetch is given a placeholder origin (`LEDGER_ORIGIN`); this function puts the request's
 * path below the participant's real base URL, so the URL the user typed (and any credentials in it)
 * never enters openapi-fetch, and every message shows the redacted form. The bearer token is added
 * here, as a header: it is never part of a URL, a message, a report or the mirror.
 */
import { type BaseUrl, joinBaseUrl } from '../http/base-url.js';
import type { HttpClient } from '../http/client.js';
import { checkJsonBounds } from '../http/json-bounds.js';
import { parseJsonBody } from '../http/response.js';

/** The origin openapi-fetch builds request URLs on (never contacted). */
export const LEDGER_ORIGIN = 'http://ledger-api.invalid';

/** A `fetch` over `http` for requests below `base`, with `Authorization: Bearer <token>` when a token is given. */
export function createLedgerFetch(
  http: HttpClient,
  base: BaseUrl,
  token: string | null,
): (input: Request) => Promise<Response> {
  const headers = token === null ? {} : { authorization: `Bearer ${token}` };
  return async (req: Request): Promise<Response> => {
    const u = new URL(req.url);
    const method = req.method === 'POST' ? 'POST' : 'GET';
    const body = method === 'POST' ? await req.text() : undefined;
    const raw = await http.send(method, joinBaseUrl(base, `${u.pathname}${u.search}`), body, {
      read: true,
      headers,
    });
    // the JSON bounds of the exchange's responses hold here too, before openapi-fetch parses;
    // parseJsonBody throws the typed error for a body past them
    if (checkJsonBounds(raw.body) !== null) parseJsonBody(raw);
    const empty = raw.body.length === 0 || raw.status === 204 || raw.status === 304;
    return new Response(empty ? null : raw.body, {
      status: raw.status,
      headers: { 'content-type': raw.contentType ?? 'application/json' },
    });
  };
}
