"use client";

import { useEffect } from "react";
import { connectToParent, tellParent } from "./frame-events";

/**
 * Connects the embedded picker to the merchant's page: says it is ready, and its height whenever
 * its content changes (the list grows, an error appears), so embed.js sizes the frame to fit.
 */
export function EmbedBridge({ parentOrigin }: { parentOrigin: string | null }) {
  useEffect(() => {
    connectToParent(parentOrigin);
    const content = document.querySelector(".embed");
    if (!content) return;
    let last = 0;
    const report = () => {
      const height = Math.ceil(content.getBoundingClientRect().bottom + window.scrollY);
      if (height !== last) tellParent("resize", { height: (last = height) });
    };
    const observer = new ResizeObserver(report);
    observer.observe(content);
    tellParent("ready");
    report();
    return () => {
      observer.disconnect();
      connectToParent(null);
    };
  }, [parentOrigin]);
  return null;
}
