// Holds the requests an invoked actor makes, so that a browser walk sees the state that waits for them (a loading
// text is on screen only while its request is out) and then decides how the server answers: the real server
// (`release`), or an answer the event names when a browser cannot make the server give it, e.g. a server failure
// (`answer`). Requests that match no gate pass untouched.
import type { Page, Route } from '@playwright/test';

export interface GatedRequest {
  method: string;
  /** Matched against the URL's path name (and search, when the pattern has a '?'). */
  path: RegExp;
  /** Held only after `arm(name)`: for a request that also happens outside the flow (the sign-in's token request). */
  armLater?: boolean;
}

export class RequestGate<TName extends string> {
  private readonly held = new Map<TName, Route[]>();
  private readonly waiters = new Map<TName, Array<() => void>>();
  private readonly armed = new Set<TName>();

  private constructor(private readonly routes: Record<TName, GatedRequest>) {
    for (const [name, gated] of Object.entries(routes) as Array<[TName, GatedRequest]>) if (!gated.armLater) this.armed.add(name);
  }

  arm(name: TName): void {
    this.armed.add(name);
  }

  /** Installs the gate on the page: from now on, every request of one of the routes waits for the walk. */
  static async install<TName extends string>(page: Page, routes: Record<TName, GatedRequest>): Promise<RequestGate<TName>> {
    const gate = new RequestGate(routes);
    await page.route('**/*', (route) => gate.intercept(route));
    return gate;
  }

  private nameOf(route: Route): TName | undefined {
    const request = route.request();
    const url = new URL(request.url());
    for (const [name, gated] of Object.entries(this.routes) as Array<[TName, GatedRequest]>) {
      const target = gated.path.source.includes('\\?') ? `${url.pathname}${url.search}` : url.pathname;
      if (this.armed.has(name) && request.method() === gated.method && gated.path.test(target)) return name;
    }
    return undefined;
  }

  private async intercept(route: Route): Promise<void> {
    const name = this.nameOf(route);
    if (name === undefined) return route.fallback();
    this.held.set(name, [...(this.held.get(name) ?? []), route]);
    for (const wake of this.waiters.get(name) ?? []) wake();
    this.waiters.delete(name);
  }

  /** Waits until at least one request of that route is held, then hands all of them over. */
  private async take(name: TName): Promise<Route[]> {
    await this.waitFor(name);
    const routes = this.held.get(name) ?? [];
    this.held.delete(name);
    return routes;
  }

  /** Waits for the request (the state that made it is on screen meanwhile). */
  async waitFor(name: TName, timeoutMs = 15_000): Promise<void> {
    if (this.held.get(name)?.length) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No ${this.routes[name].method} ${this.routes[name].path} request (${name}) was made`)), timeoutMs);
      this.waiters.set(name, [...(this.waiters.get(name) ?? []), () => (clearTimeout(timer), resolve())]);
    });
  }

  /** The real server answers. */
  async release(name: TName): Promise<void> {
    for (const route of await this.take(name)) await route.continue();
  }

  /** The server's answer, changed as the event says (e.g. a name another billing account already has). */
  async rewrite(name: TName, change: (body: unknown) => unknown): Promise<void> {
    for (const route of await this.take(name)) {
      const response = await route.fetch();
      await route.fulfill({ response, json: change(await response.json()) });
    }
  }

  /** An answer the real server would give only when it fails: status and body as the event says. */
  async answer(name: TName, status: number, json: unknown): Promise<void> {
    for (const route of await this.take(name)) await route.fulfill({ status, json });
  }
}
