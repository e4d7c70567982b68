// jsdom lacks a few browser APIs the UI kit's Ark parts use (positioning and scrolling of list boxes).
export function installDomStubs(): void {
  const g = globalThis as Record<string, unknown>;
  g.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  if (typeof Element !== 'undefined') {
    Element.prototype.scrollIntoView ??= function scrollIntoView() {};
    Element.prototype.scrollTo ??= function scrollTo() {} as never;
  }
}
