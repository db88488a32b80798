/**
 * A small exact-path router (api-decisions §8): a path maps to handlers per method. An unknown path
 * is `404 not found`, a known path with another method `405 method not allowed` (with `Allow`).
 * No patterns, no trailing-slash folding: the public API has only fixed paths.
 */
import { ServerError } from '../errors/server.js';
import type { RequestContext } from './deps.js';
import type { Reply } from './http.js';

export type Method = 'GET' | 'POST';

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

export interface Route {
  readonly method: Method;
  readonly path: string;
  readonly handler: Handler;
  /** answer CORS (any origin) for this route; true for the public API */
  readonly cors: boolean;
}

export type RouteMatch =
  | { readonly kind: 'found'; readonly route: Route }
  | { readonly kind: 'method-not-allowed'; readonly allow: readonly string[]; readonly cors: boolean }
  | { readonly kind: 'preflight'; readonly allow: readonly string[]; readonly cors: boolean }
  | { readonly kind: 'not-found' };

export class Router {
  readonly #routes = new Map<string, Map<string, Route>>();

  add(route: Route): this {
    let byMethod = this.#routes.get(route.path);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.#routes.set(route.path, byMethod);
    }
    if (byMethod.has(route.method)) {
      throw new ServerError(
        'SERVER_OPTION_INVALID',
        `"route" expected a new method and path, got ${route.method} ${route.path} twice`,
      );
    }
    byMethod.set(route.method, route);
    return this;
  }

  /** Finds the route for (method, path); HEAD is not served (405). */
  match(method: string, path: string): RouteMatch {
    const byMethod = this.#routes.get(path);
    if (byMethod === undefined) return { kind: 'not-found' };
    const route = byMethod.get(method);
    if (route !== undefined) return { kind: 'found', route };
    const allow = [...byMethod.keys(), 'OPTIONS'];
    const cors = [...byMethod.values()].some((r) => r.cors);
    if (method === 'OPTIONS') return { kind: 'preflight', allow, cors };
    return { kind: 'method-not-allowed', allow, cors };
  }

  paths(): readonly string[] {
    return [...this.#routes.keys()];
  }
}
