// The bare page again with part of our page headers (next.config.mjs): which of them costs (scripts/coop-cost.ts).
export { default } from "../page";
