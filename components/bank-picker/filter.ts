/**
 * The bank picker's search and ordering, as pure functions (no React, no DOM) so that they can be
 * measured by `npm run bench` and reasoned about on their own.
 *
 * Search ignores case and diacritics ("siauliu" finds "Šiaulių bankas"), and matches the bank's
 * name, official name and common short names (the server's `searchTerms`). Every word the payer
 * types must occur somewhere in those terms. Results keep the list's own order (popular banks
 * first, then by name), except that banks whose name or a short name starts with the query come
 * before banks that merely contain it.
 */

export interface SearchableBank {
  id: string;
  name: string;
  officialName: string | null;
  /** Lower-case, diacritics-free terms from the server; may be empty for an older server. */
  searchTerms: readonly string[];
}

const MARKS = /\p{M}/gu;
const SPACES = /\s+/g;
/** Lower-case printable ASCII (no capitals A-Z): nothing to fold, given single inner spaces. */
const PLAIN = /^[\x20-\x40\x5b-\x7e]*$/;

function isFolded(term: string): boolean {
  return PLAIN.test(term) && term === term.trim() && !term.includes("  ");
}

/** Lower case, without diacritics, with runs of white space as one space, trimmed. */
export function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(MARKS, "").toLowerCase().replace(SPACES, " ").trim();
}

interface Entry<T> {
  bank: T;
  /** Every term, separated by a character no query contains after folding ("\n"). */
  haystack: string;
  /** The terms themselves, to rank prefix matches first. */
  terms: string[];
}

// Folding 3,000 names on every keystroke would cost more than the search itself: the folded
// terms are computed once per bank list (a list is replaced, never mutated, when it changes).
const indexes = new WeakMap<readonly object[], Entry<object>[]>();

function indexOf<T extends SearchableBank>(banks: readonly T[]): Entry<T>[] {
  const cached = indexes.get(banks) as Entry<T>[] | undefined;
  if (cached) return cached;
  const index = banks.map((bank) => {
    const terms = new Set<string>();
    // The server's terms already include the folded name and official name; fold only what is not
    // folded yet (an older server, or a term with capitals or diacritics).
    for (const term of bank.searchTerms) terms.add(isFolded(term) ? term : foldForSearch(term));
    if (bank.searchTerms.length === 0) {
      terms.add(foldForSearch(bank.name));
      if (bank.officialName) terms.add(foldForSearch(bank.officialName));
    }
    terms.delete("");
    const list = [...terms];
    return { bank, haystack: list.join("\n"), terms: list };
  });
  indexes.set(banks, index as Entry<object>[]);
  return index;
}

/**
 * The banks matching a query, best first. An empty query returns the list as it is (same array).
 */
export function filterBanks<T extends SearchableBank>(banks: readonly T[], query: string): readonly T[] {
  const needle = foldForSearch(query);
  if (needle === "") return banks;
  const words = needle.split(" ");
  const starts: T[] = [];
  const contains: T[] = [];
  for (const entry of indexOf(banks)) {
    let all = true;
    for (const word of words) {
      if (!entry.haystack.includes(word)) {
        all = false;
        break;
      }
    }
    if (!all) continue;
    let prefix = false;
    for (const term of entry.terms) {
      if (term.startsWith(needle)) {
        prefix = true;
        break;
      }
    }
    (prefix ? starts : contains).push(entry.bank);
  }
  return starts.length === 0 ? contains : contains.length === 0 ? starts : starts.concat(contains);
}

/** The payer's last-used bank first (when it is in the list), everything else in the list's order. */
export function lastUsedFirst<T extends { id: string }>(banks: readonly T[], lastUsedId: string | null): readonly T[] {
  if (!lastUsedId) return banks;
  const at = banks.findIndex((b) => b.id === lastUsedId);
  if (at <= 0) return banks;
  const bank = banks[at] as T;
  return [bank, ...banks.slice(0, at), ...banks.slice(at + 1)];
}
