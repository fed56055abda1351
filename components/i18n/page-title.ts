/**
 * A page's title is its own name, this separator, then the site's name, both in the page's
 * language. The root layout's template can only put the site's name in English (layouts get no
 * search params), so each translated page gives its whole title (`localTitle`), and a page whose
 * heading changes in place (the landing page's status) gives the title the heading's words.
 */
export const TITLE_SEPARATOR = " · ";

/**
 * A page's whole title, for its metadata: in the HTML as the server sends it, so it is right
 * before any code runs (and without it), instead of ending in the layout's English site name.
 */
export function localTitle(pageName: string, siteName: string): { absolute: string } {
  return { absolute: pageName + TITLE_SEPARATOR + siteName };
}

/** `title` with the page's own name (before the separator) replaced by `pageName`. */
export function withPageName(title: string, pageName: string): string {
  const at = title.lastIndexOf(TITLE_SEPARATOR);
  return at < 0 ? pageName : pageName + title.slice(at);
}

/**
 * Keeps `fix` applied to the document's title until the returned function is called. Once is not
 * enough: Next writes the title from the page's metadata again while the page hydrates, after the
 * first effects have run. Each fix leaves a fixed title as it is, so fixes side by side settle.
 */
export function keepTitle(fix: (title: string) => string): () => void {
  const apply = () => {
    const fixed = fix(document.title);
    if (fixed !== document.title) document.title = fixed;
  };
  apply();
  const observer = new MutationObserver(apply);
  observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  return () => observer.disconnect();
}
