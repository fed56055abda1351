import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";

/**
 * For component tests: the component's HTML as the server sends it (what the payer sees before, or
 * without, the page's code), parsed into a document.
 */
export function serverHtml(node: ReactNode): Document {
  const doc = document.implementation.createHTMLDocument();
  doc.body.innerHTML = renderToString(node);
  return doc;
}
