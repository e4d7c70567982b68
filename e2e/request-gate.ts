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
  /**
   * Matched against the request's body, for requests that share an address and method: the identity server's token
   * endpoint takes the sign-in's code, a refresh and the organization exchange, told apart by their form fields.
   */
  body?: RegExp;
  /**
   * The page's own navigation (a redirect to another site). Chromium pauses the page's scripts while such a request
   * is held, so it cannot be read meanwhile: the gate answers it at once with 204 No Content, which leaves the page
   * as it was, and `release` then makes the same request as a navigation of the page.
   */
  navigation?: boolean;
}

export class RequestGate<TName extends string> {
  private readonly held = new Map<TName, Route[]>();
  /** The addresses of the page's navigations the gate stopped (`navigation` routes). */
  private readonly stopped = new Map<TName, string[]>();
  private readonly waiters = new Map<TName, Array<() => void>>();
  private readonly armed = new Set<TName>();
  /** Routes answered as the server would now answer them (`serve`) until armed again. */
  private readonly serving = new Map<TName, (body: unknown) => unknown>();
  private bypassing = false;

  private constructor(
    private readonly page: Page,
    private readonly routes: Record<TName, GatedRequest>,
  ) {
    for (const [name, gated] of Object.entries(routes) as Array<[TName, GatedRequest]>) if (!gated.armLater) this.armed.add(name);
  }

  /** Runs what prepares a path (creating the data it walks on) with every request passing untouched. */
  async bypass<T>(prepare: () => Promise<T>): Promise<T> {
    this.bypassing = true;
    try {
      return await prepare();
    } finally {
      this.bypassing = false;
    }
  }

  /** Back to how it was installed, for the next path on the same page: nothing held, nothing served. */
  async reset(): Promise<void> {
    for (const routes of this.held.values()) for (const route of routes) await route.continue().catch(() => undefined);
    this.held.clear();
    this.stopped.clear();
    this.serving.clear();
    this.armed.clear();
    for (const [name, gated] of Object.entries(this.routes) as Array<[TName, GatedRequest]>) if (!gated.armLater) this.armed.add(name);
  }

  /** Holds the route's next requests (again, after `serve`). */
  arm(name: TName): void {
    this.serving.delete(name);
    this.armed.add(name);
  }

  /** Installs the gate on the page: from now on, every request of one of the routes waits for the walk. */
  static async install<TName extends string>(page: Page, routes: Record<TName, GatedRequest>): Promise<RequestGate<TName>> {
    const gate = new RequestGate(page, routes);
    await page.route('**/*', (route) => gate.intercept(route));
    return gate;
  }

  private nameOf(route: Route): TName | undefined {
    const request = route.request();
    const url = new URL(request.url());
    for (const [name, gated] of Object.entries(this.routes) as Array<[TName, GatedRequest]>) {
      const target = gated.path.source.includes('\\?') ? `${url.pathname}${url.search}` : url.pathname;
      if (!this.armed.has(name) || request.method() !== gated.method || !gated.path.test(target)) continue;
      if (!gated.body || gated.body.test(request.postData() ?? '')) return name;
    }
    return undefined;
  }

  private async intercept(route: Route): Promise<void> {
    const name = this.nameOf(route);
    if (name === undefined || this.bypassing) return route.fallback();
    const change = this.serving.get(name);
    if (change) return this.fulfilChanged(route, change);
    if (this.routes[name].navigation) {
      await route.fulfill({ status: 204 });
      this.stopped.set(name, [...(this.stopped.get(name) ?? []), route.request().url()]);
    } else {
      this.held.set(name, [...(this.held.get(name) ?? []), route]);
    }
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
    if (this.held.get(name)?.length || this.stopped.get(name)?.length) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No ${this.routes[name].method} ${this.routes[name].path} request (${name}) was made`)), timeoutMs);
      this.waiters.set(name, [...(this.waiters.get(name) ?? []), () => (clearTimeout(timer), resolve())]);
    });
  }

  /** The real server answers (a stopped navigation: the page goes where it was going). */
  async release(name: TName): Promise<void> {
    if (this.routes[name].navigation) {
      await this.waitFor(name);
      const url = this.stopped.get(name)!.at(-1)!;
      this.stopped.delete(name);
      await this.bypass(() => this.page.goto(url, { waitUntil: 'commit' }));
      return;
    }
    for (const route of await this.take(name)) await route.continue();
  }

  /**
   * The real server answers through another origin, unseen by the page: a relay the walk runs (e2e/stream-relay.ts)
   * that holds a streamed answer's chunks until the walk lets them through.
   */
  async releaseVia(name: TName, origin: string): Promise<void> {
    for (const route of await this.take(name)) {
      const url = new URL(route.request().url());
      await route.continue({ url: `${origin}${url.pathname}${url.search}` });
    }
  }

  /** The server's answer, changed as the event says (e.g. a name another billing account already has). */
  async rewrite(name: TName, change: (body: unknown) => unknown): Promise<void> {
    for (const route of await this.take(name)) await this.fulfilChanged(route, change);
  }

  /**
   * Like `rewrite`, and every later request of the route is answered the same way until `arm`: for a read that
   * other parts of the page repeat (a list refetched when the status it shows changes), so that they all see the
   * server state the event says, and a repeat that comes after the walk's step is not left waiting.
   */
  async serve(name: TName, change: (body: unknown) => unknown): Promise<void> {
    const routes = await this.take(name);
    this.serving.set(name, change);
    for (const route of routes) await this.fulfilChanged(route, change);
  }

  private async fulfilChanged(route: Route, change: (body: unknown) => unknown): Promise<void> {
    const response = await route.fetch();
    await route.fulfill({ response, json: change(await response.json()) });
  }

  /** An answer the real server would give only when it fails: status and body as the event says. */
  async answer(name: TName, status: number, json: unknown): Promise<void> {
    for (const route of await this.take(name)) await route.fulfill({ status, json });
  }
}
