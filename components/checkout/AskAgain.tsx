/**
 * Without the page's code, the form's choices that change the page (the country, the bank search,
 * the whole bank list) take effect only when the page is asked again: a button that does, with
 * the form as it stands (and `name=value` besides, when it has one). Rendered by the server only:
 * no code of ours in the page's scripts.
 */
export function AskAgain({
  path,
  label,
  name,
  value,
  className = "btn btn-secondary",
}: {
  path: string;
  label: string;
  name?: string;
  value?: string;
  className?: string;
}) {
  return (
    <noscript>
      <button
        type="submit"
        className={className}
        formMethod="get"
        formAction={path}
        formNoValidate
        name={name}
        value={value}
      >
        {label}
      </button>
    </noscript>
  );
}
