/**
 * The one place a base URL enters the auditor. `parseBaseUrl` turns what the user typed into a
 * `BaseUrl`: the URL requests go to, and the same URL with its credentials (`user:password@`), every
 * query parameter value and its fragment replaced (redact-url.ts: by rule, not by a list of names),
 * which is the only form ever printed, reported (text, JSON, JUnit, HTML) or stored in the mirror.
 * `joinBaseUrl` builds an endpoint's URL in both forms at once, so the display form of every
 * request shows the auditor's own path and parameters and hides what the user typed.
 * Credentials in the URL are sent the usual way, as HTTP Basic authentication
 * (`splitUrlCredentials`, used by the client), never as part of a logged URL.
 */
import { redactUrl } from './redact-url.js';

export interface BaseUrl {
  /** where requests go, exactly as given (credentials included) */
  readonly request: string;
  /** credentials, query values and fragment redacted: for progress lines, reports and the mirror */
  readonly display: string;
}

/** Parses a base URL once into its request and display forms (a `BaseUrl` is returned as is). */
export function parseBaseUrl(input: string | BaseUrl): BaseUrl {
  if (typeof input !== 'string') return input;
  return { request: input, display: redactUrl(input) };
}

/**
 * Joins a base URL (with or without trailing slash) and an endpoint path such as `/pools/state` or
 * `/aggregator/orderbook?ticker_id=X`: the path goes after the base's path, and the base's own
 * query (`?api-key=…`) after the path's query; a fragment is dropped (it is never sent).
 */
function joinUrl(baseUrl: string, path: string): string {
  const cut = baseUrl.search(/[?#]/);
  if (cut < 0) return baseUrl.replace(/\/+$/, '') + path;
  const head = baseUrl.slice(0, cut).replace(/\/+$/, '');
  const query = baseUrl[cut] === '?' ? (baseUrl.slice(cut + 1).split('#')[0] ?? '') : '';
  if (query === '') return head + path;
  return `${head}${path}${path.includes('?') ? '&' : '?'}${query}`;
}

/** An endpoint's URL below `base`, as requested and as shown (the auditor's path and parameters visible). */
export function joinBaseUrl(base: BaseUrl, path: string): BaseUrl {
  return { request: joinUrl(base.request, path), display: joinUrl(base.display, path) };
}

/**
 * A URL without its `user:password@` part, and the `Authorization: Basic …` value those
 * credentials stand for (RFC 7617; user and password percent-decoded as RFC 3986 encodes them),
 * or null when the URL carries none (or is not a URL).
 */
export function splitUrlCredentials(url: string): {
  readonly url: string;
  readonly authorization: string | null;
} {
  const u = URL.canParse(url) ? new URL(url) : null;
  if (u === null || (u.username === '' && u.password === '')) return { url, authorization: null };
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const pair = `${decode(u.username)}:${decode(u.password)}`;
  u.username = '';
  u.password = '';
  return { url: u.toString(), authorization: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` };
}
