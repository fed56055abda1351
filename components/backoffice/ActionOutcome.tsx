import type { RefObject } from "react";
import type { ActionResult } from "./action-state";

/**
 * What a staff action did, said in the page's live regions (a refusal in an alert, a success in a
 * status), both always on the page so that a screen reader hears what appears in them. The one
 * shown can take the focus when the button that asked goes away.
 */
export function ActionOutcome({
  name,
  outcome,
  messageRef,
  className,
}: {
  /** The regions' names: "{name} error" and "{name} result". */
  name: string;
  outcome: ActionResult | null;
  messageRef: RefObject<HTMLParagraphElement | null>;
  className: string | undefined;
}) {
  return (
    <>
      <div role="alert" aria-label={`${name} error`} className={className}>
        {outcome && !outcome.ok && (
          <p className="alert alert-error" ref={messageRef} tabIndex={-1}>
            {outcome.error}
          </p>
        )}
      </div>
      <div role="status" aria-label={`${name} result`} className={className}>
        {outcome?.ok && (
          <p className="alert alert-success" ref={messageRef} tabIndex={-1}>
            {outcome.message}
          </p>
        )}
      </div>
    </>
  );
}
