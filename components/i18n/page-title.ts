/**
 * A page's title is its own name, this separator, then the site's name (app/layout.tsx's title
 * template). The root layout can only put the site's name in English: each translated page puts
 * its own in once its code runs (DocumentLang), and a page whose heading changes in place (the landing
 * page's status) gives the title the heading's words.
 */
export const TITLE_SEPARATOR = " · ";

/** `title` with the site's name after the separator replaced by `siteName`. */
export function withSiteName(title: string, siteName: string): string {
  const at = title.lastIndexOf(TITLE_SEPARATOR);
  return at < 0 ? title : title.slice(0, at + TITLE_SEPARATOR.length) + siteName;
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
