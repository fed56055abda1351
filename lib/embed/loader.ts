/**
 * embed.js: puts the bank picker of one checkout into the merchant's own page (issue 20, ADR 20).
 * Plain DOM code, no framework, run in the merchant's page: it only inserts our iframe, sizes it
 * to its content and hands the picker's events to the page. Everything the payer does happens
 * inside the frame, on our origin, where the merchant's scripts cannot reach.
 *
 *   <script src="{APP_URL}/embed.js" async></script>
 *   <div data-bank-checkout="{checkoutId}" data-locale="lt"></div>
 * or BankCheckout.mount(element, { checkoutId, locale, onEvent }).
 */

import { EVENT_TYPES, MESSAGE_SOURCE, type BankCheckoutEventType } from "./messages";

/** What the picker tells the merchant's page. */
export interface BankCheckoutEvent {
  type: BankCheckoutEventType;
  checkoutId: string;
  [detail: string]: unknown;
}
export interface MountOptions {
  checkoutId: string;
  /** en, lt, lv or et; the checkout's own language when absent. */
  locale?: string;
  onEvent?: (event: BankCheckoutEvent) => void;
}
export interface Mounted {
  iframe: HTMLIFrameElement;
  unmount: () => void;
}

const TYPES: readonly string[] = EVENT_TYPES;
/**
 * The frame's name for screen readers, in the picker's language (the catalogue's "embed.heading",
 * copied here: this script carries no catalogue). Without a language asked for, the page's own
 * when the picker speaks it, else English.
 */
export const FRAME_TITLES: Readonly<Record<string, string>> = {
  en: "Pay by bank",
  lt: "Mokėti per banką",
  lv: "Maksāt ar banku",
  et: "Maksa pangaga",
};
const MIN_HEIGHT = 120;
const MAX_HEIGHT = 4000;

declare global {
  interface Window {
    BankCheckout?: { mount: typeof mount; version: string };
  }
}

// Our origin is where this script was loaded from: the frame is only ever ours.
const script = document.currentScript as HTMLScriptElement | null;
const appOrigin = new URL(script?.src || "/", location.href).origin;

export function mount(element: Element, options: MountOptions): Mounted {
  const { checkoutId, locale, onEvent } = options;
  if (typeof checkoutId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(checkoutId))
    throw new Error("BankCheckout.mount: checkoutId is required");
  const src = new URL(`/checkout/${encodeURIComponent(checkoutId)}/embed`, appOrigin);
  // Where the frame may send its events: this page's origin, checked against the configured
  // origins by our server (the frame is not shown anywhere else anyway: CSP frame-ancestors).
  src.searchParams.set("parent", location.origin);
  if (locale) src.searchParams.set("lang", locale);

  const iframe = document.createElement("iframe");
  iframe.src = src.href;
  const titleLang = [locale, document.documentElement.lang.slice(0, 2)].find((l) => l && FRAME_TITLES[l]) ?? "en";
  iframe.title = FRAME_TITLES[titleLang]!;
  // The title is read out in the merchant's page: say which language it is in.
  iframe.lang = titleLang;
  // Scripts and its own origin's storage and requests; new tabs for the Terms; the whole window
  // to the bank only on the payer's click. Never forms or navigation of the page otherwise.
  iframe.setAttribute(
    "sandbox",
    "allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation",
  );
  iframe.setAttribute("allow", "clipboard-write");
  iframe.style.cssText = `display:block;width:100%;border:0;height:${MIN_HEIGHT * 4}px;color-scheme:normal`;

  function onMessage(event: MessageEvent) {
    // Only our frame, from our origin: any other window may post anything to this page.
    if (event.origin !== appOrigin || event.source !== iframe.contentWindow) return;
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== "object" || data.source !== MESSAGE_SOURCE || !TYPES.includes(data.type as string))
      return;
    const { source: _, ...detail } = data;
    if (detail.type === "resize") {
      const height = Number(detail.height);
      if (!Number.isFinite(height)) return;
      iframe.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.ceil(height)))}px`;
    }
    const out = { ...detail, checkoutId } as BankCheckoutEvent;
    element.dispatchEvent(new CustomEvent("bank-checkout", { detail: out, bubbles: true }));
    onEvent?.(out);
  }
  window.addEventListener("message", onMessage);
  element.replaceChildren(iframe);
  return {
    iframe,
    unmount() {
      window.removeEventListener("message", onMessage);
      iframe.remove();
    },
  };
}

const mounted = new WeakSet<Element>();
function mountAll() {
  for (const element of Array.from(document.querySelectorAll("[data-bank-checkout]"))) {
    if (mounted.has(element)) continue;
    mounted.add(element);
    const el = element as HTMLElement;
    try {
      mount(el, { checkoutId: el.dataset.bankCheckout ?? "", locale: el.dataset.locale });
    } catch (err) {
      console.error(err);
    }
  }
}

window.BankCheckout = { mount, version: "1" };
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", mountAll);
else mountAll();
