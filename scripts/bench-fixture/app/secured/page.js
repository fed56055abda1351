// The bare page again, answered with the headers every page of ours carries (next.config.mjs):
// Lighthouse's floor for a page that must send them.
export { default } from "../page";
