import type { IncomingMessage, ServerResponse } from 'node:http';

// A small router: routes are matched on method and path segments (":name" captures one segment). Trailing slashes
// are ignored, because the spec writes some calls with one ("projects/") and some without.

export interface RouteRequest {
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: Record<string, string>;
}

export type RouteHandler<C> = (request: RouteRequest, context: C) => Promise<void>;

export interface RouteOptions {
  /**
   * The route only reads, so it does not invalidate cached reads. Defaults to true for GET and false otherwise;
   * a GET that writes (the spec's GET users/promote) must say readOnly: false.
   */
  readOnly?: boolean;
  /**
   * The status of an answer with field messages (a broken rule of the product). The account area (spec 000) answers
   * 422; the integrations' calls (spec 001 §5 and §8: "Schema validation errors return 400 with the fields and
   * flattened errors") answer 400 with the same body.
   */
  fieldErrorStatus?: 400 | 422;
}

interface Route<C> {
  method: string;
  segments: string[];
  handler: RouteHandler<C>;
  options: RouteOptions;
}

export type RouteMatch<C> =
  | { kind: 'found'; handler: RouteHandler<C>; params: Record<string, string>; options: RouteOptions }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export class Router<C> {
  constructor(
    private readonly routes: Route<C>[] = [],
    private readonly defaults: RouteOptions = {},
  ) {}

  add(method: string, path: string, handler: RouteHandler<C>, options: RouteOptions = {}): this {
    const merged = { ...this.defaults, ...options };
    this.routes.push({
      method,
      segments: splitPath(path),
      handler,
      options: { readOnly: merged.readOnly ?? method === 'GET', fieldErrorStatus: merged.fieldErrorStatus ?? 422 },
    });
    return this;
  }

  /** The same route table, with other defaults for the routes added through the returned router. */
  withDefaults(defaults: RouteOptions): Router<C> {
    return new Router(this.routes, { ...this.defaults, ...defaults });
  }

  /** Every route as registered (method and path pattern), for tests that go over all of them. */
  list(): { method: string; path: string }[] {
    return this.routes.map((route) => ({ method: route.method, path: route.segments.join('/') }));
  }

  match(method: string, path: string): RouteMatch<C> {
    const segments = splitPath(path);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, segments);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', handler: route.handler, params, options: route.options };
      allowed.push(route.method);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function splitPath(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function matchSegments(pattern: string[], actual: string[]): Record<string, string> | undefined {
  if (pattern.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith(':')) {
      let value: string;
      try {
        value = decodeURIComponent(actual[i]);
      } catch {
        return undefined;
      }
      params[p.slice(1)] = value;
    } else if (p !== actual[i]) return undefined;
  }
  return params;
}

/** Query string as a plain object; a repeated key keeps its last value. */
export function parseQuery(search: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(search));
}
