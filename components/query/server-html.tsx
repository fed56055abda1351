import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";

/**
 * For component tests: the component's HTML as the server sends it (what the payer sees before, or
 * without, the page's code), parsed into a document. Inside a query client, as on the page.
 */
export function serverHtml(node: ReactNode): Document {
  const doc = document.implementation.createHTMLDocument();
  doc.body.innerHTML = renderToString(<QueryClientProvider client={new QueryClient()}>{node}</QueryClientProvider>);
  return doc;
}
