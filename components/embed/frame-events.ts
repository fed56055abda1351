import { MESSAGE_SOURCE, type BankCheckoutEventType } from "@/lib/embed/messages";

/**
 * The embedded picker's side of embed.js: events go to the merchant's page, and only to the
 * origin our server checked against EMBED_ORIGINS (ADR 20). On our own pages nothing is connected,
 * tellParent does nothing and leaveTo moves this window, so the form needs no "embedded" branch.
 */
let parentOrigin: string | null = null;

export function connectToParent(origin: string | null) {
  parentOrigin = origin;
}

export function tellParent(type: BankCheckoutEventType, detail: Record<string, string | number> = {}) {
  if (!parentOrigin || window.parent === window) return;
  window.parent.postMessage({ ...detail, source: MESSAGE_SOURCE, type }, parentOrigin);
}

/**
 * Sends the payer to the bank (or the provider's page): the whole window, never a frame. Inside
 * the merchant's page that is the top window, which the frame may navigate only while the payer's
 * click on Pay is recent (sandbox allow-top-navigation-by-user-activation; about 5 s in Chromium).
 * Returns false when that may not have happened: the caller offers a link to click.
 */
export function leaveTo(link: string): boolean {
  if (window.top && window.top !== window) {
    tellParent("redirecting");
    try {
      window.top.location.href = link;
    } catch {
      // Refused (the click is too long ago): the link the caller shows takes a fresh click.
    }
    return false;
  }
  window.location.assign(link);
  return true;
}
