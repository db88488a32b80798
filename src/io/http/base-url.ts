/**
 * The one place a base URL enters the auditor. `parseBaseUrl` turns what the user typed into a
 * `BaseUrl`: the URL requests go to, and the same URL with its credentials (`user:password@`) and
 * the values of sensitive query parameters (`token`, `api_key`, … — see redact-url.ts) replaced,
 * which is the only form ever printed, reported (text, JSON, JUnit, HTML) or stored in the mirror.
 * Credentials in the URL are sent the usual way, as HTTP Basic authentication
 * (`splitUrlCredentials`, used by the client), never as part of a logged URL.
 */
import { redactUrl } from './redact-url.js';

export interface BaseUrl {
  /** where requests go, exactly as given (credentials included) */
  readonly request: string;
  /** credentials and sensitive query values redacted: for progress lines, reports and the mirror */
  readonly display: string;
}

/** Parses a base URL once into its request and display forms (a `BaseUrl` is returned as is). */
export function parseBaseUrl(input: string | BaseUrl): BaseUrl {
  if (typeof input !== 'string') return input;
  return { request: input, display: redactUrl(input) };
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
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, authorization: null };
  }
  if (u.username === '' && u.password === '') return { url, authorization: null };
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
