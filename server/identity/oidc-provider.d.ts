// oidc-provider 9 ships no type declarations and @types/oidc-provider is not installed; these cover only what the
// identity server touches. The deep imports are the built-in refresh_token grant and the helpers it is bound to,
// so the organization switch can wrap the original handler instead of re-implementing it.
declare module 'oidc-provider' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Loose = any;
  export class Provider {
    constructor(issuer: string, configuration: Loose);
    proxy: boolean;
    issuer: string;
    Client: Loose;
    Grant: Loose;
    RefreshToken: Loose;
    Session: Loose;
    callback(): (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void;
    interactionDetails(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse): Promise<Loose>;
    interactionFinished(
      req: import('node:http').IncomingMessage,
      res: import('node:http').ServerResponse,
      result: Loose,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    registerGrantType(name: string, handler: (ctx: Loose) => Promise<void>, params?: Iterable<string>, dupes?: Iterable<string>): void;
    on(event: string, listener: (...args: Loose[]) => void): this;
    use(middleware: (ctx: Loose, next: () => Promise<void>) => Promise<void>): this;
  }
  export const errors: Loose;
  export default Provider;
}

declare module 'oidc-provider/lib/actions/grants/refresh_token.js' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  export const handler: (provider: any, helpers: any, ctx: any) => Promise<void>;
  export const parameters: Set<string>;
}

declare module 'oidc-provider/lib/helpers/grants.js' {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const helpers: Record<string, (...args: any[]) => any>;
  export = helpers;
}
