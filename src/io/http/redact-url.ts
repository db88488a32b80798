/**
 * Credential stripping for URLs that appear in messages, logs, reports and the mirror — by rule,
 * not by a list of parameter names (issue 30 "secrets in query strings"): `user:password@` is
 * removed, **every** query parameter value is replaced by `***` (the names stay, so a reader sees
 * which parameters were given) and a fragment is replaced by `#***`. A URL the user gives may carry
 * a secret in any parameter (`client_secret`, `x-api-key`, `X-Amz-Signature`, …) or in its fragment
 * (`#token=…`); no list of names can know them all. URLs the auditor builds below a base URL show
 * their own parameters (./base-url.ts `joinBaseUrl`): only what the user typed is redacted.
 */

/** `a=1&b&c=2` → `a=***&b&c=***`: values hidden, names kept. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((kv) => {
      const i = kv.indexOf('=');
      return i < 0 ? kv : `${kv.slice(0, i)}=***`;
    })
    .join('&');
}

/**
 * Returns `url` without credentials, query values or fragment; a string that is not a URL is
 * returned with its leading `user:pass@` (after an optional `scheme://`) cut, every `name=value`
 * after a `?` or `&` written `name=***` and anything after a `#` replaced by `***`.
 */
export function redactUrl(url: string | URL): string {
  const u = URL.canParse(String(url)) ? new URL(String(url)) : null;
  // not a URL, or one without a host (`user:pass@host` parses as the scheme "user:")
  if (u === null || u.host === '')
    return String(url)
      .replace(/\/\/[^/@\s]*@/g, '//')
      .replace(/^[^/@\s]*@/, '')
      .replace(/([?&])([^=&#\s]*)=([^&#\s]*)/g, (_m, sep: string, k: string) => `${sep}${k}=***`)
      .replace(/#\S*/g, (m) => (m.length > 1 ? '#***' : m));
  u.username = '';
  u.password = '';
  // the raw query, not searchParams: its re-encoding would change what the user typed
  if (u.search.length > 1) u.search = redactQuery(u.search.slice(1));
  if (u.hash.length > 1) u.hash = '***';
  return u.toString();
}
